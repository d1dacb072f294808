// File: tinygrad/codegen/tensor_map_spec.h
// A tensor map a kernel's launch passes: the view of one of its buffers that Hopper's copy engine
// (cp.async.bulk.tensor) loads tiles through. The map itself holds the buffer's address, so the
// device encodes it at launch (runtime/cuda/tensor_map.h) from this description; the kernel
// takes the maps, in this order, after its buffers and variables. Beyond the reference.
#ifndef TINYGRAD_CODEGEN_TENSOR_MAP_SPEC_H_
#define TINYGRAD_CODEGEN_TENSOR_MAP_SPEC_H_

#include <cstdint>

#include "tinygrad/dtype/dtype.h"

namespace tg {

// Buffer argument `buffer` (an index into the launch's buffers) as a row-major matrix of
// rows x cols elements of `element`, rows contiguous, copied in boxes of box_rows x box_cols
// that land in shared memory in the 128-byte swizzle.
struct TensorMapSpec {
  int64_t buffer = 0;
  DType element = dtypes::float16;
  int64_t rows = 0, cols = 0;
  int64_t box_rows = 0, box_cols = 0;
  bool operator==(const TensorMapSpec&) const = default;
};

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_TENSOR_MAP_SPEC_H_
