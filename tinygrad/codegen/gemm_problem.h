// File: tinygrad/codegen/gemm_problem.h
// A kernel that is a plain matrix product, as the GEMM opt (an extension of ours, beyond the
// reference's opt space) sees it: out[m, n] = cast(sum_k a[m, k] * b[k, n]) over contiguous
// row-major buffers, and the tiling a renderer's matmul kernel is generated with.
//
// Tensor-core matmuls written as UOps load their fragments straight from global memory (the
// reference's TC opt); a GPU's fastest matmuls stage tiles through shared memory with
// asynchronous copies and, on Hopper, use warpgroup MMAs that read shared memory themselves.
// Renderers that can generate such a kernel (CudaRenderer for sm_90) take a GemmProblem and a
// GemmTiling and return its source; BEAM searches the tilings as GEMM actions.
#ifndef TINYGRAD_CODEGEN_GEMM_PROBLEM_H_
#define TINYGRAD_CODEGEN_GEMM_PROBLEM_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tinygrad/codegen/tensor_map_spec.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/uop.h"

namespace tg {

struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  DType in;   // a's and b's dtype (half or bfloat16)
  DType acc;  // the sum's dtype (float)
  DType out;  // the stored dtype
  // DEFINE_GLOBAL slots of the output and the two inputs: the kernel's parameters are the
  // buffers in slot order, as every kernel's are.
  int64_t out_slot = 0, a_slot = 1, b_slot = 2;
};

struct GemmTiling {
  int64_t bm = 128;     // rows of the output a block computes (a multiple of 64)
  int64_t bn = 128;     // columns of the output a block computes
  int64_t stages = 3;   // k-tiles in flight in shared memory
  static constexpr int64_t kBk = 64;  // the k extent of a tile: one 128-byte swizzle row of halves
  friend bool operator==(const GemmTiling&, const GemmTiling&) = default;
};

// The matmul `kernel_ast` (a kernel AST as scheduled, before opts) computes, when it is exactly
// out[m, n] = cast(sum_k a[m, k] * b[k, n]) with half or bfloat16 inputs, a float sum and
// contiguous row-major buffers: no batch, no transposed operand, nothing fused before or after.
std::optional<GemmProblem> MatchGemm(const UOp& kernel_ast);

// What launching a generated matmul kernel takes.
struct GemmKernel {
  std::string src;
  std::string function_name;
  std::array<int64_t, 3> global_size{1, 1, 1};  // blocks
  std::array<int64_t, 3> local_size{1, 1, 1};   // threads per block
  int64_t dynamic_shared_bytes = 0;             // shared memory allocated at launch
  std::vector<TensorMapSpec> tensor_maps;       // passed after the buffers (copy-engine loads)
};

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_GEMM_PROBLEM_H_
