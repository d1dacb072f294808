// File: tinygrad/engine/cpu_inprocess.h
// The CPU device's compilers that run inside this process: clang through its C++ API (the
// default C compiler) and libLLVM (CPU_LLVM=1), whose objects ORC loads. They are the only
// part of the engine that needs libclang-cpp and libLLVM (about 170 MB of shared libraries),
// so they are one library with two builds:
//   default                                  cpu_inprocess.cc: the real compilers
//   --define tg_inprocess_compilers=off      cpu_inprocess_absent.cc: available() is false and
//                                            every call says they are not in this build
// The second is for binaries that must travel light (tools/gpu_check's bundle for a GPU
// machine): their CPU device compiles C with a clang process (CPU_CC), if the machine has one.
//
// Example:
//   CpuInProcessCompilers c(options);          // nothing built yet
//   if (c.available()) ASSIGN_OR_RETURN(std::string obj, c.CompileC(src));
#ifndef TINYGRAD_ENGINE_CPU_INPROCESS_H_
#define TINYGRAD_ENGINE_CPU_INPROCESS_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/engine/cpu_device_options.h"
#include "tinygrad/runtime/cpu/program.h"

namespace tg {

class CpuInProcessCompilers {
 public:
  explicit CpuInProcessCompilers(const CpuDeviceOptions& options);
  ~CpuInProcessCompilers();
  CpuInProcessCompilers(const CpuInProcessCompilers&) = delete;
  CpuInProcessCompilers& operator=(const CpuInProcessCompilers&) = delete;

  // Whether this build has them.
  static bool available();
  // Each compiler is built on first use (the in-process clang runs the clang driver when it is
  // built) and is thread-safe. In a build without them, the ids name that and the calls fail.
  std::string ClangId() const;
  absl::StatusOr<std::string> CompileC(std::string_view src) const;  // an ELF object
  std::string LlvmId() const;
  // The kernel's IR with the CPU entry point added (WithLlvmCpuEntry), as an ELF object.
  absl::StatusOr<std::string> CompileLlvmIr(std::string_view ir, std::string_view function_name) const;
  // An ELF relocatable object of either compiler, linked into this process.
  static absl::StatusOr<CpuProgram> LoadObject(std::string_view obj, std::string_view function_name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_CPU_INPROCESS_H_
