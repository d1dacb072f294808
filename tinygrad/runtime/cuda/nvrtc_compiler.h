// File: tinygrad/runtime/cuda/nvrtc_compiler.h
// Port of tinygrad/runtime/support/compiler_cuda.py: CUDACompiler (CUDA C++ -> PTX) and
// NVCompiler (-> CUBIN), both through NVRTC, which needs no GPU and no driver.
//
// Options are the reference's: --gpu-architecture=<arch>, -I<cuda>/include for cuda_fp16.h
// and friends (NVRTC has them not built in), and --minimal from NVRTC 12.4 on (a smaller
// default header set: faster front end). Beyond the reference, the headers a kernel may include
// are read from the include dirs once, when the compiler is made, and given to NVRTC from
// memory (nvrtc_headers.h): a compile opens no file, so it works in a sandboxed worker child.
// A failed compile is InvalidArgument carrying NVRTC's error name and its log.
//
// Compiling on several threads at once: NVRTC serializes part of every compile on a lock of the
// loaded library, so threads sharing one instance sleep on each other. ReserveInstances gives
// the compiler private copies of the library (nvrtc_copy.h), one per thread that compiles at
// once (the measurer's compile threads); each compile then takes an instance no other compile
// is using, and only when all are busy shares one, as every thread shared the one library
// before. The instances are copies of one file: they make the same binaries.
//
// Results are cached like the CPU compilers' (compile_cache.h): the key hashes the compiler id
// (NVRTC's version, the arch, the output kind, the flags), the include dirs, the headers read
// from them and the source; the
// disk cache lives in <cache_dir>/compile_cuda_<arch> (PTX) or compile_nv_<arch> (CUBIN), the
// reference's cache table names.
//
// Example:
//   ASSIGN_OR_RETURN(auto nvrtc, NvrtcApi::Load(libs));
//   ASSIGN_OR_RETURN(auto compiler, NvrtcCompiler::Create(nvrtc, {.arch = "sm_90"}));
//   ASSIGN_OR_RETURN(std::string ptx, compiler->Compile(src));
#ifndef TINYGRAD_RUNTIME_CUDA_NVRTC_COMPILER_H_
#define TINYGRAD_RUNTIME_CUDA_NVRTC_COMPILER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "tinygrad/runtime/compile_cache.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"
#include "tinygrad/runtime/cuda/nvrtc_headers.h"

namespace tg {

// What a CUDA compiler hands the driver: PTX text (JIT-compiled by the driver at module load,
// the reference CUDA device's choice) or a CUBIN (an ELF for exactly one arch, loaded as is).
enum class CudaBinaryKind { kPtx, kCubin };

struct NvrtcCompilerOptions {
  std::string arch;  // "sm_90": required
  CudaBinaryKind output = CudaBinaryKind::kPtx;
  std::vector<std::string> include_dirs;  // -I dirs: CudaIncludeDirs(libs) at the edge
  std::vector<std::string> extra_flags;   // after the reference's flags
  int cachelevel = 2;                     // CACHELEVEL: 0 keeps the cache in memory only
  std::string cache_dir;                  // "" keeps it in memory only
};

class NvrtcCompiler {
 public:
  // InvalidArgument for a malformed arch (arch.h); the errors of ReadHeaderClosure.
  static absl::StatusOr<std::unique_ptr<NvrtcCompiler>> Create(std::shared_ptr<const NvrtcApi> api,
                                                               NvrtcCompilerOptions options);

  // PTX (text, no trailing NUL) or CUBIN bytes for `src`, from the cache when possible.
  // Thread-safe. InvalidArgument when NVRTC rejects the source or an option (the message has
  // the error name and NVRTC's log); Internal for any other NVRTC failure.
  absl::StatusOr<std::string> Compile(std::string_view src);
  // Always runs NVRTC. `log`, when given, gets NVRTC's log of a compile that worked: the
  // front end's warnings and ptxas's remarks (a CUBIN's, e.g. C7517: it serialized wgmma).
  absl::StatusOr<std::string> CompileUncached(std::string_view src, std::string* log = nullptr) const;

  // Until the compiler has `count` instances of NVRTC: loads private copies of the library
  // (LoadNvrtcCopy into `temp_dir`, a few at once) and compiles a first, empty kernel on each
  // (an instance's one-time start-up, while files can still be opened). Thread-safe, compiles
  // may run meanwhile; instances are never removed. On error the compiler keeps the instances it
  // has (those made before the error too) and compiles on them; the message says how many there
  // are and why no more.
  absl::Status ReserveInstances(int count, const std::string& temp_dir);
  // How many instances of NVRTC compile: 1 until ReserveInstances.
  int instances() const;

  uint64_t CacheKey(std::string_view src) const;
  // Identifies what Compile produces on any machine: "nvrtc 13.0 ptx sm_90 --minimal ...".
  // The include dirs (machine paths) are left out; they are in CacheKey.
  const std::string& compiler_id() const { return compiler_id_; }
  // Every option NVRTC is given, in order.
  const std::vector<std::string>& flags() const { return flags_; }
  const CudaArch& arch() const { return arch_; }
  // The headers NVRTC gets from memory with every compile.
  const std::vector<NvrtcHeader>& headers() const { return headers_; }
  CudaBinaryKind output() const { return options_.output; }
  CompileCacheStats cache_stats() const { return cache_.stats(); }

 private:
  NvrtcCompiler(std::shared_ptr<const NvrtcApi> api, NvrtcCompilerOptions options, CudaArch arch,
                std::vector<NvrtcHeader> headers);
  // One instance of NVRTC, and whether a compile has it to itself now.
  struct Instance {
    std::shared_ptr<const NvrtcApi> api;
    bool busy = false;
  };
  // The instance a compile runs on (see the file comment).
  class Lease;
  absl::StatusOr<std::string> CompileOn(const NvrtcApi& api, std::string_view src, std::string* log = nullptr) const;

  const std::shared_ptr<const NvrtcApi> api_;  // the first instance: versions, archs
  const NvrtcCompilerOptions options_;
  const CudaArch arch_;
  const std::vector<NvrtcHeader> headers_;
  // nvrtcCreateProgram's arrays, pointing into headers_
  std::vector<const char*> header_texts_;
  std::vector<const char*> header_names_;
  uint64_t headers_hash_ = 0;
  std::vector<std::string> flags_;
  std::string compiler_id_;
  CompileCache cache_;
  absl::Mutex reserve_mu_;  // one ReserveInstances at a time
  mutable absl::Mutex instances_mu_;
  mutable std::deque<Instance> instances_ ABSL_GUARDED_BY(instances_mu_);  // a deque: leases point into it
  mutable size_t next_shared_ ABSL_GUARDED_BY(instances_mu_) = 0;
};

// The lines of a compile's log (CompileUncached's `log`) in which ptxas says a kernel loses
// speed: wgmma serialized ("Potential Performance Loss", e.g. C7510), waits or arrives it
// injected around wgmma (C7517: code touched accumulators while MMAs were in flight), a
// setmaxnreg ignored. Empty: none. The kernel still runs right; it is just slower.
std::vector<std::string> PtxasPerformanceRemarks(std::string_view log);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_NVRTC_COMPILER_H_
