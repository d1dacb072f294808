// File: tinygrad/runtime/cpu/llvm_compiler.h
// Port of tinygrad/runtime/support/compiler_cpu.py: CPULLVMCompiler, LLVM IR text -> object
// code, in this process through libLLVM (no compiler process), plus loading that object with
// LLVM's ORC JIT (tinygrad relocates it itself with its elf.py jit_loader).
//
// Why in-process: a `clang -shared` per kernel costs ~300 ms, nearly all of it process start-up
// (clang loads libLLVM twice over, then ld); parsing + default<O2> + codegen of the same
// kernels in-process costs ~5 ms. That is what makes BEAM search affordable on a CPU.
//
// Compile(): parse the IR in a fresh LLVMContext (one per call, so any number of threads can
// compile at once), verify it, run the new pass manager's default<O2> with loop unrolling, loop
// and SLP vectorization (the reference's LLVMOPT=1 settings; LLVMOPT=0 gives default<O0>), and
// emit an ELF object for the host CPU and its features (LLVM 14 names this host's CPU
// "generic", so the features string is what enables AVX-512 & co). Results are cached like
// ClangCompiler's, keyed by (LLVM version, triple, cpu, features, opt, IR).
//
// The IR uses LLVM 14's typed pointers (LLVMRenderer's default, see renderer/llvm/llvmir.h;
// LLVM 14's -opaque-pointers mode crashes in loop vectorization).
//
// Example:
//   LlvmCompiler llvm(LlvmCompilerOptions::FromConfig(config));  // or {}: the defaults
//   ASSIGN_OR_RETURN(std::string ir, WithLlvmCpuEntry(src, "E_16"));
//   ASSIGN_OR_RETURN(std::string obj, llvm.Compile(ir));
//   ASSIGN_OR_RETURN(CpuProgram prg, LoadLlvmObject(obj, "E_16"));
//   prg.Run({out.data(), in.data()}, {});
#ifndef TINYGRAD_RUNTIME_CPU_LLVM_COMPILER_H_
#define TINYGRAD_RUNTIME_CPU_LLVM_COMPILER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"
#include "tinygrad/runtime/compile_cache.h"
#include "tinygrad/runtime/cpu/program.h"

namespace tg {

struct LlvmCompilerOptions {
  // An x86-64 level (cpu_target.h): code for it (LLVM's CPU of that name and its features)
  // instead of the host's; "" or "native": `cpu` and `features` decide.
  std::string target;
  std::string cpu;        // "" = the host's (LLVMGetHostCPUName); ignored with a target
  std::string features;   // "" = the host's (LLVMGetHostCPUFeatures); ignored with a target
  bool optimize = true;   // LLVMOPT: default<O2> + unrolling/vectorization, else default<O0>
  bool verify_each = true;  // the reference verifies the module after every pass
  int cachelevel = 2;     // CACHELEVEL: 0 keeps the cache in memory only
  std::string cache_dir;  // the disk cache lives in <cache_dir>/compile_llvm_obj; "": none

  static LlvmCompilerOptions FromConfig(const Config& config);
};

class LlvmCompiler {
 public:
  explicit LlvmCompiler(LlvmCompilerOptions options = {});

  // The object file for `ir`, from the cache when possible. Thread-safe. Errors:
  // InvalidArgument (the IR does not parse or verify, or LLVM reported an error: the message
  // has LLVM's; an unknown target), Internal (the pass pipeline or code generation failed).
  absl::StatusOr<std::string> Compile(std::string_view ir);
  // Always compiles.
  absl::StatusOr<std::string> CompileUncached(std::string_view ir) const;

  uint64_t CacheKey(std::string_view ir) const;
  CompileCacheStats cache_stats() const { return cache_.stats(); }
  const LlvmCompilerOptions& options() const { return options_; }
  // What determines the code besides the IR: "llvm-14 x86_64-none-unknown-elf <cpu> <features>
  // O2". Part of the engine's method-cache key.
  const std::string& id() const { return id_; }

 private:
  LlvmCompilerOptions options_;  // cpu/features filled in from the host
  std::string triple_;
  std::string id_;
  CompileCache cache_;
};

// `ir` (an LLVMRenderer module defining `function_name`) followed by the uniform CPU entry point
// `void <function_name>_tg_entry(void** bufs, const int* vars, int core_id)` in IR, which loads
// each pointer parameter from bufs and each integer one from vars, and passes core_id to a
// trailing `i32 %core_id` parameter if the kernel has one. Errors: InvalidArgument when the module does not define `function_name` or a
// parameter type is neither a pointer nor an integer.
absl::StatusOr<std::string> WithLlvmCpuEntry(std::string_view ir, std::string_view function_name);

// Loads an object from LlvmCompiler (compiled from WithLlvmCpuEntry IR) into this process with
// ORC's LLJIT, one JIT instance per program (kernel names repeat across BEAM candidates), and
// finds the entry point. The program unloads its code when destroyed. Thread-safe. Errors:
// InvalidArgument (not a loadable object, unresolved symbols), NotFound (no entry point).
absl::StatusOr<CpuProgram> LoadLlvmObject(std::string_view obj, std::string_view function_name);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_LLVM_COMPILER_H_
