// File: tinygrad/runtime/hip/comgr_compiler.h
// The comgr back end of HipCompiler (hip_compiler.h): compile_hip of the reference's
// runtime/support/compiler_amd.py, three comgr actions in-process: source -> bitcode (device
// libraries linked by the front end), bitcode -> relocatable, relocatable -> executable.
#ifndef TINYGRAD_RUNTIME_HIP_COMGR_COMPILER_H_
#define TINYGRAD_RUNTIME_HIP_COMGR_COMPILER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/hip/comgr_api.h"
#include "tinygrad/runtime/hip/hip_compiler.h"

namespace tg {

class ComgrHipCompiler final : public HipCompiler {
 public:
  // InvalidArgument when comgr does not know the target's processor (the message lists those
  // it knows); NotFound for missing device libraries.
  static absl::StatusOr<std::unique_ptr<HipCompiler>> Create(std::shared_ptr<const ComgrApi> api,
                                                             const AmdGpuTarget& target,
                                                             const std::string& device_lib_dir,
                                                             const HipCompilerOptions& options);

  absl::StatusOr<std::string> CompileUncached(std::string_view src) const override;

 private:
  ComgrHipCompiler(std::shared_ptr<const ComgrApi> api, const AmdGpuTarget& target,
                   std::vector<std::string> frontend_flags, std::string compiler_id,
                   std::string machine_key, const HipCompilerOptions& options);

  const std::shared_ptr<const ComgrApi> api_;
  const std::vector<std::string> frontend_flags_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_COMGR_COMPILER_H_
