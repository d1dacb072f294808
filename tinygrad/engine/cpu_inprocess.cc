// File: tinygrad/engine/cpu_inprocess.cc
// The in-process compilers of the default build: clang's C++ API and libLLVM, built on first use.
#include "tinygrad/engine/cpu_inprocess.h"

#include <mutex>
#include <utility>

#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/cpu/clang_inprocess.h"
#include "tinygrad/runtime/cpu/llvm_compiler.h"

namespace tg {

struct CpuInProcessCompilers::Impl {
  CpuDeviceOptions options;
  std::once_flag clang_once, llvm_once;
  std::unique_ptr<ClangInProcessCompiler> clang;
  std::unique_ptr<LlvmCompiler> llvm;

  ClangInProcessCompiler& Clang() {
    std::call_once(clang_once, [&] {
      ClangInProcessOptions o;
      o.flags = ClangInProcessOptions::DefaultFlags(options.cpu_target);
      o.cachelevel = options.cachelevel;
      o.cache_dir = options.cache_dir;
      clang = std::make_unique<ClangInProcessCompiler>(std::move(o));
    });
    return *clang;
  }
  LlvmCompiler& Llvm() {
    std::call_once(llvm_once, [&] {
      LlvmCompilerOptions o;
      o.target = options.cpu_target;
      o.optimize = options.llvm_optimize;
      o.cachelevel = options.cachelevel;
      o.cache_dir = options.cache_dir;
      llvm = std::make_unique<LlvmCompiler>(std::move(o));
    });
    return *llvm;
  }
};

CpuInProcessCompilers::CpuInProcessCompilers(const CpuDeviceOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
}
CpuInProcessCompilers::~CpuInProcessCompilers() = default;

bool CpuInProcessCompilers::available() { return true; }
std::string CpuInProcessCompilers::ClangId() const { return impl_->Clang().id(); }
absl::StatusOr<std::string> CpuInProcessCompilers::CompileC(std::string_view src) const {
  return impl_->Clang().Compile(src);
}
std::string CpuInProcessCompilers::LlvmId() const { return impl_->Llvm().id(); }
absl::StatusOr<std::string> CpuInProcessCompilers::CompileLlvmIr(std::string_view ir,
                                                                  std::string_view function_name) const {
  ASSIGN_OR_RETURN(std::string entry, WithLlvmCpuEntry(ir, function_name));
  return impl_->Llvm().Compile(entry);
}
absl::StatusOr<CpuProgram> CpuInProcessCompilers::LoadObject(std::string_view obj, std::string_view function_name) {
  return LoadLlvmObject(obj, function_name);
}

}  // namespace tg
