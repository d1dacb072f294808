// File: tinygrad/dtype/const_value.cc
// Port of tinygrad's Python-number semantics for ConstType, and of tinygrad/dtype.py's value
// helpers: dtypes.as_const/min/max, truncate, float_to_fp16, float_to_bf16, float_to_fp8 and
// fp8_to_float; plus tinygrad/helpers.py's cdiv/cmod.
#include "tinygrad/dtype/const_value.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "tinygrad/base/check.h"
#include "tinygrad/base/stable_hash.h"

namespace tg {
namespace {

using u128 = unsigned __int128;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// 2**120 as a double, exactly: int() of floats at or beyond it saturates.
constexpr double kIntInfAsDouble = 1329227995784915872903807060280344576.0;

i128 Saturate(i128 v) { return std::clamp(v, -kIntInf, kIntInf); }

bool IsIntLike(const ConstValue& v) { return v.is_int() || v.is_bool(); }

void CheckNumeric(const ConstValue& a, const ConstValue& b, const char* op) {
  TG_CHECK(!a.is_invalid() && !b.is_invalid())
      << "numeric " << op << " with Invalid: " << a << ", " << b;
}

// Python's repr(float): the shortest digits that round-trip, in exponent form when the
// decimal point position is <= -4 or > 16, else fixed with at least one fractional digit.
std::string PythonFloatRepr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific);
  TG_CHECK(res.ec == std::errc()) << "to_chars failed";
  std::string_view s(buf, res.ptr - buf);  // "-1.2345e+16", "5e-324", "0e+00"
  std::string out;
  if (s.front() == '-') {
    out = "-";
    s.remove_prefix(1);
  }
  size_t e_pos = s.find('e');
  std::string digits;
  for (char c : s.substr(0, e_pos)) {
    if (c != '.') digits += c;
  }
  int exp10 = 0;
  std::string_view exp_str = s.substr(e_pos + 1);
  if (exp_str.front() == '+') exp_str.remove_prefix(1);
  std::from_chars(exp_str.data(), exp_str.data() + exp_str.size(), exp10);
  int decpt = exp10 + 1;  // value = 0.<digits> * 10**decpt
  int n = static_cast<int>(digits.size());
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (n > 1) out += "." + digits.substr(1);
    int e = decpt - 1;
    out += e < 0 ? "e-" : "e+";
    std::string e_digits = std::to_string(std::abs(e));
    if (e_digits.size() < 2) out += "0";
    return out + e_digits;
  }
  if (decpt <= 0) return out + "0." + std::string(-decpt, '0') + digits;
  if (decpt >= n) return out + digits + std::string(decpt - n, '0') + ".0";
  return out + digits.substr(0, decpt) + "." + digits.substr(decpt);
}

// IEEE binary16 bits to double (struct.unpack('e')).
double HalfBitsToDouble(uint32_t h) {
  bool neg = h & 0x8000;
  int exp = (h >> 10) & 0x1F;
  int mant = h & 0x3FF;
  double mag;
  if (exp == 0x1F) {
    mag = mant == 0 ? kInf : kNaN;
  } else if (exp == 0) {
    mag = std::ldexp(mant, -24);
  } else {
    mag = std::ldexp(mant | 0x400, exp - 25);
  }
  return neg ? -mag : mag;
}

// ctypes' c_intN/c_uintN(x).value: keep the low `bits` bits, two's complement.
i128 WrapInt(i128 v, int bits, bool is_signed) {
  u128 u = static_cast<u128>(v) & ((u128{1} << bits) - 1);
  if (is_signed && (u >> (bits - 1)) & 1) return static_cast<i128>(u) - (i128{1} << bits);
  return static_cast<i128>(u);
}

}  // namespace

