// File: tinygrad/codegen/lower/transcendental.h
// Port of tinygrad/uop/decompositions.py: the graph builders behind the late decompositions:
// software exp2/log2/sin (SLEEF-style, 1.0 ULP), pow, threefry2x32, and fast integer division
// by a constant (magicgu, fast_idiv).
//
// Example:
//   UOp d = UOp::Variable("d", -100.0, 100.0, dtypes::float32);
//   UOp e = XExp2(d);     // a graph of float/int ALU ops computing 2**d
//
// The builders produce exactly tinygrad's graphs (operand order included) for half, float and
// double (TRANSCENDENTAL_DTYPES); vectors work lane-wise.
#ifndef TINYGRAD_CODEGEN_LOWER_TRANSCENDENTAL_H_
#define TINYGRAD_CODEGEN_LOWER_TRANSCENDENTAL_H_

#include <cstdint>
#include <utility>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Whether d.scalar() is float16, float32 or float64 (TRANSCENDENTAL_DTYPES).
bool IsTranscendentalDtype(DType d);

// 2**d, 1.0 ULP (inf/nan/overflow/underflow handled).
UOp XExp2(const UOp& d);
// log2(d), 1.0 ULP (denormals, 0, -0, negatives, inf, nan handled).
UOp XLog2(const UOp& d);
// sin(d), 1.0 ULP; `fast` assumes |d| <= switch_over (Cody-Waite only), otherwise Payne-Hanek
// reduction is used above switch_over.
UOp XSin(const UOp& d, bool fast = false, double switch_over = 30.0);
// base**exponent via exp2(exponent * log2(|base|)), with tinygrad's negative-base and 0**0 rules.
UOp XPow(const UOp& base, const UOp& exponent);
// THREEFRY(x, key) on uint64 as 5x4 rounds of uint32 math.
UOp Threefry2x32(const UOp& x, const UOp& key);

// (m, s) such that x // d == (x*m) >> s for all 0 <= x <= vmax, 0 < d (Hacker's Delight 10).
// vmax < 2**64 (m needs up to 2**(bits(vmax)+1), hence 128-bit); m == 0 when the shift
// would pass 125 bits.
std::pair<i128, int> MagicGu(i128 vmax, i128 d);
// x // d (d > 0 a constant) as multiply and shift, using x's range; null when no form fits
// (the product would overflow even the next wider int dtype, or d is a power of two and x may be
// negative: the signed correction is wrong there). `allow_wider_dtype` false
// forbids the widening cast (tinygrad's dont_cast).
UOp FastIdiv(const UOp& x, int64_t d, bool allow_wider_dtype = true);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_LOWER_TRANSCENDENTAL_H_
