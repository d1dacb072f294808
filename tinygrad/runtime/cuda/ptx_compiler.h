// File: tinygrad/runtime/cuda/ptx_compiler.h
// Port of tinygrad/runtime/support/compiler_cuda.py: PTXCompiler and NVPTXCompiler, the
// compilers behind the PTX renderer (CUDA_PTX=1).
//
// The PTX renderer writes the placeholders ".version VERSION" and ".target TARGET"; compiling
// fills them in for the arch (arch.h PtxIsaVersion). Then either
//   - the PTX text is the binary (PTXCompiler): the driver assembles it at module load
//     (cuModuleLoadData's JIT), which needs a GPU; or
//   - nvJitLink assembles it into a CUBIN for the arch (NVPTXCompiler, `assemble`), which needs
//     no GPU and no driver: compile-only machines can produce loadable kernels, and the
//     assembler's cost per candidate can be measured without a GPU.
// An assembler error is InvalidArgument carrying ptxas's log ("line 10; error : ...").
//
// Example:
//   ASSIGN_OR_RETURN(auto jitlink, NvJitLinkApi::Load(libs));
//   ASSIGN_OR_RETURN(auto ptxas, PtxCompiler::Create(jitlink, {.arch = "sm_90", .assemble =
//   true})); ASSIGN_OR_RETURN(std::string cubin, ptxas->Compile(rendered_ptx));
#ifndef TINYGRAD_RUNTIME_CUDA_PTX_COMPILER_H_
#define TINYGRAD_RUNTIME_CUDA_PTX_COMPILER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/compile_cache.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/runtime/cuda/nvjitlink_api.h"

namespace tg {

// `ptx` with every "TARGET" replaced by the arch's name and every "VERSION" by its PTX ISA
// version (the reference replaces throughout the text, and so do we: the renderer writes those
// words nowhere else).
std::string FillPtxPlaceholders(std::string_view ptx, const CudaArch& arch);

struct PtxCompilerOptions {
  std::string arch;       // "sm_90": required
  bool assemble = false;  // CUBIN through nvJitLink (needs the library); else PTX text
  int cachelevel = 2;     // CACHELEVEL: 0 keeps the cache in memory only
  std::string cache_dir;  // "" keeps it in memory only
};

class PtxCompiler {
 public:
  // `jitlink` may be null unless options.assemble. InvalidArgument for a malformed arch.
  static absl::StatusOr<std::unique_ptr<PtxCompiler>> Create(
      std::shared_ptr<const NvJitLinkApi> jitlink, PtxCompilerOptions options);

  // The filled PTX, or the CUBIN it assembles to (cached). Thread-safe.
  absl::StatusOr<std::string> Compile(std::string_view src);
  absl::StatusOr<std::string> CompileUncached(std::string_view src) const;

  uint64_t CacheKey(std::string_view src) const;
  // "ptx sm_90 7.8" or "nvjitlink 13.0 cubin sm_90 7.8".
  const std::string& compiler_id() const { return compiler_id_; }
  const CudaArch& arch() const { return arch_; }
  CompileCacheStats cache_stats() const { return cache_.stats(); }

 private:
  PtxCompiler(std::shared_ptr<const NvJitLinkApi> jitlink, PtxCompilerOptions options,
              CudaArch arch);
  absl::StatusOr<std::string> Assemble(const std::string& ptx) const;

  const std::shared_ptr<const NvJitLinkApi> jitlink_;
  const PtxCompilerOptions options_;
  const CudaArch arch_;
  std::string compiler_id_;
  CompileCache cache_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_PTX_COMPILER_H_
