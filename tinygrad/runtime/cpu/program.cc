// File: tinygrad/runtime/cpu/program.cc
// Port of tinygrad/runtime/ops_cpu.py: CPUProgram (load + call) and CPUWorker's thread fan-out.
#include "tinygrad/runtime/cpu/program.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/runtime/cpu/stoppable_launch.h"
#include "tinygrad/runtime/cpu/thread_pool.h"

namespace tg {

std::string WithCpuEntry(std::string_view src, std::string_view function_name, int num_bufs,
                         int num_vars) {
  std::vector<std::string> args;
  for (int i = 0; i < num_bufs; ++i) args.push_back(absl::StrCat("bufs[", i, "]"));
  for (int i = 0; i < num_vars; ++i) args.push_back(absl::StrCat("vars[", i, "]"));
  args.push_back("core_id");
  std::string fn(function_name);
  return absl::StrCat(std::string(src), "\nvoid ", fn, std::string(kCpuEntrySuffix),
                      "(void** bufs, const int* vars, int core_id) {\n  (void)bufs; (void)vars;\n  ",
                      fn, "(", absl::StrJoin(args, ", "), ");\n}\n");
}

absl::StatusOr<CpuProgram> CpuProgram::Load(std::string_view lib, std::string_view function_name) {
  std::string name(function_name);
  UniqueFd fd(::memfd_create(("tg_" + name).c_str(), MFD_CLOEXEC));
  if (!fd) return absl::UnavailableError(absl::StrCat("memfd_create: ", std::strerror(errno)));
  size_t done = 0;
  while (done < lib.size()) {
    ssize_t n = ::write(fd.get(), lib.data() + done, lib.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return absl::UnavailableError(absl::StrCat("write to memfd: ", std::strerror(errno)));
    done += static_cast<size_t>(n);
  }
  std::string path = absl::StrCat("/proc/self/fd/", fd.get());
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = ::dlerror();
    return absl::UnavailableError(absl::StrCat("dlopen ", name, ": ", err ? err : "?"));
  }
  std::string entry = name + std::string(kCpuEntrySuffix);
  void* sym = ::dlsym(handle, entry.c_str());
  if (sym == nullptr) {
    ::dlclose(handle);
    return absl::NotFoundError(absl::StrCat("no symbol ", entry, " (compiled without WithCpuEntry?)"));
  }
  return CpuProgram(handle, std::move(fd), reinterpret_cast<EntryFn>(sym), std::move(name));
}

CpuProgram CpuProgram::FromEntry(EntryFn fn, std::string function_name,
                                 std::shared_ptr<void> owner) {
  return CpuProgram(fn, std::move(function_name), std::move(owner));
}

CpuProgram::CpuProgram(CpuProgram&& o) noexcept
    : handle_(o.handle_), fd_(std::move(o.fd_)), fn_(o.fn_), name_(std::move(o.name_)),
      owner_(std::move(o.owner_)) {
  o.handle_ = nullptr;
  o.fn_ = nullptr;
}

CpuProgram& CpuProgram::operator=(CpuProgram&& o) noexcept {
  if (this != &o) {
    Release();
    handle_ = o.handle_;
    fd_ = std::move(o.fd_);
    fn_ = o.fn_;
    name_ = std::move(o.name_);
    owner_ = std::move(o.owner_);
    o.handle_ = nullptr;
    o.fn_ = nullptr;
  }
  return *this;
}

CpuProgram::~CpuProgram() { Release(); }

void CpuProgram::Release() {
  if (handle_ != nullptr) ::dlclose(handle_);
  fd_.reset();  // after dlclose: open as long as the library is loaded
  handle_ = nullptr;
  owner_.reset();
}

double CpuProgram::Run(std::span<void* const> bufs, std::span<const int32_t> vars,
                       int threads) const {
  return RunUntil(bufs, vars, threads, /*stop_after_s=*/0).seconds;
}

CpuProgram::Timing CpuProgram::RunUntil(std::span<void* const> bufs, std::span<const int32_t> vars,
                                        int threads, double stop_after_s) const {
  TG_CHECK(fn_ != nullptr) << "Run on a moved-from CpuProgram";
  TG_CHECK(threads >= 1) << "threads=" << threads;
  void** b = const_cast<void**>(bufs.data());
  const int32_t* v = vars.data();
  EntryFn fn = fn_;
  StoppableLaunch launch(threads, stop_after_s);  // arms its timer before the clock starts
  auto start = std::chrono::steady_clock::now();
  CoreThreadPool::Get().ParallelFor(threads, [&launch, fn, b, v](int core_id) { launch.Call(fn, b, v, core_id); });
  auto end = std::chrono::steady_clock::now();
  launch.Finish();
  return Timing{.seconds = std::chrono::duration<double>(end - start).count(), .stopped = launch.stopped()};
}

}  // namespace tg
