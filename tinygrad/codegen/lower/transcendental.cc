// File: tinygrad/codegen/lower/transcendental.cc
// Port of tinygrad/uop/decompositions.py: xexp2, xlog2, xsin (Cody-Waite and Payne-Hanek
// reductions), xpow, threefry2x32 and their bit-manipulation helpers.
//
// Every builder mirrors tinygrad's expression order exactly (x - c is x + (-c), a / b is
// a * RECIPROCAL(b), polyN starts from 0.0), so the graphs are the ones tinygrad builds.
#include "tinygrad/codegen/lower/transcendental.h"

#include <cmath>
#include <limits>
#include <vector>

#include "tinygrad/base/check.h"

namespace tg {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

// ** helper functions for bit manipulation **
int MantissaBits(DType d) { return dtypes::finfo(d.scalar()).second; }
int ExponentBias(DType d) {
  DType s = d.scalar();
  return s == dtypes::float64 ? 1023 : s == dtypes::float32 ? 127 : 15;
}
int ExponentMask(DType d) {
  DType s = d.scalar();
  return s == dtypes::float64 ? 2047 : s == dtypes::float32 ? 255 : 31;
}
// The signed int dtype of the same width as float d (same vector width).
DType IntOf(DType d) {
  DType s = d.scalar();
  DType i = s == dtypes::float64 ? dtypes::int64 : s == dtypes::float32 ? dtypes::int32 : dtypes::int16;
  return i.vec(d.vcount());
}
DType UIntOf(DType d) {
  DType s = d.scalar();
  DType i = s == dtypes::float64 ? dtypes::uint64 : s == dtypes::float32 ? dtypes::uint32 : dtypes::uint16;
  return i.vec(d.count());
}

// ** utils **
UOp Shr(const UOp& x, int y) { return x.idiv(ConstValue(i128{1} << y)); }
UOp Shl(const UOp& x, int y) { return x * ConstValue(i128{1} << y); }

// functools.reduce(lambda acc,c: acc*x+c, p, 0.0)
UOp PolyN(const UOp& x, const std::vector<double>& p) {
  UOp acc = ConstValue(0.0) * x + ConstValue(p[0]);
  for (size_t i = 1; i < p.size(); ++i) acc = acc * x + ConstValue(p[i]);
  return acc;
}

// round d:float to int away from 0
UOp Rintk(const UOp& d) {
  return (d + d.lt(ConstValue(0.0)).where(d.const_like(-0.5), d.const_like(0.5))).cast(IntOf(d.dtype()));
}

// cast(2^q, float_dtype) where q is any integer in the range of [-126, 127]
UOp Pow2if(const UOp& q, DType float_dtype) {
  DType qs = q.dtype().scalar();
  DType out = (qs == dtypes::int64 ? dtypes::float64 : qs == dtypes::int32 ? dtypes::float32
                                                                          : float_dtype.scalar())
                  .vec(q.dtype().vcount());
  return Shl(q + ExponentBias(out), MantissaBits(out)).bitcast(out);
}

// the integer part of log2(d), where d is normalized fp value in the range of [0, +inf)
UOp Ilogb2k(const UOp& d) {
  UOp dint = d.bitcast(IntOf(d.dtype()));
  // -1 <= ilog2bk(d) <= 128
  return (Shr(dint, MantissaBits(d.dtype())) & ExponentMask(d.dtype())) - ExponentBias(d.dtype());
}

// d*2^e. e is a number obtained by casting an integer in the range [-127, 127] to a float.
UOp Ldexp3k(const UOp& d, const UOp& e) {
  DType dt = IntOf(d.dtype());
  UOp m1 = d.bitcast(dt);
  UOp m2 = Shl(e.cast(dt), MantissaBits(d.dtype()));
  return (m1 + m2).bitcast(d.dtype()).cast(d.dtype());
}

// d*2^e. much faster than ldexp3k but risky. d > 0 and d is not denormal.
UOp Ldexp2k(const UOp& d, const UOp& e) {
  return (d * Pow2if(Shr(e, 1), d.dtype())) * Pow2if(e - Shr(e, 1), d.dtype());
}

// frexp(v) -> (mantissa, exponent) assuming v != 0
std::pair<UOp, UOp> Frexp(const UOp& v) {
  DType s = v.dtype().scalar();
  // m1 = masks for mantissa, m2 = masks to normalize the mantissa.
  int64_t m1 = s == dtypes::float64 ? 0x000FFFFFFFFFFFFF : s == dtypes::float32 ? 0x807FFFFF : 0x83FF;
  int64_t m2 = s == dtypes::float64 ? 0x3FE0000000000000 : s == dtypes::float32 ? 0x3F000000 : 0x3800;
  UOp bits = v.bitcast(UIntOf(v.dtype()));
  UOp exponent = Shr(bits, MantissaBits(v.dtype())) & ExponentMask(v.dtype());
  // Set the exponent bits appropriately to normalize the mantissa into the range of [0.5, 1.0).
  UOp mantissa = ((bits & m1) | m2).bitcast(v.dtype());
  UOp exp = exponent - ExponentBias(v.dtype()) + 1;
  return {mantissa, exp};
}

// x.ne(inf) ? (x.ne(x) ? nan : (x.ne(-inf) ? ratio : _inf)) : inf
UOp LazyMapNumbers(const UOp& x, const UOp& inf, const UOp& minf, const UOp& nan,
                   const UOp& ratio) {
  return x.ne(ConstValue(kInf)).where(
      x.ne(x).where(nan, x.ne(ConstValue(-kInf)).where(ratio, minf)), inf);
}

// ** reduction algorithms for sine **

// The remainder of d modulo pi/2 for 39800.0 <= d <= +Inf: (r, q) with q % 4 the quadrant.
std::pair<UOp, UOp> PayneHanekReduction(const UOp& d) {
  // 190 bits of 2/pi for Payne-Hanek style argument reduction
  static constexpr int64_t kTwoOverPiF[] = {0x00000000, 0x28be60db, 0x9391054a, 0x7f09d5f4,
                                            0x7d4d3770, 0x36d8a566, 0x4f10e410};
  constexpr int kLen = 7;
  DType intermediate = d.dtype().base().scalar() == dtypes::float16
                           ? dtypes::float32.vec(d.dtype().count())
                           : d.dtype();
  auto [f, e0] = Frexp(d);
  UOp ia = (f.cast(intermediate) * 4.294967296e9).cast(dtypes::uint64);
  // extract 96 relevant bits of 2/pi based on magnitude of argument
  UOp i = Shr(e0.cast(dtypes::uint64), 5);
  UOp e = e0.cast(dtypes::int32) & 31;
  UOp offset = ConstValue(32) - e;

  // an = two_over_pi_f[i+offset]
  auto take = [&](UOp an, int off) {
    int start = std::max(0, kLen - 1 - off);  // the innermost count that still recurses
    UOp ret = an;
    for (int count = start; count >= 0; --count) {
      if (count + off < kLen - 1)
        ret = i.ne(ConstValue(count)).where(ret, an.const_like(kTwoOverPiF[count + off]));
    }
    return ret;
  };
  auto shl_lazy = [&](const UOp& x, const UOp& y) {
    return (x.cast(dtypes::uint64) * Pow2if(y, d.dtype()).cast(dtypes::uint64)).cast(dtypes::uint32);
  };
  auto shr_lazy = [&](const UOp& x, const UOp& y) {
    return (x.cast(dtypes::uint64).idiv(Pow2if(y, d.dtype()).cast(dtypes::uint64))).cast(dtypes::uint32);
  };
  std::vector<UOp> a;
  for (int k = 0; k < 4; ++k) a.push_back(take(UOp::Const(dtypes::uint32.vec(d.dtype().count()), 0), k));
  // (two_over_pi_f[Int(i) + n] << e) | (two_over_pi_f[Int(i) + n+1] >> (nbits - e))
  // Note: e >= 1 for all numbers d >= 1.0. assume e != 0
  UOp hi = shl_lazy(a[0], e) | shr_lazy(a[1], offset);
  UOp mi = shl_lazy(a[1], e) | shr_lazy(a[2], offset);
  UOp lo = shl_lazy(a[2], e) | shr_lazy(a[3], offset);

  auto hp_mul = [](const UOp& x, const UOp& y) {
    return x.cast(dtypes::uint64) * y.cast(dtypes::uint64);
  };
  // compute x * 2/pi
  UOp p = Shl(hp_mul(ia, hi), 32) + hp_mul(ia, mi) + Shr(hp_mul(ia, lo), 32);
  // round quotient to nearest
  UOp q = Shr(p, 62).cast(dtypes::int32);
  p = p & ConstValue(int64_t{0x3fffffffffffffff});
  UOp r = (p.cast(intermediate) * 3.4061215800865545e-19).cast(d.dtype());
  // if fraction >= 0.5, r -= pi/2, q += 1
  UOp lt_half = f.lt(ConstValue(0.5));
  return {lt_half.where(r, r - kPi / 2), lt_half.where(q, q + 1)};
}

// r = x - q*pi with extended precision (SLEEF's Cody-Waite constants)
UOp ReduceD(const UOp& x, const UOp& q, const UOp& qdh) {
  DType s = x.dtype().scalar();
  if (s == dtypes::float64) {
    const double pi_a = 3.1415926218032836914, pi_b = 3.1786509424591713469e-08,
                 pi_c = 1.2246467864107188502e-16, pi_d = 1.2736634327021899816e-24;
    UOp d = qdh * -pi_a + x;
    d = q * -pi_a + d;
    d = qdh * -pi_b + d;
    d = q * -pi_b + d;
    d = qdh * -pi_c + d;
    d = q * -pi_c + d;
    return (qdh + q) * -pi_d + d;
  }
  if (s == dtypes::float16) {
    // [FIXME] when reducing `d`, FP16 needs FP32 precision to achieve 1.0 ULP precision.
    return ReduceD(x.cast(dtypes::float32), q.cast(dtypes::float32), qdh).cast(dtypes::float16);
  }
  UOp d = q * -3.1414794921875 + x;
  d = q * -0.00011315941810607910156 + d;
  d = q * -1.9841872589410058936e-09 + d;
  return q * -1.2154201256553420762e-10 + d;
}

// The remainder of d modulo pi/2 for 0 <= abs(d) <= 39800.0, as PayneHanekReduction.
std::pair<UOp, UOp> CodyWaiteReduction(const UOp& d) {
  const double m_1_pi = 0.318309886183790671537767526745028724;
  UOp qdh = (d * (m_1_pi / 16777216.0)).cast(dtypes::int64).cast(d.dtype()) * 16777216.0;
  UOp quadrant = d.dtype().base().scalar() == dtypes::float64 ? Rintk(d * m_1_pi - qdh)
                                                              : Rintk(d * m_1_pi);
  return {ReduceD(d, quadrant.cast(d.dtype()), qdh), quadrant.cast(dtypes::int32)};
}

// ** approximate sine on small angle **
const std::vector<double> kSinCoeff32 = {2.6083159809786593541503e-06, -0.0001981069071916863322258,
                                         0.00833307858556509017944336, -0.166666597127914428710938, 1.0};
const std::vector<double> kSinCoeff64 = {
    -7.97255955009037868891952e-18, 2.81009972710863200091251e-15, -7.64712219118158833288484e-13,
    1.60590430605664501629054e-10,  -2.50521083763502045810755e-08, 2.75573192239198747630416e-06,
    -0.000198412698412696162806809, 0.00833333333333332974823815,   -0.166666666666666657414808,
    1.0};

// approximate sine on [-pi/2, pi/2]
UOp SinPoly(const UOp& d) {
  return d * PolyN(d * d, d.dtype().scalar() == dtypes::float64 ? kSinCoeff64 : kSinCoeff32);
}
UOp IfAnd(const UOp& q, int n) { return (q & n).ne(ConstValue(0)); }
UOp SinPolySmall(const UOp& d, const UOp& q) {
  UOp r = SinPoly(d);
  return r * IfAnd(q, 1).where(r.const_like(-1), r.const_like(1));
}
UOp SinPolyLarge(const UOp& d, const UOp& q) {
  UOp r = SinPoly(d + IfAnd(q, 1).where(d.const_like(kPi / 2), d.const_like(0)));
  return r * IfAnd(q, 2).where(r.const_like(-1), r.const_like(1));
}

}  // namespace

