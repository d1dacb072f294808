// File: tinygrad/runtime/hip/clang_compiler.h
// The clang back end of HipCompiler (hip_compiler.h): the reference's HIPCCCompiler
// (runtime/support/compiler_amd.py) without the hipcc wrapper, for the targets comgr does not
// know. Two clang processes in a private temp dir: HIP source -> bitcode (device-only, the
// device libraries linked by the front end), then bitcode -> code object (clang drives lld).
#ifndef TINYGRAD_RUNTIME_HIP_CLANG_COMPILER_H_
#define TINYGRAD_RUNTIME_HIP_CLANG_COMPILER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/hip/hip_compiler.h"

namespace tg {

class ClangHipCompiler final : public HipCompiler {
 public:
  // Runs `clang --version` once, and asks clang whether it knows the target (InvalidArgument
  // naming clang's version when it does not). NotFound when `clang` cannot be run or device
  // libraries are missing.
  static absl::StatusOr<std::unique_ptr<HipCompiler>> Create(const std::string& clang,
                                                             const AmdGpuTarget& target,
                                                             const std::string& device_lib_dir,
                                                             const HipCompilerOptions& options);

  absl::StatusOr<std::string> CompileUncached(std::string_view src) const override;

 private:
  ClangHipCompiler(std::string clang, const AmdGpuTarget& target,
                   std::vector<std::string> frontend_flags, std::string compiler_id,
                   std::string machine_key, const HipCompilerOptions& options);

  const std::string clang_;
  const std::vector<std::string> frontend_flags_;
};

// "15.0.6" from clang's --version text ("Debian clang version 15.0.6"); "" when absent.
std::string ClangVersionFromText(std::string_view version_output);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_CLANG_COMPILER_H_
