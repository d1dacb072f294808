// File: tinygrad/codegen/lower/fast_idiv.cc
// Port of tinygrad/uop/decompositions.py: magicgu and fast_idiv (integer division by a
// constant as multiply and shift).
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/lower/transcendental.h"

namespace tg {
namespace {

int BitLength(i128 v) {
  int n = 0;
  for (; v > 0; v >>= 1) ++n;
  return n;
}

// promo_lattice[d][-1] for the int dtypes whose next dtype is an int (others: void).
DType NextIntDtype(DType d) {
  DType s = d.scalar();
  if (s == dtypes::int8) return dtypes::int16;
  if (s == dtypes::int16) return dtypes::int32;
  if (s == dtypes::int32) return dtypes::int64;
  if (s == dtypes::uint8) return dtypes::uint16;
  if (s == dtypes::uint16) return dtypes::uint32;
  if (s == dtypes::uint32) return dtypes::uint64;
  return dtypes::void_;  // int64/uint64 promote to floats
}

i128 MinOf(DType d) { return dtypes::min(d.scalar()).to_int(); }
i128 MaxOf(DType d) { return dtypes::max(d.scalar()).to_int(); }

UOp FastIdivImpl(const UOp& x, i128 d, bool dont_cast) {
  // If d is a power of two this is not valid for signed ints!
  DType dt = x.dtype();
  bool is_unsigned = x.vmin().to_int() >= 0 || (dt.count() == 1 && dtypes::is_unsigned(dt));
  TG_CHECK(d > 0) << "Sign should have been taken out of divisor";
  // (x*m) >> s + (x<0) needs m*d > 2**s, which fails when d is a power of two (tinygrad
  // returns a wrong result for negative x there, e.g. x//1 -> x+1; its SHR rule and
  // symbolic's x//1 -> x usually come first). We decline instead.
  if (!is_unsigned && (d & (d - 1)) == 0) return {};
  i128 vmin = std::max(x.vmin().to_int(), MinOf(dt)), vmax = std::min(x.vmax().to_int(), MaxOf(dt));
  auto [m, s] = MagicGu(std::max(vmax, vmin < 0 ? -vmin : vmin), d);
  if (m == 0) return {};
  auto signed_fix = [&](const UOp& q) {
    return is_unsigned ? q : q + x.lt(ConstValue(0)).where(x.const_like(1), ConstValue(0));
  };
  if (m * vmin >= MinOf(dt) && m * vmax <= MaxOf(dt)) return signed_fix((x * ConstValue(m)) >> s);
  // before we try casting to a larger dtype (slow), we see if there are powers of two in d we
  // can shift to make x smaller
  i128 largest_factor_of_two_in_d = d & -d;
  if (largest_factor_of_two_in_d > 1) {
    UOp ret = FastIdivImpl(x.idiv(ConstValue(largest_factor_of_two_in_d)),
                           d / largest_factor_of_two_in_d, /*dont_cast=*/true);
    if (ret) return ret;
  }
  if (dont_cast) return {};
  // TODO(parity): tinygrad also asks is_dtype_supported(next_dtype, device).
  DType next = NextIntDtype(dt);
  if (next != dtypes::void_ && m * vmin >= MinOf(next) && m * vmax <= MaxOf(next))
    return signed_fix(((x.cast(next) * ConstValue(m)) >> s).cast(dt));
  return {};
}

}  // namespace

std::pair<i128, int> MagicGu(i128 vmax, i128 d) {
  TG_CHECK(d > 0 && vmax >= 0 && vmax < (i128{1} << 64)) << "magicgu out of range";
  // tinygrad's nc is -1 when vmax < d and the loop then returns m=1, s=0 (x//d -> x); its
  // symbolic pass folds such divisions to 0 first. A bound of at least d is correct for all x.
  vmax = std::max(vmax, d);
  i128 nc = (vmax + 1) / d * d - 1;
  int nbits = BitLength(vmax);
  for (int s = 0; s <= 2 * nbits; ++s) {
    if (s >= 126) break;  // beyond 128-bit math: no multiplier (the caller keeps the IDIV)
    i128 p = i128{1} << s;
    i128 r = (p - 1) % d;
    if (p > nc * (d - 1 - r)) return {(p + d - 1 - r) / d, s};
  }
  return {0, 0};
}

UOp FastIdiv(const UOp& x, int64_t d, bool allow_wider_dtype) {
  return FastIdivImpl(x, d, !allow_wider_dtype);
}

}  // namespace tg