bool IsTranscendentalDtype(DType d) {
  DType s = d.scalar();
  return !d.is_ptr() && (s == dtypes::float16 || s == dtypes::float32 || s == dtypes::float64);
}

UOp XSin(const UOp& d, bool fast, double switch_over) {
  TG_CHECK(IsTranscendentalDtype(d.dtype())) << "xsin of " << d.dtype();
  // mask +-inf/nan as zero
  UOp zero = d.const_like(0.0);
  UOp x = LazyMapNumbers(d, zero, zero, zero, d);
  // x_sign = sign(x)
  UOp x_sign = x.ne(ConstValue(0)).where(x.lt(ConstValue(0)).where(x.const_like(-1), x.const_like(1)),
                                         x.const_like(0));
  UOp x_abs = x * x_sign;
  auto [r, q] = fast ? CodyWaiteReduction(x_abs) : PayneHanekReduction(x_abs);
  UOp result;
  if (fast) {
    result = SinPolySmall(r, q);
  } else {
    // Payne Hanek Reduction assumes abs(x) >= pi/4, so for smaller values, use cody_waite_reduction.
    auto [r_small, q_small] = CodyWaiteReduction(x_abs);
    result = x_abs.lt(ConstValue(switch_over)).where(SinPolySmall(r_small, q_small), SinPolyLarge(r, q));
  }
  // adjusts the sign for abs(x)
  result = result * x_sign;
  // sin(Inf) = NaN, sin(-Inf) = NaN, sin(NaN) = NaN
  UOp nan = d.const_like(kNan);
  return LazyMapNumbers(d, nan, nan, nan, result);
}

