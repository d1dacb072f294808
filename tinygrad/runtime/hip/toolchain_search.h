// File: tinygrad/runtime/hip/toolchain_search.h
// Where the AMD compile toolchain is looked for at run time. Nothing of ROCm is needed to
// build tinygrad-cc: comgr is opened (dlopen) and clang run when a HIP compiler is first made,
// and a missing piece is an error that names it and where it was looked for. tinygrad finds
// the same libraries through ctypes (runtime/autogen/comgr.py).
//
// Search order, first that works wins. An explicit file or dir (the *_PATH variables) is the
// only one tried: a mistyped path is an error, not a silent fall back to another install.
//   comgr (libamd_comgr): COMGR_PATH (an explicit file); else the loader names libamd_comgr.so.3,
//     .so.2, .so (LD_LIBRARY_PATH, the ldconfig cache: Debian's libamd-comgr2); then
//     <rocm>/lib/<name> for each ROCm dir.
//   device libraries (ocml.bc, ockl.bc, oclc_*.bc): HIP_DEVICE_LIB_PATH (a dir); else
//     <rocm>/amdgcn/bitcode for each ROCm dir; then Debian's rocm-device-libs dir
//     (/usr/lib/<multiarch>/amdgcn/bitcode). The first dir holding ocml.bc.
//   clang (for targets comgr does not know): HIP_CLANG_PATH (a file); else <rocm>/llvm/bin/clang
//     for each ROCm dir; then clang-20 ... clang-15 on PATH (Debian's clang-15 is the one
//     ROCm 5.2's hipcc drives). Older clangs know no gfx11 and are not looked for.
//   ROCm dirs: ROCM_PATH, then the well-known /opt/rocm.
//
// Example:
//   HipToolchainOptions tools = HipToolchainOptions::FromEnvironment();   // at the edge: main()
//   ASSIGN_OR_RETURN(auto comgr, ComgrApi::Load(tools));
#ifndef TINYGRAD_RUNTIME_HIP_TOOLCHAIN_SEARCH_H_
#define TINYGRAD_RUNTIME_HIP_TOOLCHAIN_SEARCH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

struct HipToolchainOptions {
  std::string comgr_path;      // explicit libamd_comgr file; empty: search
  std::string device_lib_dir;  // explicit dir of ocml.bc & co.; empty: search
  std::string clang_path;      // explicit clang; empty: search
  std::vector<std::string> rocm_dirs = {"/opt/rocm"};

  // The defaults overridden by COMGR_PATH, HIP_DEVICE_LIB_PATH, HIP_CLANG_PATH, and ROCM_PATH
  // put before the default ROCm dir. The one place this package reads the environment: call
  // it at the edge and pass the result down.
  static HipToolchainOptions FromEnvironment();
};

// The files DynamicLibrary::Open tries for comgr, in order.
std::vector<std::string> ComgrLibraryCandidates(const HipToolchainOptions& options);

// The dirs searched for the device libraries, in order (existing or not).
std::vector<std::string> DeviceLibDirCandidates(const HipToolchainOptions& options);
// The first candidate holding ocml.bc; NotFound naming every dir tried.
absl::StatusOr<std::string> FindDeviceLibDir(const HipToolchainOptions& options);

// The clang executables tried, in order: paths, or names looked up in PATH.
std::vector<std::string> ClangCandidates(const HipToolchainOptions& options);
// The first candidate that exists (a name resolved through PATH to its file); NotFound naming
// every candidate.
absl::StatusOr<std::string> FindClang(const HipToolchainOptions& options);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_TOOLCHAIN_SEARCH_H_
