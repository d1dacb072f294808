// File: tinygrad/renderer/cuda/gemm_sm90.h
// Matmul kernels for Hopper (sm_90a) generated from a GemmProblem and a GemmTiling: tiles of a
// and b staged through shared memory by cp.async (or the copy engine: GemmLoader) in a
// multi-stage pipeline, laid out with the
// 128-byte swizzle the warpgroup MMA (wgmma.mma_async) reads, one 64-row warpgroup per 64 rows
// of the block's tile, float accumulators in registers, the result cast and stored from them.
// Beyond the reference (its CUDA kernels are UOp programs with mma.sync fed from registers).
//
// Example:
//   GemmProblem p{.m = 4096, .n = 4096, .k = 4096, .in = dtypes::float16, .acc = dtypes::float32,
//                 .out = dtypes::float16};
//   RETURN_IF_ERROR(CheckGemmSm90(p, {.bm = 128, .bn = 128, .stages = 3}, 227 * 1024));
//   ASSIGN_OR_RETURN(GemmKernel k, RenderGemmSm90(p, {.bm = 128, .bn = 128, .stages = 3}, "gemm"));
//   // compile k.src for sm_90a; launch k.global_size blocks of k.local_size threads with
//   // k.dynamic_shared_bytes of shared memory
#ifndef TINYGRAD_RENDERER_CUDA_GEMM_SM90_H_
#define TINYGRAD_RENDERER_CUDA_GEMM_SM90_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/gemm_problem.h"

namespace tg {

// How a kernel's tiles reach shared memory. kCpAsync is what the CUDA renderer generates (the
// one measured on a GPU); the copy-engine loaders (Hopper's TMA, their kernels taking the tensor
// maps GemmKernel::tensor_maps describes) are for tests/gpu:gemm_check to measure until one has
// been checked and timed on a GPU.
enum class GemmLoader {
  kCpAsync,             // every thread copies 16-byte chunks (cp.async)
  kTma,                 // one thread loads each stage with the copy engine
  kTmaWarpSpecialized,  // a producer warpgroup more, loading with the copy engine
};
std::string_view GemmLoaderName(GemmLoader loader);  // "cp.async", "tma", "tma-ws"
std::optional<GemmLoader> GemmLoaderFromName(std::string_view name);

// OK when `t` tiles `p` exactly and its stages fit in `shared_max` bytes of shared memory (a
// block's opt-in maximum); else InvalidArgument saying which size does not fit.
absl::Status CheckGemmSm90(const GemmProblem& p, const GemmTiling& t, int64_t shared_max,
                           GemmLoader loader = GemmLoader::kCpAsync);

// The kernel's CUDA C++ source (for NVRTC with --gpu-architecture=sm_90a) and launch sizes.
// InvalidArgument when CheckGemmSm90 fails with an unlimited shared memory, or for dtypes it
// has no instruction for (inputs half or bfloat16, accumulator float, output half, bfloat16 or
// float).
absl::StatusOr<GemmKernel> RenderGemmSm90(const GemmProblem& p, const GemmTiling& t,
                                          std::string_view function_name,
                                          GemmLoader loader = GemmLoader::kCpAsync);

// The tilings BEAM tries (bm x bn x stages), before CheckGemmSm90 filters them for a problem.
std::vector<GemmTiling> GemmSm90Tilings(GemmLoader loader = GemmLoader::kCpAsync);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_CUDA_GEMM_SM90_H_