UOp XExp2(const UOp& d) {
  TG_CHECK(IsTranscendentalDtype(d.dtype())) << "xexp2 of " << d.dtype();
  DType s = d.dtype().scalar();
  // mask +=inf/nan as zero.
  UOp zero = d.const_like(0.0);
  UOp x = LazyMapNumbers(d, zero, zero, zero, d);
  UOp q = Rintk(x);
  // s = d - round(d)
  UOp sf = x - q.cast(x.dtype());
  // a polynomial approximation with 13 non-zero terms in the range of [-(log 2)/2,(log 2)/2].
  UOp u = s == dtypes::float64
              ? PolyN(sf, {0.4434359082926529454e-9, 0.7073164598085707425e-8, 0.1017819260921760451e-6,
                           0.1321543872511327615e-5, 0.1525273353517584730e-4, 0.1540353045101147808e-3,
                           0.1333355814670499073e-2, 0.9618129107597600536e-2, 0.5550410866482046596e-1,
                           0.2402265069591012214e+0, 0.6931471805599452862e+0, 0.1000000000000000000e+1})
              : PolyN(sf, {0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                           0.2402264476e+0, 0.6931471825e+0, 1.0});
  u = Ldexp2k(u, q);  // u*2^q
  int upper = s == dtypes::float64 ? 1024 : s == dtypes::float32 ? 128 : 23;
  int lower = s == dtypes::float64 ? -2000 : s == dtypes::float32 ? -150 : -22;
  // Replace x >= upper with +inf
  u = d.ge(ConstValue(upper)).where(d.const_like(kInf), u);
  // Replace x < lower with zero.
  u = d.lt(ConstValue(lower)).where(d.const_like(0.0), u);
  // exp2(NaN) = NaN
  return d.ne(d).where(d.const_like(kNan), u);
}

