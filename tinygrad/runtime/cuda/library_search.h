// File: tinygrad/runtime/cuda/library_search.h
// Where the CUDA libraries are looked for at run time. Nothing of CUDA is needed to build
// tinygrad-cc: NVRTC, nvJitLink and the driver (libcuda) are opened when a CUDA compiler or
// device is first made, and a missing one is an error that names it (the device is then simply
// not available). tinygrad does the same through ctypes (runtime/support/c.py DLL.findlib).
//
// Search order for a toolkit library (NVRTC, nvJitLink), first that loads wins:
//   1. the explicit file, when one is set (NVRTC_PATH / NVJITLINK_PATH, as tinygrad's
//      <NAME>_PATH variables);
//   2. the versioned and plain file names ("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"),
//      resolved by the dynamic loader (LD_LIBRARY_PATH, the ldconfig cache, the system dirs);
//   3. <dir>/lib64 and <dir>/lib of each CUDA install dir: CUDA_PATH, CUDA_HOME, then the
//      well-known default /usr/local/cuda.
// The driver (libcuda) is installed with the GPU driver, never in a toolkit (whose
// lib64/stubs/libcuda.so only answers CUDA_ERROR_STUB_LIBRARY): its explicit file
// (CUDA_DRIVER_PATH) or "libcuda.so.1" then "libcuda.so" through the dynamic loader.
//
// Example:
//   CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();   // at the edge: main()
//   ASSIGN_OR_RETURN(auto nvrtc, NvrtcApi::Load(libs));
#ifndef TINYGRAD_RUNTIME_CUDA_LIBRARY_SEARCH_H_
#define TINYGRAD_RUNTIME_CUDA_LIBRARY_SEARCH_H_

#include <string>
#include <string_view>
#include <vector>

namespace tg {

struct CudaLibraryOptions {
  // Explicit library files; empty: search.
  std::string nvrtc_path;
  std::string nvjitlink_path;
  std::string driver_path;
  // CUDA install dirs (a toolkit root holding include/ and lib64/), searched in order after
  // the dynamic loader; their include/ dirs are also NVRTC's header search path.
  std::vector<std::string> cuda_dirs = {"/usr/local/cuda"};

  // The defaults overridden by NVRTC_PATH, NVJITLINK_PATH, CUDA_DRIVER_PATH, and CUDA_PATH /
  // CUDA_HOME put before the default install dir. The one place this package reads the
  // environment: call it at the edge and pass the result down.
  static CudaLibraryOptions FromEnvironment();

  friend bool operator==(const CudaLibraryOptions&, const CudaLibraryOptions&) = default;
};

// The candidates DynamicLibrary::Open tries for a toolkit library (order in the file comment).
// `sonames` are the loader names, most preferred first.
std::vector<std::string> ToolkitLibraryCandidates(const CudaLibraryOptions& options,
                                                  std::string_view explicit_path,
                                                  const std::vector<std::string>& sonames);

// <dir>/include of each CUDA install dir that exists: NVRTC's -I list for cuda_fp16.h and
// friends, which NVRTC does not carry built in.
std::vector<std::string> CudaIncludeDirs(const CudaLibraryOptions& options);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_LIBRARY_SEARCH_H_
