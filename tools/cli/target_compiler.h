// File: tools/cli/target_compiler.h
// A kernel compiler for one GPU target, as `tg compile` uses it: source in, binary out, and
// the compiler's identity (part of the target's device class), and the binary's disassembly.
// Implemented over NVRTC, nvJitLink and HipCompiler (compile_target.cc).
#ifndef TOOLS_CLI_TARGET_COMPILER_H_
#define TOOLS_CLI_TARGET_COMPILER_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tg {

class TargetCompiler {
 public:
  virtual ~TargetCompiler() = default;
  // Always compiles (no cache: `tg compile` reports compile times).
  virtual absl::StatusOr<std::string> Compile(std::string_view src) = 0;
  // What Compile produces on any machine ("nvrtc 13.0 cubin --gpu-architecture=sm_90 ...").
  virtual const std::string& id() const = 0;
  // Readies the compiler for `threads` compiling at once (NVRTC: a private copy of the library
  // per thread, made under `temp_dir`, since threads sharing one sleep on its lock). Without it
  // compiles still run, one library shared. Errors: the copies could not be made (message says
  // how many there are).
  virtual absl::Status PrepareThreads(int threads, const std::string& temp_dir) {
    (void)threads;
    (void)temp_dir;
    return absl::OkStatus();
  }
  // What the binary is, for people: "cubin", "code object".
  virtual std::string_view binary_kind() const = 0;
  // A binary Compile made, for people (DEBUG=7, --disassemble): SASS for a CUBIN, the
  // assembly of an AMD code object. NotFound when the disassembler is not installed.
  virtual absl::StatusOr<std::string> Disassemble(std::string_view binary) const = 0;
};

}  // namespace tg

#endif  // TOOLS_CLI_TARGET_COMPILER_H_
