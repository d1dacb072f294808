// File: tinygrad/runtime/cuda/nvjitlink_api.h
// Our declarations of the nvJitLink entry points tinygrad-cc uses (nvJitLink.h's C ABI, as
// the reference's runtime/autogen/nvjitlink.py declares them), bound at run time from
// libnvJitLink. nvJitLink carries ptxas: it assembles PTX into a CUBIN for a named arch with
// no GPU and no driver, which is how the reference's NVPTXCompiler turns the PTX renderer's
// output into a loadable binary. (NVRTC itself cannot assemble raw PTX; the toolkit's other
// assembler, the static libnvptxcompiler_static.a, cannot be dlopen'ed.)
#ifndef TINYGRAD_RUNTIME_CUDA_NVJITLINK_API_H_
#define TINYGRAD_RUNTIME_CUDA_NVJITLINK_API_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/dynamic_library.h"

namespace tg {

namespace cuda_abi {
using nvJitLinkResult = int;  // an enum in nvJitLink.h: 0 is NVJITLINK_SUCCESS
struct nvJitLink;
using nvJitLinkHandle = nvJitLink*;
using nvJitLinkInputType = int;
inline constexpr nvJitLinkResult NVJITLINK_SUCCESS = 0;
inline constexpr nvJitLinkInputType NVJITLINK_INPUT_PTX = 2;
}  // namespace cuda_abi

struct NvJitLinkApi {
  using nvJitLinkResult = cuda_abi::nvJitLinkResult;
  using nvJitLinkHandle = cuda_abi::nvJitLinkHandle;

  // Opens libnvJitLink (library_search.h) and binds the entry points below. NotFound naming
  // the library (each file tried) or the missing symbol.
  static absl::StatusOr<std::shared_ptr<const NvJitLinkApi>> Load(
      const CudaLibraryOptions& options);

  // "NVJITLINK_ERROR_PTX_COMPILE" for 4 (nvJitLink has no error-string call: our table of
  // nvJitLink.h's names).
  static std::string ErrorName(nvJitLinkResult r);

  DynamicLibrary library;
  unsigned version_major = 0;  // from nvJitLinkVersion at load
  unsigned version_minor = 0;

  // The unversioned names: the library exports them beside the versioned ones
  // (__nvJitLinkCreate_13_0) that its header's inline wrappers call, and they stay the same
  // across CUDA versions.
  nvJitLinkResult (*nvJitLinkVersion)(unsigned* major, unsigned* minor) = nullptr;
  nvJitLinkResult (*nvJitLinkCreate)(nvJitLinkHandle* handle, uint32_t num_options,
                                     const char** options) = nullptr;
  nvJitLinkResult (*nvJitLinkDestroy)(nvJitLinkHandle* handle) = nullptr;
  nvJitLinkResult (*nvJitLinkAddData)(nvJitLinkHandle handle, cuda_abi::nvJitLinkInputType type,
                                      const void* data, size_t size, const char* name) = nullptr;
  nvJitLinkResult (*nvJitLinkComplete)(nvJitLinkHandle handle) = nullptr;
  nvJitLinkResult (*nvJitLinkGetLinkedCubinSize)(nvJitLinkHandle handle, size_t* size) = nullptr;
  nvJitLinkResult (*nvJitLinkGetLinkedCubin)(nvJitLinkHandle handle, void* cubin) = nullptr;
  nvJitLinkResult (*nvJitLinkGetErrorLogSize)(nvJitLinkHandle handle, size_t* size) = nullptr;
  nvJitLinkResult (*nvJitLinkGetErrorLog)(nvJitLinkHandle handle, char* log) = nullptr;

 private:
  explicit NvJitLinkApi(DynamicLibrary lib) : library(std::move(lib)) {}
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_NVJITLINK_API_H_
