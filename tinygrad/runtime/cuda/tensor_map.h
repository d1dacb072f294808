// File: tinygrad/runtime/cuda/tensor_map.h
// Tiled tensor maps for Hopper's copy engine (cp.async.bulk.tensor): the driver's description of
// a 2-D matrix in global memory and of the box one copy moves, made with cuTensorMapEncodeTiled
// and passed to a kernel by value (a `const __grid_constant__` parameter, after its buffers and
// variables: CudaProgram::Launch). Beyond the reference (its kernels load with plain loads).
//
// Example:
//   // a 4096 x 4096 half matrix, copied in 64 x 64 boxes landing in the 128-byte swizzle
//   ASSIGN_OR_RETURN(cuda_abi::CUtensorMap map,
//                    EncodeTiledTensorMap(ctx->api(), {.element = TensorMapElement::kFloat16,
//                                                      .address = a.address(), .cols = 4096,
//                                                      .rows = 4096, .row_stride_bytes = 8192,
//                                                      .box_cols = 64, .box_rows = 64}));
//   prg.Launch(bufs, {}, dims, true, std::span(&map, 1));
#ifndef TINYGRAD_RUNTIME_CUDA_TENSOR_MAP_H_
#define TINYGRAD_RUNTIME_CUDA_TENSOR_MAP_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/driver_api.h"

namespace tg {

enum class TensorMapElement { kFloat16, kBfloat16, kFloat32 };

// A row-major matrix of `rows` rows of `cols` elements, rows `row_stride_bytes` apart, copied
// in boxes of box_rows x box_cols elements. With `swizzle_128b` a box lands in shared memory as
// rows of 128 bytes whose 16-byte chunk c sits at c ^ (row % 8) (the layout wgmma reads; the
// destination must be 1024-byte aligned); without, rows of box_cols elements back to back.
struct TiledTensorMap2D {
  TensorMapElement element = TensorMapElement::kFloat16;
  cuda_abi::CUdeviceptr address = 0;
  uint64_t cols = 0, rows = 0;
  uint64_t row_stride_bytes = 0;
  uint32_t box_cols = 0, box_rows = 0;
  bool swizzle_128b = true;
};

// The map, or InvalidArgument naming the field that breaks the copy engine's rules (address
// and row stride multiples of 16 bytes, sizes up to 2^32, boxes of 1-256 elements a side whose
// rows are multiples of 16 bytes, at most 128 bytes with the swizzle); Unimplemented where the
// driver has no cuTensorMapEncodeTiled (before CUDA 12); the driver's own refusal as Check()
// reports it.
absl::StatusOr<cuda_abi::CUtensorMap> EncodeTiledTensorMap(const CudaDriverApi& cu,
                                                           const TiledTensorMap2D& m);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_TENSOR_MAP_H_