std::string I128ToString(i128 v) {
  u128 mag = v < 0 ? -static_cast<u128>(v) : static_cast<u128>(v);
  std::string digits;
  do {
    digits += static_cast<char>('0' + static_cast<int>(mag % 10));
    mag /= 10;
  } while (mag != 0);
  if (v < 0) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// ---- ConstValue ----

ConstValue::ConstValue(i128 v) : kind_(Kind::kInt), i_(Saturate(v)) {}

ConstValue::ConstValue(double v) : kind_(Kind::kFloat), f_(std::isnan(v) ? kNaN : v) {}

i128 ConstValue::to_int() const {
  switch (kind_) {
    case Kind::kBool:
    case Kind::kInt:
      return i_;
    case Kind::kFloat:
      TG_CHECK(!std::isnan(f_)) << "int() of nan";
      if (f_ >= kIntInfAsDouble) return kIntInf;
      if (f_ <= -kIntInfAsDouble) return -kIntInf;
      return static_cast<i128>(f_);  // truncates toward zero, like Python's int()
    case Kind::kInvalid:
      break;
  }
  TG_CHECK(false) << "int() of Invalid";
  return 0;
}

int64_t ConstValue::to_int64() const {
  i128 v = to_int();
  TG_CHECK(v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max())
      << "value " << repr() << " does not fit in int64";
  return static_cast<int64_t>(v);
}

double ConstValue::to_float() const {
  switch (kind_) {
    case Kind::kBool:
    case Kind::kInt:
      return static_cast<double>(i_);  // round to nearest, like Python's float()
    case Kind::kFloat:
      return f_;
    case Kind::kInvalid:
      break;
  }
  TG_CHECK(false) << "float() of Invalid";
  return 0;
}

// Python's bool(): nonzero (nan included); Invalid is an ordinary object, so truthy.
bool ConstValue::to_bool() const {
  switch (kind_) {
    case Kind::kBool:
    case Kind::kInt:
      return i_ != 0;
    case Kind::kFloat:
      return f_ != 0.0 || std::isnan(f_);
    case Kind::kInvalid:
      return true;
  }
  return true;
}

std::string ConstValue::repr() const {
  switch (kind_) {
    case Kind::kBool:
      return i_ ? "True" : "False";
    case Kind::kInt:
      return I128ToString(i_);
    case Kind::kFloat:
      return PythonFloatRepr(f_);
    case Kind::kInvalid:
      return "Invalid";
  }
  return "?";
}

uint64_t ConstValue::StableHash() const {
  StableHasher h;
  h.Add(static_cast<uint64_t>(kind_));
  if (kind_ == Kind::kFloat) {
    h.Add(std::bit_cast<uint64_t>(f_));
  } else if (kind_ != Kind::kInvalid) {
    h.Add(static_cast<uint64_t>(static_cast<u128>(i_)));
    h.Add(static_cast<uint64_t>(static_cast<u128>(i_) >> 64));
  }
  return h.Finish();
}

// Bitwise for floats: NaN is canonical so NaN == NaN, and 0.0 != -0.0 (see the header).
bool operator==(const ConstValue& a, const ConstValue& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case ConstValue::Kind::kBool:
    case ConstValue::Kind::kInt:
      return a.i_ == b.i_;
    case ConstValue::Kind::kFloat:
      return std::bit_cast<uint64_t>(a.f_) == std::bit_cast<uint64_t>(b.f_);
    case ConstValue::Kind::kInvalid:
      return true;
  }
  return false;
}

std::ostream& operator<<(std::ostream& os, const ConstValue& c) { return os << c.repr(); }

// ---- Python arithmetic ----

ConstValue operator+(const ConstValue& a, const ConstValue& b) {
  CheckNumeric(a, b, "+");
  if (!IsIntLike(a) || !IsIntLike(b)) return ConstValue(a.to_float() + b.to_float());
  i128 r;
  if (__builtin_add_overflow(a.to_int(), b.to_int(), &r)) r = a.to_int() < 0 ? -kIntInf : kIntInf;
  return ConstValue(r);
}

