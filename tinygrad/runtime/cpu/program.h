// File: tinygrad/runtime/cpu/program.h
// Port of tinygrad/runtime/ops_cpu.py: CPUProgram and the CPU worker's thread launch.
//
// Calling convention. A ClangRenderer kernel is `void name(T* restrict data0, ..., const int
// var, ..., int core_id)`; its arity varies per kernel. Instead of a per-arity switch or
// casting to a variadic-looking function type, WithCpuEntry() appends a uniform entry point to
// the source before it is compiled:
//   void name_tg_entry(void** bufs, const int* vars, int core_id) { name(bufs[0], ..., core_id); }
// so every program is called the same way, with C doing the argument conversions.
//
// Loading. The shared object's bytes go into an anonymous memory file (memfd) that is dlopen'ed
// through /proc/self/fd; nothing touches the file system. tinygrad instead copies a relocated
// flat image into RWX memory (see compiler.h).
//
// Example:
//   ASSIGN_OR_RETURN(std::string lib, compiler.Compile(WithCpuEntry(src, "E_16", 2, 1)));
//   ASSIGN_OR_RETURN(CpuProgram prg, CpuProgram::Load(lib, "E_16"));
//   double seconds = prg.Run({out.data(), in.data()}, {n}, /*threads=*/4);
#ifndef TINYGRAD_RUNTIME_CPU_PROGRAM_H_
#define TINYGRAD_RUNTIME_CPU_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "tinygrad/base/unique_fd.h"

namespace tg {

// The suffix of the uniform entry point's name.
inline constexpr std::string_view kCpuEntrySuffix = "_tg_entry";

// `src` followed by the uniform entry point for kernel `function_name` taking `num_bufs` buffers
// and `num_vars` int variables (then core_id).
std::string WithCpuEntry(std::string_view src, std::string_view function_name, int num_bufs,
                         int num_vars);

class CpuProgram {
 public:
  using EntryFn = void (*)(void** bufs, const int32_t* vars, int32_t core_id);

  // Loads a shared object from Compile() and finds `function_name`'s entry point. Errors:
  // Unavailable (memfd/dlopen failed), NotFound (no entry point: compiled without WithCpuEntry).
  static absl::StatusOr<CpuProgram> Load(std::string_view lib, std::string_view function_name);
  // A program whose code another loader owns (the LLVM JIT, llvm_compiler.h): `owner` keeps the
  // code loaded until the program is destroyed.
  static CpuProgram FromEntry(EntryFn fn, std::string function_name, std::shared_ptr<void> owner);

  CpuProgram(CpuProgram&& o) noexcept;
  CpuProgram& operator=(CpuProgram&& o) noexcept;
  CpuProgram(const CpuProgram&) = delete;
  CpuProgram& operator=(const CpuProgram&) = delete;
  ~CpuProgram();

  // Runs the kernel `threads` times in parallel with core_id 0..threads-1 (core 0 on the
  // calling thread, the rest on CoreThreadPool's kept threads, as tinygrad's CPU worker) and
  // waits for all; returns the wall-clock seconds from launch until every core finished
  // (tinygrad's wait=True timing, the wake-up of the helper threads included).
  double Run(std::span<void* const> bufs, std::span<const int32_t> vars, int threads = 1) const;

  struct Timing {
    double seconds = 0;    // launch until every core finished or was stopped
    bool stopped = false;  // cut short at stop_after_s: the outputs are garbage
  };
  // Run, stopped once it has run stop_after_s seconds (stoppable_launch.h); stop_after_s
  // <= 0 or infinite: never stopped.
  Timing RunUntil(std::span<void* const> bufs, std::span<const int32_t> vars, int threads,
                  double stop_after_s) const;

  const std::string& function_name() const { return name_; }

 private:
  CpuProgram(void* handle, UniqueFd fd, EntryFn fn, std::string name)
      : handle_(handle), fd_(std::move(fd)), fn_(fn), name_(std::move(name)) {}
  CpuProgram(EntryFn fn, std::string name, std::shared_ptr<void> owner)
      : fn_(fn), name_(std::move(name)), owner_(std::move(owner)) {}
  void Release();

  void* handle_ = nullptr;  // dlopen handle
  UniqueFd fd_;             // the memfd, kept open so its /proc path is never reused while loaded
  EntryFn fn_ = nullptr;
  std::string name_;
  std::shared_ptr<void> owner_;  // FromEntry's loader state
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_PROGRAM_H_
