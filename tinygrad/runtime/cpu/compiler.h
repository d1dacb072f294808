// File: tinygrad/runtime/cpu/compiler.h
// Port of tinygrad/runtime/support/compiler_cpu.py: ClangJITCompiler, C source -> loadable code.
//
// Deliberate simplification: tinygrad compiles to a relocatable ELF object (`-c`) and relocates
// it itself (runtime/support/elf.py jit_loader) into a flat image. We ask clang for a shared
// object (`-shared -fPIC`) that CpuProgram loads with dlopen; the flags are otherwise
// tinygrad's (-march=native -O2 -ffreestanding -fno-math-errno -nostdlib -fno-ident).
//
// Results are cached by a stable hash of (compiler identity, flags, source): in memory and,
// unless CACHELEVEL=0, on disk under Config.cache_dir.
//
// Example:
//   ClangCompiler cc(ClangCompilerOptions::FromConfig(config));  // or {}: tinygrad's defaults
//   absl::StatusOr<std::string> lib = cc.Compile(WithCpuEntry(src, "E_16", 2, 0));
//   // lib->data(): the shared object's bytes; a compile error's message holds clang's output
#ifndef TINYGRAD_RUNTIME_CPU_COMPILER_H_
#define TINYGRAD_RUNTIME_CPU_COMPILER_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"
#include "tinygrad/runtime/compile_cache.h"

namespace tg {

struct ClangCompilerOptions {
  std::string cc = "clang";         // CPU_CC ("" = clang)
  std::vector<std::string> flags = DefaultFlags();  // all flags but the output and the input
  int cachelevel = 2;               // CACHELEVEL: 0 keeps the cache in memory only
  std::string cache_dir;            // the disk cache lives in <cache_dir>/compile_clang_so; "": none

  // tinygrad's flags for this machine, for code of `target` (cpu_target.h: "" is the host's
  // ISA, -march=native).
  static std::vector<std::string> DefaultFlags(std::string_view target = {});
  static ClangCompilerOptions FromConfig(const Config& config);
};

class ClangCompiler {
 public:
  explicit ClangCompiler(ClangCompilerOptions options = {});

  // The shared object for `src`, from the cache when possible. Thread-safe. Errors: NotFound
  // (no compiler), InvalidArgument (the source does not compile: the message has the
  // compiler's output), Unavailable (temp files, process start).
  absl::StatusOr<std::string> Compile(std::string_view src);
  // Always runs the compiler.
  absl::StatusOr<std::string> CompileUncached(std::string_view src) const;

  // The cache key of `src` (needs the compiler identity: runs `cc --version` once).
  absl::StatusOr<uint64_t> CacheKey(std::string_view src);
  CompileCacheStats cache_stats() const { return cache_.stats(); }
  const ClangCompilerOptions& options() const { return options_; }

 private:
  absl::StatusOr<std::string> CompilerId();

  const ClangCompilerOptions options_;
  CompileCache cache_;
  std::mutex id_mu_;
  std::string compiler_id_;  // `cc --version` output, filled on first use
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_COMPILER_H_
