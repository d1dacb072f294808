// File: tinygrad/engine/cpu_device.cc
// Port of tinygrad/runtime/ops_cpu.py's CPUDevice: ClangRenderer + clang + in-process loading,
// or with CPU_LLVM=1 (tinygrad's CompilerPair(LLVMRenderer, CPULLVMCompiler)) LLVMRenderer +
// libLLVM in-process + ORC loading.
//
// The clang of the default path runs in this process (runtime/cpu/clang_inprocess.h: libclang-cpp,
// the reference's `clang -c` flags, an object loaded by ORC like tinygrad's jit_loader loads
// it): a `clang` process per kernel costs ~300 ms of start-up, which dominates BEAM search.
// CPU_CC naming another compiler keeps the process path: that compiler links a shared object
// that is dlopen'ed (runtime/cpu/program.h).
#include "tinygrad/engine/cpu_device.h"

#include <cstring>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/renderer/llvm/llvmir.h"
#include "tinygrad/runtime/cpu/buffer.h"
#include "tinygrad/runtime/cpu/clang_inprocess.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/llvm_compiler.h"
#include "tinygrad/runtime/cpu/program.h"

namespace tg {
namespace {

class CpuRawBuffer : public RawBuffer {
 public:
  explicit CpuRawBuffer(CpuBuffer b) : buf_(std::move(b)) {}
  void* data() override { return buf_.data(); }
  size_t nbytes() const override { return buf_.size(); }
  void CopyIn(std::span<const std::byte> src, size_t offset) override {
    TG_CHECK(offset + src.size() <= buf_.size()) << "copyin past the end";
    if (!src.empty()) std::memcpy(buf_.bytes().data() + offset, src.data(), src.size());
  }
  void CopyOut(std::span<std::byte> dst, size_t offset) const override {
    TG_CHECK(offset + dst.size() <= buf_.size()) << "copyout past the end";
    if (!dst.empty()) std::memcpy(dst.data(), buf_.bytes().data() + offset, dst.size());
  }

 private:
  CpuBuffer buf_;
};

class CpuKernel : public Program {
 public:
  explicit CpuKernel(CpuProgram p) : prog_(std::move(p)) {}
  absl::StatusOr<double> Run(std::span<void* const> bufs, std::span<const int64_t> vals,
                             const LaunchDims& global_size, const std::optional<LaunchDims>&,
                             bool, double stop_after_s) override {
    std::vector<int32_t> vars;
    for (int64_t v : vals) {
      if (v < INT32_MIN || v > INT32_MAX)
        return absl::OutOfRangeError(absl::StrCat("variable value ", v, " does not fit int32"));
      vars.push_back(static_cast<int32_t>(v));
    }
    // The kernel's only launch dimension is its thread count (core_id = gidx0).
    int threads = static_cast<int>(std::max<int64_t>(1, global_size[0]));
    CpuProgram::Timing t = prog_.RunUntil(bufs, vars, threads, stop_after_s);
    if (t.stopped)
      return absl::DeadlineExceededError(
          absl::StrCat("stopped after ", t.seconds, " s (allowed ", stop_after_s, " s)"));
    return t.seconds;
  }