ConstValue operator-(const ConstValue& a, const ConstValue& b) {
  CheckNumeric(a, b, "-");
  if (!IsIntLike(a) || !IsIntLike(b)) return ConstValue(a.to_float() - b.to_float());
  i128 r;
  if (__builtin_sub_overflow(a.to_int(), b.to_int(), &r)) r = a.to_int() < 0 ? -kIntInf : kIntInf;
  return ConstValue(r);
}

ConstValue operator*(const ConstValue& a, const ConstValue& b) {
  CheckNumeric(a, b, "*");
  if (!IsIntLike(a) || !IsIntLike(b)) return ConstValue(a.to_float() * b.to_float());
  i128 r;
  if (__builtin_mul_overflow(a.to_int(), b.to_int(), &r)) {
    r = (a.to_int() < 0) != (b.to_int() < 0) ? -kIntInf : kIntInf;
  }
  return ConstValue(r);
}

ConstValue operator-(const ConstValue& a) {
  TG_CHECK(!a.is_invalid()) << "-Invalid";
  if (a.is_float()) return ConstValue(-a.to_float());
  return ConstValue(-a.to_int());  // -True is -1, an int
}

// Python compares int with float exactly (no rounding of the int), and nan with nothing.
bool NumLess(const ConstValue& a, const ConstValue& b) {
  CheckNumeric(a, b, "<");
  if (IsIntLike(a) && IsIntLike(b)) return a.to_int() < b.to_int();
  if (!IsIntLike(a) && !IsIntLike(b)) return a.to_float() < b.to_float();
  // Exactly one is a float: compare i against d, flipping when the float is on the left.
  bool flip = !IsIntLike(a);
  i128 i = flip ? b.to_int() : a.to_int();
  double d = flip ? a.to_float() : b.to_float();
  if (std::isnan(d)) return false;
  // |i| <= 2**120, so a float beyond that is strictly greater or smaller.
  if (d >= kIntInfAsDouble * 2) return !flip;
  if (d <= -kIntInfAsDouble * 2) return flip;
  double t = std::trunc(d);
  i128 ti = static_cast<i128>(t);
  if (i != ti) return flip ? ti < i : i < ti;
  double frac = d - t;  // exact; i == trunc(d), so the fraction decides
  return flip ? frac < 0 : frac > 0;
}

// Invalid is a singleton that is only equal to itself (tinygrad's InvalidType.__eq__).
bool NumEq(const ConstValue& a, const ConstValue& b) {
  if (a.is_invalid() || b.is_invalid()) return a.is_invalid() && b.is_invalid();
  if (IsIntLike(a) && IsIntLike(b)) return a.to_int() == b.to_int();
  if (!IsIntLike(a) && !IsIntLike(b)) return a.to_float() == b.to_float();
  return !NumLess(a, b) && !NumLess(b, a) &&
         !std::isnan(a.is_float() ? a.to_float() : b.to_float());
}

// Python's min(a, b) keeps a unless b < a; max(a, b) keeps a unless a < b (so nan sticks
// only in the first position, as in Python).
ConstValue NumMin(const ConstValue& a, const ConstValue& b) { return NumLess(b, a) ? b : a; }
ConstValue NumMax(const ConstValue& a, const ConstValue& b) { return NumLess(a, b) ? b : a; }

// tinygrad's cdiv: abs(x)//abs(y) with the sign of x*y; y == 0 gives 0 (and cmod gives x).
i128 CDiv(i128 a, i128 b) {
  if (b == 0) return 0;
  if (b == -1) return a == std::numeric_limits<i128>::min() ? kIntInf : -a;  // no UB on MIN/-1
  return a / b;  // C++ division truncates toward zero
}

i128 CMod(i128 a, i128 b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  return a % b;
}

// ---- dtype value helpers ----

