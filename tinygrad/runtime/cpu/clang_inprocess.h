// File: tinygrad/runtime/cpu/clang_inprocess.h
// Port of tinygrad/runtime/support/compiler_cpu.py: ClangJITCompiler, C source -> relocatable
// ELF object, with clang's C++ API in this process instead of a `clang` process per kernel.
//
// Why: a `clang` process per kernel costs ~300 ms, nearly all of it process start-up; BEAM
// search compiles hundreds of candidates. The same compiler (libclang-cpp 14, the library the
// clang-14 binary is built from) run in-process costs only the compile itself.
//
// Same flags, same code: at construction the clang driver runs in-process once on the
// reference's command line (`clang -c -x c -march=native --target=<arch>-none-unknown-elf -O2
// -fPIC -ffreestanding -fno-math-errno -nostdlib -fno-ident`), which turns -march=native into
// the host's -target-cpu and -target-feature list exactly as the clang binary does, and its
// -cc1 argument list is kept. Each Compile() builds a fresh CompilerInvocation from those
// arguments, maps the source in as an in-memory file and runs EmitObjAction into memory. So the
// .text of an object equals what `clang -c` with the same flags writes. Three cc1 arguments are
// not kept: -disable-free (in a long-lived process clang must free what it allocates), the
// cwd-dependent -f{debug,coverage}-compilation-dir (no debug info is emitted; the cache key must
// not depend on the cwd), and -mllvm options, which clang applies by re-parsing LLVM's global
// command line at each compile (not thread-safe): they are applied once, at construction.
//
// The object is loaded with LoadLlvmObject (llvm_compiler.h), as tinygrad's jit_loader loads
// clang's object. Thread-safe: one CompilerInstance and LLVMContext per Compile(). Compile
// errors and warnings never reach stderr: errors come back in the Status with clang's text.
// Results are cached like ClangCompiler's, keyed by id() and the source, on disk under
// <cache_dir>/compile_clang_jit (the reference's cache key name).
//
// Example:
//   ClangInProcessCompiler cc(ClangInProcessOptions::FromConfig(config));  // or {}: defaults
//   ASSIGN_OR_RETURN(std::string obj, cc.Compile(WithCpuEntry(src, "E_16", 2, 0)));
//   ASSIGN_OR_RETURN(CpuProgram prg, LoadLlvmObject(obj, "E_16"));
#ifndef TINYGRAD_RUNTIME_CPU_CLANG_INPROCESS_H_
#define TINYGRAD_RUNTIME_CPU_CLANG_INPROCESS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"
#include "tinygrad/runtime/compile_cache.h"

namespace tg {

struct ClangInProcessOptions {
  std::vector<std::string> flags = DefaultFlags();  // the driver's flags, all but input/output
  int cachelevel = 2;              // CACHELEVEL: 0 keeps the cache in memory only
  std::string cache_dir;           // the disk cache lives in <cache_dir>/compile_clang_jit; "": none

  // The reference's ClangJITCompiler flags for this machine (with -c: an object), for code of
  // `target` (cpu_target.h: "" is the host's ISA, -march=native).
  static std::vector<std::string> DefaultFlags(std::string_view target = {});
  static ClangInProcessOptions FromConfig(const Config& config);
};

class ClangInProcessCompiler {
 public:
  // Runs the clang driver once (in-process) to get the -cc1 arguments; a failure there is
  // reported by every Compile().
  explicit ClangInProcessCompiler(ClangInProcessOptions options = {});

  // The ELF relocatable object for `src`, from the cache when possible. Thread-safe. Errors:
  // InvalidArgument (the source does not compile: the message has clang's diagnostics),
  // FailedPrecondition (the driver rejected the flags), Internal (no object was written).
  absl::StatusOr<std::string> Compile(std::string_view src);
  // Always compiles.
  absl::StatusOr<std::string> CompileUncached(std::string_view src) const;

  uint64_t CacheKey(std::string_view src) const;
  CompileCacheStats cache_stats() const { return cache_.stats(); }
  const ClangInProcessOptions& options() const { return options_; }
  // What determines the code besides the source: "clang version 14.0.6 ... in-process <driver
  // flags> | cc1 <the kept -cc1 arguments>". Part of the engine's method-cache key.
  const std::string& id() const { return id_; }
  // The -cc1 arguments each compile parses (without "-cc1", the input file name included).
  const std::vector<std::string>& cc1_args() const { return cc1_args_; }
  // OK, or why the driver could not produce a -cc1 line.
  const absl::Status& init_status() const { return init_status_; }

 private:
  const ClangInProcessOptions options_;
  absl::Status init_status_;
  std::vector<std::string> cc1_args_;
  std::string id_;
  CompileCache cache_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_CLANG_INPROCESS_H_