 private:
  CpuProgram prog_;
};

// An ELF relocatable object (LlvmCompiler's or ClangInProcessCompiler's output) rather than a
// shared object (a clang process's).
bool IsRelocatableObject(const std::string& lib) {
  return lib.size() > 18 && lib.compare(0, 4, "\x7f" "ELF") == 0 && lib[16] == 1 && lib[17] == 0;
}

// LLVMRenderer's output: a module that starts with declarations or the kernel's definition.
bool IsLlvmIr(const std::string& src) {
  return src.starts_with("define ") || src.starts_with("declare ");
}

class CpuDevice : public Device {
 public:
  explicit CpuDevice(std::string name)
      : name_(std::move(name)), renderer_(CpuRendererOptions::FromConfig(GetConfig())),
        llvm_renderer_(CpuRendererOptions::FromConfig(GetConfig())) {
    renderer_.device = "CPU";
  }
  const std::string& name() const override { return name_; }
  // CPU_LLVM picks the renderer per call, as the compiler, so a ScopedConfig switches both.
  const Renderer& renderer() const override {
    if (GetConfig().cpu_llvm != 0) return llvm_renderer_;
    return renderer_;
  }
  std::string compiler_id() const override {
    if (GetConfig().cpu_llvm != 0) return LlvmCompilerFor(GetConfig())->id();
    if (UsesInProcessClang(GetConfig())) return InProcessCompiler()->id();
    std::shared_ptr<ClangCompiler> compiler = Compiler();
    std::string id = compiler->options().cc;
    for (const std::string& f : compiler->options().flags) absl::StrAppend(&id, " ", f);
    return id;
  }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override {
    // CPU_LLVM picks the compiler, but C source (rendered before the switch, or written by
    // hand) still goes to clang: only LLVM IR can go to LLVM
    if (GetConfig().cpu_llvm != 0 && IsLlvmIr(spec.src)) {
      ASSIGN_OR_RETURN(std::string ir, WithLlvmCpuEntry(spec.src, spec.function_name));
      return LlvmCompilerFor(GetConfig())->Compile(ir);
    }
    if (UsesInProcessClang(GetConfig()))
      return InProcessCompiler()->Compile(WithCpuEntry(spec.src, spec.function_name,
                                                       static_cast<int>(spec.globals.size()),
                                                       static_cast<int>(spec.vars.size())));
    return Compiler()->Compile(WithCpuEntry(spec.src, spec.function_name,
                                            static_cast<int>(spec.globals.size()),
                                            static_cast<int>(spec.vars.size())));
  }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& function_name,
                                                const std::string& lib) override {
    // what the bytes are decides the loader, whatever CPU_LLVM says now
    if (IsRelocatableObject(lib)) {
      ASSIGN_OR_RETURN(CpuProgram p, LoadLlvmObject(lib, function_name));
      return std::make_unique<CpuKernel>(std::move(p));
    }
    ASSIGN_OR_RETURN(CpuProgram p, CpuProgram::Load(lib, function_name));
    return std::make_unique<CpuKernel>(std::move(p));
  }
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override {
    ASSIGN_OR_RETURN(CpuBuffer b, CpuBuffer::Allocate(nbytes));
    return std::make_shared<CpuRawBuffer>(std::move(b));
  }

 private:
  // CPU_CC unset or plain "clang" (and not CPU_LLVM): compile with clang in this process.
  static bool UsesInProcessClang(const Config& c) {
    return c.cpu_llvm == 0 && (c.cc.empty() || c.cc == "clang");
  }
  // The in-process clang for the current CACHELEVEL and cache dir (kept while they hold: its
  // construction runs the clang driver once).
  std::shared_ptr<ClangInProcessCompiler> InProcessCompiler() const {
    const Config& c = GetConfig();
    std::lock_guard<std::mutex> lock(mu_);
    if (inprocess_ == nullptr || inprocess_->options().cachelevel != c.cachelevel ||
        inprocess_->options().cache_dir != c.cache_dir)
      inprocess_ = std::make_shared<ClangInProcessCompiler>(ClangInProcessOptions::FromConfig(c));
    return inprocess_;
  }
  // The compiler for the current settings. tinygrad reads CC at every compile, so a changed
  // Config (CPU_CC, CACHELEVEL, the cache dir) must reach the next compile, not only the first
  // one this device ever did; the compiler (and its in-memory cache) is kept while they hold.
  std::shared_ptr<ClangCompiler> Compiler() const {
    const Config& c = GetConfig();
    std::string cc = c.cc.empty() ? ClangCompilerOptions().cc : c.cc;
    std::lock_guard<std::mutex> lock(mu_);
    if (compiler_ == nullptr || compiler_->options().cc != cc ||
        compiler_->options().cachelevel != c.cachelevel ||
        compiler_->options().cache_dir != c.cache_dir)
      compiler_ = std::make_shared<ClangCompiler>(ClangCompilerOptions::FromConfig(c));
    return compiler_;
  }
  // The same for the LLVM compiler (LLVMOPT, CACHELEVEL, the cache dir).
  std::shared_ptr<LlvmCompiler> LlvmCompilerFor(const Config& c) const {
    LlvmCompilerOptions want = LlvmCompilerOptions::FromConfig(c);
    std::lock_guard<std::mutex> lock(mu_);
    if (llvm_compiler_ == nullptr || llvm_compiler_->options().optimize != want.optimize ||
        llvm_compiler_->options().cachelevel != want.cachelevel ||
        llvm_compiler_->options().cache_dir != want.cache_dir)
      llvm_compiler_ = std::make_shared<LlvmCompiler>(want);
    return llvm_compiler_;
  }

  std::string name_;
  ClangRenderer renderer_;
  LLVMRenderer llvm_renderer_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<ClangCompiler> compiler_;
  mutable std::shared_ptr<ClangInProcessCompiler> inprocess_;
  mutable std::shared_ptr<LlvmCompiler> llvm_compiler_;
};

}  // namespace

std::unique_ptr<Device> MakeCpuDevice(const std::string& name) {
  return std::make_unique<CpuDevice>(name);
}

}  // namespace tg
