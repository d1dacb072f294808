// File: tinygrad/renderer/cuda/cuda.h
// Port of tinygrad/renderer/cstyle.py: CUDARenderer, CUDA C++ for NVRTC.
//
// Kernels are `extern "C" __global__ void __launch_bounds__(<local size>) name(T* data0_N, ...,
// const int var)`. SPECIALs read blockIdx/threadIdx, locals are `__shared__ __align__(16)`
// arrays, vectors are structs built with make_<type>N (CUDA's own for float4 & co., ours for
// half/bfloat16/fp8 vectors), BITCAST goes through a union (tg_bitcast), and each tensor-core
// shape used becomes a `__WMMA_...` device function wrapping one `mma.sync` PTX instruction.
//
// The target is an explicit constructor argument (no global configuration is read): its arch
// (runtime/cuda's CudaArch, the type the compilers take too: "sm_89", "sm_90a") picks the
// tensor-core table as the reference does by its compute capability: sm_75 the m16n8k8 half
// shapes, sm_80+ adds m16n8k16 half/bf16 and tf32, sm_89+ (sm_90 too) adds m16n8k32 fp8.
//
// Example:
//   ASSIGN_OR_RETURN(CudaArch arch, ParseCudaArch("sm_89"));   // runtime/cuda/arch.h
//   CudaRenderer ren(arch);
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, ren, options));   // p.src: CUDA C++
#ifndef TINYGRAD_RENDERER_CUDA_CUDA_H_
#define TINYGRAD_RENDERER_CUDA_CUDA_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/renderer/c/cstyle.h"
#include "tinygrad/runtime/cuda/arch.h"

namespace tg {

class CudaRenderer : public CStyleLanguage {
 public:
  explicit CudaRenderer(const CudaArch& arch);

  const CudaArch& arch() const { return arch_; }

  std::string CodeForOp(Ops op, std::span<const std::string> args, DType dtype) const override;
  std::string CodeForWorkitem(char kind, std::string_view dim) const override;
  std::optional<std::string> StringRewrite(const UOp& u, const RenderNames& r) const override;
  std::string RenderKernel(const std::string& function_name, std::span<const std::string> kernel,
                           std::span<const KernelParam> bufs, std::span<const UOp> uops,
                           const std::vector<std::string>* prefix = nullptr) const override;

  // The struct and make_ function of a vector type CUDA lacks (half4, nv_bfloat168, ...):
  // `struct __align__(8) half4 { half x, y, z, w; }; __device__ half4 make_half4(...) {...}`.
  std::string RenderVectorPrefix(DType dt) const;
  // The `__device__ <out> __WMMA_...(a, b, c)` wrapper of one mma.sync for a WMMA's arg (name,
  // (N, M, K), dtype_in, dtype_out, device, threads, upcast_axes, reduce_axes); `dtype_out` is
  // the WMMA uop's scalar dtype. CHECK-fails on a dtype mma.sync has no spelling for here
  // (only the renderer's own tensor cores produce WMMAs).
  std::string RenderWmma(const Arg& wmma_arg, DType dtype_out) const;
  // The GEMM opt's kernels: sm_90 (H100, H200) only, through renderer/cuda/gemm_sm90.h, with
  // the shared memory every sm_90 GPU lets a block opt in to.
  absl::Status CheckGemm(const GemmProblem& p, const GemmTiling& t) const override;
  absl::StatusOr<GemmKernel> RenderGemm(const GemmProblem& p, const GemmTiling& t,
                                        std::string_view function_name) const override;
  static constexpr int64_t kSm90SharedPerBlockOptIn = 232448;  // 227 KiB

 private:
  CudaArch arch_;
};

// The rules CudaRenderer adds before linearizing (tinygrad's CUDARenderer.extra_matcher): fp8
// math in float, fp8 -> other fp8 casts through float, then the C-style rules.
const PatternMatcher& CudaExtraMatcher();

}  // namespace tg

#endif  // TINYGRAD_RENDERER_CUDA_CUDA_H_