UOp XLog2(const UOp& d) {
  TG_CHECK(IsTranscendentalDtype(d.dtype())) << "xlog2 of " << d.dtype();
  DType s = d.dtype().scalar();
  // float16 uses 2^10 for denormal scaling (2^64 overflows), float32/64 use 2^64
  int denormal_exp = s == dtypes::float16 ? 10 : 64;
  UOp flt_min = d.const_like(s == dtypes::float16 ? 6.1e-5 : 1e-4);
  UOp is_denormal = d.lt(flt_min);
  UOp a = is_denormal.where(d * ConstValue(i128{1} << denormal_exp), d);

  UOp e = Ilogb2k(a * (1.0 / 0.75)).cast(a.dtype());
  UOp m = Ldexp3k(a, -e);
  e = is_denormal.where(e - denormal_exp, e);

  UOp x = (m - 1.0) / (m + 1.0);
  UOp x2 = x * x;
  UOp r;
  if (s == dtypes::float64) {
    UOp t = PolyN(x2, {0.2211941750456081490e+0, 0.2200768693152277689e+0, 0.2623708057488514656e+0,
                       0.3205977477944495502e+0, 0.4121985945485324709e+0, 0.5770780162997058982e+0,
                       0.96179669392608091449});
    r = t * (x * x2) + e + x * 2.885390081777926774;
  } else {
    UOp t = PolyN(x2, {0.4374550283e+0, 0.5764790177e+0, 0.9618012905120});
    // s_lo term (x*3.27e-08) only for float32 - underflows in float16
    UOp base = t * (x * x2) + e + x * 2.8853900432586669922;
    r = s == dtypes::float32 ? base + x * 3.2734474483568488616e-08 : base + ConstValue(0);
  }
  // log2(Inf) = Inf
  r = d.ne(ConstValue(kInf)).where(r, r.const_like(kInf));
  // log2(0) = -Inf (handle both +0.0 and -0.0)
  r = d.ne(ConstValue(0.0)).where(r, r.const_like(-kInf));
  // log2(x) = NaN for x < 0
  r = d.lt(ConstValue(-0.0)).where(r.const_like(kNan), r);
  // log2(NaN) = NaN
  r = d.ne(d).where(r.const_like(kNan), r);
  // log2(-0.0) = -Inf. In certain devices like PTX, x == -0.0 won't be true. so making reciprocal.
  return d.reciprocal().ne(ConstValue(-kInf)).where(r, r.const_like(-kInf));
}