namespace dtypes {

ConstValue as_const(const ConstValue& v, DType d) {
  if (v.is_invalid()) return v;
  if (is_int(d)) return ConstValue(v.to_int());
  if (is_float(d)) return ConstValue(v.to_float());
  return ConstValue(v.to_bool());
}

ConstValue min(DType d) {
  if (is_int(d)) {
    if (is_unsigned(d)) return ConstValue(0);
    if (d.scalar_type() == ScalarType::kIndex) return ConstValue(-kIntInf);
    return ConstValue(-(i128{1} << (DType(d.scalar_type()).bitsize() - 1)));
  }
  return is_float(d) ? ConstValue(-kInf) : ConstValue(false);
}

ConstValue max(DType d) {
  if (is_int(d)) {
    if (d.scalar_type() == ScalarType::kIndex) return ConstValue(kIntInf);
    return ConstValue((i128{1} << DType(d.scalar_type()).bitsize()) - 1 + min(d).to_int());
  }
  return is_float(d) ? ConstValue(kInf) : ConstValue(true);
}

}  // namespace dtypes

ConstValue Truncate(const ConstValue& v, DType d) {
  if (v.is_invalid()) return v;
  TG_CHECK(!d.is_ptr() && d.scalar_type() != ScalarType::kVoid) << "no truncate for " << d;
  // Vectors truncate lane-wise, as exec_alu does on the scalar dtype.
  using S = ScalarType;
  S s = d.scalar_type();
  switch (s) {
    case S::kIndex:
      return v;
    case S::kBool:
      return ConstValue(v.to_bool());
    case S::kInt8:
    case S::kUInt8:
    case S::kInt16:
    case S::kUInt16:
    case S::kInt32:
    case S::kUInt32:
    case S::kInt64:
    case S::kUInt64:
      // ctypes.c_int8(1.5) raises TypeError: folding a float into an int dtype is a bug.
      TG_CHECK(!v.is_float()) << "truncate of float " << v << " to " << d;
      return ConstValue(WrapInt(v.to_int(), DType(s).bitsize(), !dtypes::is_unsigned(d)));
    case S::kFloat32:
      return ConstValue(static_cast<double>(static_cast<float>(v.to_float())));
    case S::kFloat64:
      return ConstValue(v.to_float());
    case S::kFloat16:
      return ConstValue(RoundToFloat16(v.to_float()));
    case S::kBFloat16:
      return ConstValue(RoundToBFloat16(v.to_float()));
    case S::kFp8e4m3:
    case S::kFp8e5m2: {
      DType fp8(s);
      return ConstValue(Fp8ToFloat(FloatToFp8(v.to_float(), fp8), fp8));
    }
    case S::kVoid:
      break;
  }
  TG_CHECK(false) << "unreachable: " << d;
  return v;
}

// struct.pack('e') rounding: to nearest even with 11 significant bits and subnormals down to
// 2**-24; a result beyond half's max (65504) overflows, which float_to_fp16 turns into inf.
double RoundToFloat16(double x) {
  if (!std::isfinite(x) || x == 0) return x;
  int ulp_exp = std::max(std::ilogb(x) - 10, -24);
  // Scaling by powers of two is exact here; nearbyint rounds half to even.
  double r = std::ldexp(std::nearbyint(std::ldexp(x, -ulp_exp)), ulp_exp);
  if (std::fabs(r) > 65504.0) return std::copysign(kInf, x);
  return r;
}

// float_to_bf16: round to float32 first, then to bfloat16 on float32's bits (nearest even).
// That is a double rounding, kept for parity. Finite x beyond float32's range becomes inf, as
// struct.pack('f') gives (Python 3.11).
double RoundToBFloat16(double x) {
  if (!std::isfinite(x)) return x;
  uint32_t u = std::bit_cast<uint32_t>(static_cast<float>(x));
  u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000u;
  return std::bit_cast<float>(u);
}

