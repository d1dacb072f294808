// File: tinygrad/runtime/cuda/tensor_map.cc
// The copy engine's rules are cuda.h's documentation of cuTensorMapEncodeTiled; they are checked
// here first so that a bad map names its field instead of the driver's bare
// CUDA_ERROR_INVALID_VALUE.
#include "tinygrad/runtime/cuda/tensor_map.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

uint64_t ElementBytes(TensorMapElement e) { return e == TensorMapElement::kFloat32 ? 4 : 2; }

int DataType(TensorMapElement e) {
  switch (e) {
    case TensorMapElement::kFloat16:
      return cuda_abi::CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case TensorMapElement::kBfloat16:
      return cuda_abi::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case TensorMapElement::kFloat32:
      return cuda_abi::CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  }
  return -1;
}

absl::Status Check(const TiledTensorMap2D& m) {
  const uint64_t elem = ElementBytes(m.element);
  auto bad = [](auto&&... parts) { return absl::InvalidArgumentError(absl::StrCat(parts...)); };
  if (m.address == 0 || m.address % 16 != 0)
    return bad("tensor map: address ", m.address, " is not a multiple of 16 bytes");
  if (m.cols == 0 || m.rows == 0 || m.cols > (uint64_t{1} << 32) || m.rows > (uint64_t{1} << 32))
    return bad("tensor map: a ", m.rows, " x ", m.cols, " matrix: each size must be 1 to 2^32");
  if (m.row_stride_bytes % 16 != 0 || m.row_stride_bytes < m.cols * elem ||
      m.row_stride_bytes >= (uint64_t{1} << 40))
    return bad("tensor map: row stride of ", m.row_stride_bytes, " bytes: must be a multiple of ",
               "16, at least a row (", m.cols * elem, " bytes) and under 2^40");
  if (m.box_cols == 0 || m.box_rows == 0 || m.box_cols > 256 || m.box_rows > 256)
    return bad("tensor map: a box of ", m.box_rows, " x ", m.box_cols,
               ": each side must be 1 to 256 elements");
  if (m.box_cols * elem % 16 != 0)
    return bad("tensor map: a box row of ", m.box_cols * elem,
               " bytes: must be a multiple of 16");
  if (m.swizzle_128b && m.box_cols * elem > 128)
    return bad("tensor map: a box row of ", m.box_cols * elem,
               " bytes: the 128-byte swizzle takes at most 128");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<cuda_abi::CUtensorMap> EncodeTiledTensorMap(const CudaDriverApi& cu,
                                                           const TiledTensorMap2D& m) {
  RETURN_IF_ERROR(Check(m));
  if (cu.cuTensorMapEncodeTiled == nullptr)
    return absl::UnimplementedError(
        absl::StrCat(cu.library.loaded_from(),
                     " has no cuTensorMapEncodeTiled: tensor maps need a CUDA 12 driver or later"));
  // The driver wants the map 64-byte aligned: on the heap (aligned new) rather than the stack,
  // which a sanitizer's fake stack frames do not align past 32 bytes.
  auto map = std::make_unique<cuda_abi::CUtensorMap>();
  const cuda_abi::cuuint64_t dims[2] = {m.cols, m.rows};
  const cuda_abi::cuuint64_t strides[1] = {m.row_stride_bytes};
  const cuda_abi::cuuint32_t box[2] = {m.box_cols, m.box_rows};
  const cuda_abi::cuuint32_t element_strides[2] = {1, 1};
  RETURN_IF_ERROR(cu.Check(
      cu.cuTensorMapEncodeTiled(
          map.get(), DataType(m.element), 2, reinterpret_cast<void*>(m.address), dims, strides, box,
          element_strides, cuda_abi::CU_TENSOR_MAP_INTERLEAVE_NONE,
          m.swizzle_128b ? cuda_abi::CU_TENSOR_MAP_SWIZZLE_128B : cuda_abi::CU_TENSOR_MAP_SWIZZLE_NONE,
          cuda_abi::CU_TENSOR_MAP_L2_PROMOTION_L2_256B, cuda_abi::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled"));
  return *map;
}

}  // namespace tg
