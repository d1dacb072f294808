// File: autotune/measure/output_check.h
// Inputs and the result check for timing candidates: deterministic random buffer contents and
// an output comparison with a per-dtype tolerance.
//
// tinygrad times candidates on uninitialized buffers and never checks them; a tuner that can
// pick a candidate needs to know the candidate computes the same thing, so the measurer runs
// every candidate on the same inputs and compares its outputs with the unoptimized kernel's.
//
// Floats are k/256 for k in [0, 256): exact in every float type from bfloat16 up, positive (so
// sums do not cancel and a relative tolerance is meaningful), and sums of few products are
// exact in float32. Ints are in [0, 8) (small enough that index-like uses stay near 0), bools
// 0 or 1.
//
// Example:
//   std::string in = RandomContents(dtypes::float32, 1024, /*seed=*/7);
//   std::string why = CompareOutput(dtypes::float32, got_bytes, want_bytes);  // "" when equal
#ifndef AUTOTUNE_MEASURE_OUTPUT_CHECK_H_
#define AUTOTUNE_MEASURE_OUTPUT_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tinygrad/dtype/dtype.h"

namespace tg::autotune {

// `n` elements of `dtype` (its in-memory bytes), the same for the same seed on every machine.
std::string RandomContents(DType dtype, int64_t n, uint64_t seed);

// How many of the `itemsize`-byte items of `a` and `b` (the same size) differ in their bytes.
size_t CountDifferingItems(size_t itemsize, std::string_view a, std::string_view b);

// "" when `got` matches `want` elementwise: floats within |got-want| <= atol + rtol*|want|
// (float16/bfloat16 1e-2, float32 1e-3, float64 1e-6; NaN matches NaN, infinities match by
// sign), everything else bit-exact. Otherwise where the first mismatch is and how many there are.
// Outputs of millions of elements are compared on up to `threads` threads.
std::string CompareOutput(DType dtype, std::string_view got, std::string_view want, int threads = 1);

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_OUTPUT_CHECK_H_
