// File: tinygrad/runtime/cuda/arch.h
// A CUDA target architecture by name ("sm_90", "sm_90a", "sm_100f") and the PTX ISA version a
// kernel for it declares. Port of the arch handling in tinygrad/runtime/support/compiler_cuda.py
// (CUDACompiler's --gpu-architecture, PTXCompiler's VERSION).
//
// Example:
//   ASSIGN_OR_RETURN(CudaArch arch, ParseCudaArch("sm_90"));
//   arch.sm();               // 90
//   PtxIsaVersion(arch);     // "7.8"
#ifndef TINYGRAD_RUNTIME_CUDA_ARCH_H_
#define TINYGRAD_RUNTIME_CUDA_ARCH_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tg {

struct CudaArch {
  int major = 0;  // compute capability: sm_90 is 9.0, sm_100 is 10.0, sm_75 is 7.5
  int minor = 0;
  char variant = 0;  // 0, 'a' (arch-specific features: sm_90a) or 'f' (family: sm_100f)

  int sm() const { return major * 10 + minor; }
  std::string name() const;  // "sm_90a"
  static CudaArch FromComputeCapability(int major, int minor) { return {major, minor, 0}; }
  friend bool operator==(const CudaArch&, const CudaArch&) = default;
};

// "sm_<2 or 3 digits>[a|f]": InvalidArgument for anything else ("compute_90", "sm_9", "90").
// Whether a compiler supports the arch is the compiler's to say.
absl::StatusOr<CudaArch> ParseCudaArch(std::string_view name);

// The arch CUDA C++ is compiled for on a GPU of arch `gpu`: sm_90 becomes sm_90a, whose
// arch-specific instructions (wgmma, setmaxnreg: the GEMM opt's kernels) run on exactly compute
// 9.0, the GPU compiled for; every other arch is itself.
CudaArch CompileArch(const CudaArch& gpu);

// The ".version" of PTX for `arch`. The reference's rule (8.7 from sm_120, 7.8 from sm_89, else
// 7.5), raised to the first PTX ISA that knows the target where the reference's is too old for
// it: sm_90a 8.0, sm_100/sm_101 8.6, sm_103/sm_121 and every 'f' variant 8.8, sm_110 9.0. The
// reference writes 7.8 for sm_100, which ptxas rejects ("PTX .version 7.8 does not support
// .target sm_100"); the lowest working version keeps the PTX loadable by the oldest drivers.
std::string PtxIsaVersion(const CudaArch& arch);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_ARCH_H_
