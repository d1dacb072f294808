// File: tinygrad/engine/cpu_device.cc
// Port of tinygrad/runtime/ops_cpu.py's CPUDevice: ClangRenderer + clang + in-process loading,
// or with CPU_LLVM=1 (tinygrad's CompilerPair(LLVMRenderer, CPULLVMCompiler)) LLVMRenderer +
// libLLVM in-process + ORC loading. The pair is fixed when the device is made (tinygrad picks it
// from its ContextVars at each access): the device registry (device.cc) keeps a device per
// options, so a changed setting reaches the next GetDevice, never a device already handed out.
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
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/cpu_inprocess.h"
#include "tinygrad/engine/host_buffer.h"
#include "tinygrad/engine/sequential_graph.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/renderer/llvm/llvmir.h"
#include "tinygrad/runtime/cpu/buffer.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/disassembler.h"
#include "tinygrad/runtime/cpu/program.h"

namespace tg {
namespace {

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
  CpuDevice(std::string name, const CpuDeviceOptions& options)
      : name_(std::move(name)), options_(options), clang_renderer_(options.renderer),
        llvm_renderer_(options.renderer), inprocess_(options) {
    clang_renderer_.device = "CPU";
  }
  const std::string& name() const override { return name_; }
  const Renderer& renderer() const override {
    if (options_.llvm) return llvm_renderer_;
    return clang_renderer_;
  }
  std::string_view cpu_target() const override { return options_.cpu_target; }
  std::string compiler_id() const override {
    if (options_.llvm) return inprocess_.LlvmId();
    if (UsesInProcessClang()) return inprocess_.ClangId();
    const ClangCompilerOptions& o = ProcessClang().options();
    std::string id = o.cc;
    for (const std::string& f : o.flags) absl::StrAppend(&id, " ", f);
    return id;
  }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override {
    // CPU_LLVM picks the compiler, but C source (written by hand, or rendered by a device
    // without it) still goes to clang: only LLVM IR can go to LLVM
    if (options_.llvm && IsLlvmIr(spec.src)) {
      return inprocess_.CompileLlvmIr(spec.src, spec.function_name);
    }
    std::string src = WithCpuEntry(spec.src, spec.function_name,
                                   static_cast<int>(spec.globals.size()),
                                   static_cast<int>(spec.vars.size()));
    if (UsesInProcessClang()) return inprocess_.CompileC(src);
    return ProcessClang().Compile(src);
  }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string& function_name,
                                                const std::string& lib) override {
    // what the bytes are decides the loader, whichever device compiled them
    if (IsRelocatableObject(lib)) {
      ASSIGN_OR_RETURN(CpuProgram p, CpuInProcessCompilers::LoadObject(lib, function_name));
      return std::make_unique<CpuKernel>(std::move(p));
    }
    ASSIGN_OR_RETURN(CpuProgram p, CpuProgram::Load(lib, function_name));
    return std::make_unique<CpuKernel>(std::move(p));
  }
  // Shared objects and relocatable objects alike.
  absl::StatusOr<std::string> Disassemble(const std::string& lib) const override { return DisassembleCpuObject(lib); }
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override {
    ASSIGN_OR_RETURN(CpuBuffer b, CpuBuffer::Allocate(nbytes));
    return std::make_shared<HostRawBuffer>(std::move(b));
  }
  // A TinyJit replay's kernels as one call (the reference's CPU device graphs them too).
  bool has_graphs() const override { return true; }
  absl::StatusOr<std::unique_ptr<KernelGraph>> MakeGraph(
      std::span<const GraphLaunch> launches) override {
    return std::make_unique<SequentialGraph>(launches);
  }

 private:
  // CPU_CC unset or plain "clang" (and not CPU_LLVM): compile with clang in this process, where
  // the build has it (else a clang process).
  bool UsesInProcessClang() const { return !options_.llvm && CpuCompilesInProcess(options_); }
  // The process clang is built on first use, as the in-process compilers are. Compile() is
  // thread-safe.
  ClangCompiler& ProcessClang() const {
    std::call_once(process_once_, [&] {
      ClangCompilerOptions o;
      if (!options_.cc.empty()) o.cc = options_.cc;
      o.flags = ClangCompilerOptions::DefaultFlags(options_.cpu_target);
      o.cachelevel = options_.cachelevel;
      o.cache_dir = options_.cache_dir;
      process_ = std::make_unique<ClangCompiler>(std::move(o));
    });
    return *process_;
  }

  const std::string name_;
  const CpuDeviceOptions options_;
  ClangRenderer clang_renderer_;
  LLVMRenderer llvm_renderer_;
  CpuInProcessCompilers inprocess_;
  mutable std::once_flag process_once_;
  mutable std::unique_ptr<ClangCompiler> process_;
};

}  // namespace

std::unique_ptr<Device> MakeCpuDevice(const std::string& name, const CpuDeviceOptions& options) {
  return std::make_unique<CpuDevice>(name, options);
}

bool CpuCompilesInProcess(const CpuDeviceOptions& options) {
  // CPU_LLVM: libLLVM, which is in every build that has the in-process compilers at all
  return CpuInProcessCompilers::available() && (options.llvm || options.cc.empty() || options.cc == "clang");
}

}  // namespace tg