// Port of float_to_fp8 (itself from cuda_fp8.hpp): round to nearest even, saturating to the
// max normal; e4m3 has no inf, so +-inf and nan become its nan (0x7f/0xff, like jax).
uint8_t FloatToFp8(double x, DType fp8) {
  bool e4 = fp8 == dtypes::fp8e4m3;
  TG_CHECK(e4 || fp8 == dtypes::fp8e5m2) << "FloatToFp8 is only for fp8s, got " << fp8;
  if (e4 && !std::isfinite(x)) return std::signbit(x) ? 0xff : 0x7f;
  if (!e4 && std::isinf(x)) return std::signbit(x) ? 0xfc : 0x7c;
  const int exp_bias = e4 ? 7 : 15;
  const int sig_bits = e4 ? 4 : 3;
  const uint64_t mantissa_mask = e4 ? 0x7 : 0x3;
  const uint64_t min_denorm_o2 = e4 ? 0x3F50000000000000 : 0x3EE0000000000000;
  const uint64_t overflow_threshold = e4 ? 0x407D000000000000 : 0x40EE000000000000 - 1;
  const uint64_t max_norm = e4 ? 0x7E : 0x7B;
  const uint64_t min_norm = e4 ? 0x3F90000000000000 : 0x3F10000000000000;

  uint64_t xbits = std::bit_cast<uint64_t>(x);
  const uint64_t half_ulp = uint64_t{1} << (53 - sig_bits - 1);
  uint64_t sign = ((xbits >> 63) & 1) << 7;
  int64_t exp = static_cast<int64_t>((xbits >> 52) & 0x7FF) - 1023 + exp_bias;
  uint64_t mantissa = (xbits >> (53 - sig_bits)) & mantissa_mask;
  uint64_t absx = xbits & 0x7FFFFFFFFFFFFFFF;

  uint64_t res;
  if (absx <= min_denorm_o2) {
    res = 0;
  } else if (absx > 0x7FF0000000000000) {
    res = e4 ? 0x7F : (0x7E | mantissa);
  } else if (absx > overflow_threshold) {
    res = max_norm;
  } else if (absx >= min_norm) {
    res = (static_cast<uint64_t>(exp) << (sig_bits - 1)) | mantissa;
    uint64_t round_bits = xbits & ((half_ulp << 1) - 1);
    if (round_bits > half_ulp || (round_bits == half_ulp && (mantissa & 1))) res += 1;
  } else {
    int64_t shift = 1 - exp;  // >= 1: x is below the smallest normal
    mantissa |= uint64_t{1} << (sig_bits - 1);
    res = mantissa >> shift;
    uint64_t round_bits = (xbits | (uint64_t{1} << 52)) & ((half_ulp << (shift + 1)) - 1);
    uint64_t half = half_ulp << shift;
    if (round_bits > half || (round_bits == half && (res & 1))) res += 1;
  }
  return static_cast<uint8_t>(res | sign);
}

// Port of fp8_to_float: widen to half bits (e5m2 is half's top byte; e4m3 is re-biased and
// its subnormals normalized), then read the half.
double Fp8ToFloat(uint8_t bits, DType fp8) {
  bool e4 = fp8 == dtypes::fp8e4m3;
  TG_CHECK(e4 || fp8 == dtypes::fp8e5m2) << "Fp8ToFloat is only for fp8s, got " << fp8;
  uint32_t ur = uint32_t{bits} << 8;
  if (!e4 && (ur & 0x7FFF) > 0x7C00) {
    ur = 0x7FFF;
  } else if (e4) {
    uint32_t sign = ur & 0x8000;
    uint32_t exponent = ((ur & 0x7800) >> 1) + 0x2000;
    uint32_t mantissa = (ur & 0x0700) >> 1;
    if ((bits & 0x7F) == 0x7F) {
      ur = 0x7FFF;
    } else {
      if (exponent == 0x2000) {
        if (mantissa != 0) {
          mantissa <<= 1;
          while ((mantissa & 0x0400) == 0) {
            mantissa <<= 1;
            exponent -= 0x0400;
          }
          mantissa &= 0x03FF;
        } else {
          exponent = 0;
        }
      }
      ur = sign | exponent | mantissa;
    }
  }
  return HalfBitsToDouble(ur);
}

}  // namespace tg
