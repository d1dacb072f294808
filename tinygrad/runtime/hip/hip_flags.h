// File: tinygrad/runtime/hip/hip_flags.h
// What both HIP compilers (comgr, clang) are told, so a kernel compiles the same way through
// either: the reference's comgr options (runtime/support/compiler_amd.py compile_hip), and the
// device libraries linked as clang's HIP toolchain links them (-mlink-builtin-bitcode: only
// what the kernel calls is pulled in, with the kernel's target features).
#ifndef TINYGRAD_RUNTIME_HIP_HIP_FLAGS_H_
#define TINYGRAD_RUNTIME_HIP_HIP_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/hip/arch.h"

namespace tg {

// The bitcode files of `dir` a kernel for `target` links, in link order: ocml, ockl, then the
// oclc control libraries (no denormal flushing, no finite-only or unsafe math, correctly
// rounded sqrt, the target's wave size, code object ABI 4) and oclc_isa_version_<id>.bc.
// ocml and ockl must exist (NotFound otherwise). An ISA-version library the release lacks
// (ROCm 5.2 has none for gfx11) is left out: the kernels tinygrad renders call nothing that
// reads it, and if one did, the link would fail naming __oclc_ISA_version.
absl::StatusOr<std::vector<std::string>> DeviceLibFiles(const std::string& dir,
                                                        const AmdGpuTarget& target);

// The front end's flags (C++14 HIP, device only, no HIP headers: the HIP renderer's source
// declares what it uses), then -Xclang -mlink-builtin-bitcode for each of `device_libs`.
// Neither the target (comgr takes it as the ISA name, clang as --offload-arch) nor -O is in it.
std::vector<std::string> HipFrontendFlags(const AmdGpuTarget& target,
                                          const std::vector<std::string>& device_libs);

// `flags` as a compiler id may show them: a device library by its file name only (its folder
// is a path of this machine, and the same release elsewhere compiles the same).
std::vector<std::string> PortableFlags(const std::vector<std::string>& flags);

// The back end's: -O3 and internalized non-kernel symbols, so unused library code is dropped
// (the reference's CODEGEN_BC_TO_RELOCATABLE options), and the code object version again
// (LLVM 15 takes it as a back-end option, not from the bitcode).
std::vector<std::string> HipCodegenFlags();

// The code object ABI the flags select: its oclc_abi_version library must match.
inline constexpr int kCodeObjectVersion = 4;

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_HIP_FLAGS_H_
