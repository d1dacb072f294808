// File: tinygrad/runtime/hip/hip_compiler.h
// Port of tinygrad/runtime/support/compiler_amd.py: HIPCompiler (comgr) and HIPCCCompiler
// (clang through hipcc): HIP C++ -> an AMD code object (an ELF shared object the ROCm loader
// takes as is) for one gfx target. No GPU is needed.
//
// Two back ends, the same flags (hip_flags.h) and device libraries (rocm-device-libs):
//   comgr  libamd_comgr, opened at run time, compiling in-process (the reference's choice).
//          Debian 12's comgr 2.4 (ROCm 5.2) knows gfx600 ... gfx90a, gfx90c, gfx1010 ... gfx1036
//          only: not gfx940/942 (CDNA3) nor gfx11 (RDNA3), whose targets its LLVM 15 has.
//   clang  a clang 15+ process (what hipcc runs), for the targets comgr does not know: Debian's
//          clang-15 compiles gfx1100 and gfx940. It is chosen over hipcc itself because hipcc
//          only adds host-side HIP paths we do not use (device-only compiles of a source that
//          includes nothing), and pulls in the HIP runtime packages.
// kAuto takes comgr where it knows the target, else clang. A failed compile is InvalidArgument
// carrying the compiler's log; a missing library or tool is NotFound naming what was looked
// for; an unknown target is InvalidArgument naming the compilers' limits.
//
// Results are cached like the other compilers' (compile_cache.h): the key hashes the compiler
// id, the device library dir and the source; the disk cache is <cache_dir>/compile_hip_<target>
// (the reference's table name).
//
// Example:
//   HipToolchainOptions tools = HipToolchainOptions::FromEnvironment();
//   ASSIGN_OR_RETURN(auto compiler, HipCompiler::Create(tools, {.arch = "gfx1100"}));
//   ASSIGN_OR_RETURN(std::string code_object, compiler->Compile(src));
#ifndef TINYGRAD_RUNTIME_HIP_HIP_COMPILER_H_
#define TINYGRAD_RUNTIME_HIP_HIP_COMPILER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/compile_cache.h"
#include "tinygrad/runtime/hip/arch.h"
#include "tinygrad/runtime/hip/toolchain_search.h"

namespace tg {

enum class HipCompilerBackend { kAuto, kComgr, kClang };

// "auto", "comgr", "clang".
std::string_view HipCompilerBackendName(HipCompilerBackend b);

struct HipCompilerOptions {
  std::string arch;  // "gfx1100", "gfx90a:xnack-": required
  HipCompilerBackend backend = HipCompilerBackend::kAuto;
  std::vector<std::string> extra_flags;  // given to the front end after ours
  int cachelevel = 2;                    // CACHELEVEL: 0 keeps the cache in memory only
  std::string cache_dir;                 // "" keeps it in memory only
};

class HipCompiler {
 public:
  // Picks and sets up the back end for options.arch (see the file comment). Errors:
  // InvalidArgument for a malformed target or one no available compiler knows; NotFound when
  // comgr/clang or the device libraries are missing.
  static absl::StatusOr<std::unique_ptr<HipCompiler>> Create(const HipToolchainOptions& tools,
                                                             HipCompilerOptions options);
  virtual ~HipCompiler() = default;
  HipCompiler(const HipCompiler&) = delete;
  HipCompiler& operator=(const HipCompiler&) = delete;

  // The code object for `src`, from the cache when possible. Thread-safe.
  absl::StatusOr<std::string> Compile(std::string_view src);
  // Always compiles.
  virtual absl::StatusOr<std::string> CompileUncached(std::string_view src) const = 0;

  uint64_t CacheKey(std::string_view src) const;
  // Identifies what Compile produces on any machine: "comgr 2.4 gfx90a -std=c++14 ... ocml ...";
  // machine paths (the device library dir, clang's path) are left out: they are in CacheKey.
  const std::string& compiler_id() const { return compiler_id_; }
  HipCompilerBackend backend() const { return backend_; }
  const AmdGpuTarget& target() const { return target_; }
  CompileCacheStats cache_stats() const { return cache_.stats(); }

 protected:
  HipCompiler(HipCompilerBackend backend, AmdGpuTarget target, std::string compiler_id,
              std::string machine_key, const HipCompilerOptions& options);

 private:
  const HipCompilerBackend backend_;
  const AmdGpuTarget target_;
  const std::string compiler_id_;
  const std::string machine_key_;  // paths that change the output: the device library dir, clang
  CompileCache cache_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_HIP_COMPILER_H_
