// File: tinygrad/emulator/scalar_storage.h
// Port of tinygrad/runtime/ops_python.py's storage helpers (storage_fmt_for_dtype,
// to_storage_scalar, from_storage_scalar and the struct formats behind memoryview.cast): how
// the emulator keeps one element of a scalar dtype in memory, little-endian, itemsize bytes.
//
// Values are tinygrad's Python numbers (ConstValue): floats are doubles, rounded to the dtype
// when they are written (half, bfloat16 and fp8 by tinygrad's own rounding, float32 by the C
// cast that struct.pack('f') does), ints are written as their low bits, bools as 0/1.
//
// Example:
//   std::byte b[4];
//   StoreScalar(ConstValue(1.5), dtypes::float32, b);
//   LoadScalar(b, dtypes::float32)      // 1.5
#ifndef TINYGRAD_EMULATOR_SCALAR_STORAGE_H_
#define TINYGRAD_EMULATOR_SCALAR_STORAGE_H_

#include <cstddef>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"

namespace tg {

// Whether elements of `scalar` can live in memory: every scalar dtype but void and index.
bool IsStorableScalar(DType scalar);

// Writes `v` as one element of `scalar` (IsStorableScalar) at `out` (itemsize bytes). `v` is a
// value of that dtype's kind: an int (or bool) for ints and bool, any number for floats.
void StoreScalar(const ConstValue& v, DType scalar, std::byte* out);

// The element of `scalar` at `in`: an int for ints, a bool for bool, a double for floats.
ConstValue LoadScalar(const std::byte* in, DType scalar);

}  // namespace tg

#endif  // TINYGRAD_EMULATOR_SCALAR_STORAGE_H_
