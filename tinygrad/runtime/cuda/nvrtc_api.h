// File: tinygrad/runtime/cuda/nvrtc_api.h
// Our declarations of the NVRTC entry points tinygrad-cc uses (nvrtc.h's C ABI, as the
// reference's runtime/autogen/nvrtc.py declares them for ctypes), bound at run time from
// libnvrtc. No CUDA header or library is needed to build this.
//
// The members carry the C functions' own names, so code that calls them reads like CUDA code:
//   api->nvrtcCompileProgram(prog, n, options)
#ifndef TINYGRAD_RUNTIME_CUDA_NVRTC_API_H_
#define TINYGRAD_RUNTIME_CUDA_NVRTC_API_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/dynamic_library.h"

namespace tg {

// The C ABI's types, spelled as nvrtc.h spells them.
namespace cuda_abi {
using nvrtcResult = int;  // an enum in nvrtc.h: 0 is NVRTC_SUCCESS
struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;
inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_INVALID_OPTION = 5;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;
}  // namespace cuda_abi

struct NvrtcApi {
  using nvrtcResult = cuda_abi::nvrtcResult;
  using nvrtcProgram = cuda_abi::nvrtcProgram;

  // Opens libnvrtc (library_search.h) and binds every entry point below. NotFound naming the
  // library (with each file tried) or the missing symbol; Unavailable when nvrtcVersion fails.
  static absl::StatusOr<std::shared_ptr<const NvrtcApi>> Load(const CudaLibraryOptions& options);
  // Exactly the library file at `path`, no search (a private copy: nvrtc_copy.h). The same
  // errors as Load.
  static absl::StatusOr<std::shared_ptr<const NvrtcApi>> LoadFile(const std::string& path);

  // "NVRTC_ERROR_COMPILATION" for 6 (NVRTC's own names).
  std::string ErrorName(nvrtcResult r) const;

  DynamicLibrary library;
  int version_major = 0;  // from nvrtcVersion at load
  int version_minor = 0;
  std::vector<int> supported_archs;  // nvrtcGetSupportedArchs: 75, 80, ..., 90, 100, ...

  const char* (*nvrtcGetErrorString)(nvrtcResult) = nullptr;
  nvrtcResult (*nvrtcVersion)(int* major, int* minor) = nullptr;
  nvrtcResult (*nvrtcGetNumSupportedArchs)(int* num) = nullptr;
  nvrtcResult (*nvrtcGetSupportedArchs)(int* archs) = nullptr;
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram* prog, const char* src, const char* name,
                                    int num_headers, const char* const* headers,
                                    const char* const* include_names) = nullptr;
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram* prog) = nullptr;
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram prog, int num_options,
                                     const char* const* options) = nullptr;
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram prog, size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram prog, char* log) = nullptr;
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram prog, size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram prog, char* ptx) = nullptr;
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram prog, size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram prog, char* cubin) = nullptr;

 private:
  explicit NvrtcApi(DynamicLibrary lib) : library(std::move(lib)) {}
  // Binds every entry point of the opened `lib` and asks its version.
  static absl::StatusOr<std::shared_ptr<const NvrtcApi>> Bind(DynamicLibrary lib);
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_NVRTC_API_H_
