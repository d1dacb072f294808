// File: tinygrad/dtype/const_value.h
// Port of tinygrad's ConstType (Python float|int|bool|Invalid) and the dtype value helpers of
// tinygrad/dtype.py (as_const, min, max, truncate, fp16/bf16/fp8 rounding).
//
// Python ints are unbounded; ours are 128-bit and saturate at +-kIntInf = 2**120, which is far
// beyond any int64 value: sums of int64 values and products of int32-range values stay exact.
// What saturates is what tinygrad itself treats as "unbounded" (dtypes.index's +-2**799), and
// products whose magnitude passes 2**120 (e.g. int64.min * int64.min = 2**126).
//
// Equality is exact and kind-sensitive (1 != 1.0 != True), unlike Python's 1 == 1.0 == True:
// interning must not merge a float const with an int const. NaNs are canonicalized to one
// quiet NaN so that NaN consts intern like tinygrad's (which canonicalizes to math.nan).
// TODO(parity): tinygrad interns 0.0 and -0.0 as one const (Python's 0.0 == -0.0); we keep
// them apart, since they render differently.
#ifndef TINYGRAD_DTYPE_CONST_VALUE_H_
#define TINYGRAD_DTYPE_CONST_VALUE_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "tinygrad/dtype/dtype.h"

namespace tg {

using i128 = __int128;
inline constexpr i128 kIntInf = i128{1} << 120;  // saturation bound of ConstValue ints

std::string I128ToString(i128 v);

class ConstValue {
 public:
  enum class Kind : uint8_t { kBool, kInt, kFloat, kInvalid };

  constexpr ConstValue() : kind_(Kind::kInt), i_(0) {}
  constexpr ConstValue(bool b) : kind_(Kind::kBool), i_(b) {}  // NOLINT: implicit like Python
  constexpr ConstValue(int v) : kind_(Kind::kInt), i_(v) {}    // NOLINT
  constexpr ConstValue(int64_t v) : kind_(Kind::kInt), i_(v) {}  // NOLINT
  ConstValue(i128 v);                                             // NOLINT: saturates
  ConstValue(double v);                                           // NOLINT: canonical NaN
  static constexpr ConstValue Invalid() { return ConstValue(Kind::kInvalid); }

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_int() const { return kind_ == Kind::kInt; }
  bool is_float() const { return kind_ == Kind::kFloat; }
  bool is_invalid() const { return kind_ == Kind::kInvalid; }

  // Python's int(x), float(x), bool(x). int() of a float truncates toward zero and saturates
  // on inf; int()/float() of Invalid CHECK-fail.
  i128 to_int() const;
  int64_t to_int64() const;  // CHECKs the value fits
  double to_float() const;
  bool to_bool() const;

  // Python repr: "3", "3.0", "-inf", "nan", "True", "Invalid".
  std::string repr() const;
  uint64_t StableHash() const;

  friend bool operator==(const ConstValue& a, const ConstValue& b);
  friend bool operator!=(const ConstValue& a, const ConstValue& b) { return !(a == b); }
  template <typename H>
  friend H AbslHashValue(H h, const ConstValue& c) {
    return H::combine(std::move(h), c.StableHash());
  }

 private:
  constexpr explicit ConstValue(Kind k) : kind_(k), i_(0) {}
  Kind kind_;
  union {
    i128 i_;   // kInt, kBool
    double f_;  // kFloat
  };
};

std::ostream& operator<<(std::ostream& os, const ConstValue& c);

// Python numeric semantics (int op int -> int, anything with a float -> float, bool acts as
// int). These are *value* ops for range analysis and folding; dtype wrapping is Truncate's job.
// Numeric compares of Invalid CHECK-fail (tinygrad handles Invalid before comparing).
ConstValue operator+(const ConstValue& a, const ConstValue& b);
ConstValue operator-(const ConstValue& a, const ConstValue& b);
ConstValue operator*(const ConstValue& a, const ConstValue& b);
ConstValue operator-(const ConstValue& a);
bool NumLess(const ConstValue& a, const ConstValue& b);  // Python a < b across kinds
bool NumEq(const ConstValue& a, const ConstValue& b);    // Python a == b across kinds (1 == 1.0)
ConstValue NumMin(const ConstValue& a, const ConstValue& b);
ConstValue NumMax(const ConstValue& a, const ConstValue& b);

// C-style (truncating) integer division and remainder, tinygrad's cdiv/cmod: b == 0 gives
// CDiv 0 and CMod a, as tinygrad's `cdiv(x, 0) == 0`.
i128 CDiv(i128 a, i128 b);
i128 CMod(i128 a, i128 b);

namespace dtypes {
// dtypes.as_const: int()/float()/bool() by dtype class; Invalid passes through.
ConstValue as_const(const ConstValue& v, DType d);
// dtypes.min/max. index is +-kIntInf (tinygrad: +-2**799).
ConstValue min(DType d);
ConstValue max(DType d);
}  // namespace dtypes

// tinygrad's `truncate[dtype](x)`: what the value becomes stored in dtype (ints wrap like
// ctypes, floats round to the format). index and Invalid pass through; vectors truncate as their
// scalar (exec_alu's lane-wise split); void and pointers CHECK-fail, as does a float value for an
// int dtype (ctypes raises TypeError).
ConstValue Truncate(const ConstValue& v, DType d);

// Float format conversions (round to nearest even), as tinygrad's float_to_fp16, float_to_bf16,
// float_to_fp8 and fp8_to_float.
double RoundToFloat16(double x);
double RoundToBFloat16(double x);
uint8_t FloatToFp8(double x, DType fp8);
double Fp8ToFloat(uint8_t bits, DType fp8);

}  // namespace tg

#endif  // TINYGRAD_DTYPE_CONST_VALUE_H_