UOp XPow(const UOp& base, const UOp& exponent) {
  // start with b ** e = exp2(e * log2(b))
  UOp ret = (base.lt(ConstValue(0)).where(-base, base).log2() * exponent).exp2();
  // negative base adjustment: nan for non-integer exponent and -1 for odd exponent
  UOp non_int = exponent.ne(exponent.cast(dtypes::int32).cast(exponent.dtype()));
  UOp odd = (exponent.lt(ConstValue(0)).where(-exponent, exponent).cast(dtypes::int32) % 2)
                .cast(dtypes::bool_);
  UOp adj = non_int.where(ret.const_like(kNan), odd.where(ret.const_like(-1), ret.const_like(1)));
  // fix 0 ** 0 = 1
  return (base.eq(ConstValue(0)) & exponent.eq(ConstValue(0)))
      .where(ret.const_like(1), ret * base.lt(ConstValue(0)).where(adj, ret.const_like(1)));
}

UOp Threefry2x32(const UOp& x, const UOp& key) {
  constexpr int64_t kLo = 0xffffffff;
  const ConstValue two32(int64_t{1} << 32);
  // split x and key from uint64 to two uint32
  UOp x0 = (x & kLo).cast(dtypes::uint32), x1 = (x.idiv(two32) & kLo).cast(dtypes::uint32);
  UOp key0 = (key & kLo).cast(dtypes::uint32), key1 = (key.idiv(two32) & kLo).cast(dtypes::uint32);

  const int rotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  UOp ks[3] = {key1, key0 ^ key1 ^ 0x1BD11BDA, key0};
  UOp xr[2] = {x0 + ks[2], x1 + ks[0]};
  for (int i = 0; i < 5; ++i) {
    for (int r : rotations[i % 2]) {
      UOp nx0 = xr[0] + xr[1];
      xr[1] = nx0 ^ ((xr[1] * ConstValue(int64_t{1} << r)) + xr[1].idiv(ConstValue(int64_t{1} << (32 - r))));
      xr[0] = nx0;
    }
    UOp n0 = xr[0] + ks[i % 3];
    UOp n1 = xr[1] + ks[(i + 1) % 3] + i + 1;
    xr[0] = n0, xr[1] = n1;
  }
  return xr[1].cast(dtypes::uint64) * two32 | xr[0].cast(dtypes::uint64);
}

}  // namespace tg
