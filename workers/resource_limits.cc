// File: workers/resource_limits.cc
// The child's own CPU time and memory limits (resource_limits.h says what and why).
#include "workers/resource_limits.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace tg::workers {
namespace {

// A budget above this is no limit (rlim_t would take it, but nothing runs 30 years).
constexpr double kNoCpuLimitS = 1e9;

// Written by the handlers: "worker child <pid>: ", filled before they are installed.
char g_prefix[64];
size_t g_prefix_len = 0;

void WriteAll(const char* s, size_t n) {
  while (n > 0) {
    const ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

void WriteLine(const char* what) {
  WriteAll(g_prefix, g_prefix_len);
  WriteAll(what, strlen(what));
}

// Async-signal-safe: says why, then dies of SIGXCPU (SA_RESETHAND restored the default
// action, which terminates), so the parent sees the signal.
void OnCpuLimit(int) {
  WriteLine("over its CPU time limit for this job\n");
  raise(SIGXCPU);
  _exit(128 + SIGXCPU);  // not reached
}

void OnOutOfMemory() {
  WriteLine("out of memory (over its memory limit)\n");
  _exit(kChildExitOutOfMemory);
}

double Seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

}  // namespace

double ProcessCpuSeconds() {
  rusage u = {};
  getrusage(RUSAGE_SELF, &u);
  return Seconds(u.ru_utime) + Seconds(u.ru_stime);
}

absl::StatusOr<double> LimitCpuTimeFromNow(double budget_s) {
  if (!(budget_s > 0)) return absl::InvalidArgumentError(absl::StrCat("CPU time budget must be > 0 s, not ", budget_s));
  rlimit r = {};
  if (getrlimit(RLIMIT_CPU, &r) != 0) return absl::InternalError(absl::StrCat("getrlimit(RLIMIT_CPU): ", strerror(errno)));
  const double limit_s = std::ceil(ProcessCpuSeconds() + budget_s);
  r.rlim_cur = limit_s > kNoCpuLimitS ? RLIM_INFINITY : static_cast<rlim_t>(limit_s);
  if (r.rlim_max != RLIM_INFINITY && (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > r.rlim_max)) r.rlim_cur = r.rlim_max;
  if (setrlimit(RLIMIT_CPU, &r) != 0) return absl::InternalError(absl::StrCat("setrlimit(RLIMIT_CPU): ", strerror(errno)));
  return r.rlim_cur == RLIM_INFINITY ? std::numeric_limits<double>::infinity() : static_cast<double>(r.rlim_cur);
}

absl::StatusOr<uint64_t> DataBytesNow() {
  std::ifstream status("/proc/self/status");
  if (!status) return absl::InternalError("memory limit: cannot read /proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with("VmData:")) continue;
    unsigned long long kib = 0;
    char unit[8] = {};
    if (std::sscanf(line.c_str(), "VmData: %llu %7s", &kib, unit) != 2 || std::strcmp(unit, "kB") != 0)
      return absl::InternalError(absl::StrCat("memory limit: unexpected line in /proc/self/status: ", line));
    return uint64_t{kib} * 1024;
  }
  return absl::InternalError("memory limit: no VmData in /proc/self/status");
}

absl::StatusOr<uint64_t> LimitDataFromNow(uint64_t bytes) {
  if (bytes == 0) return 0;
  absl::StatusOr<uint64_t> now = DataBytesNow();
  if (!now.ok()) return now.status();
  const uint64_t limit = *now + bytes < *now ? RLIM_INFINITY : *now + bytes;  // no wrap-around
  const rlimit r = {.rlim_cur = limit, .rlim_max = limit};
  if (setrlimit(RLIMIT_DATA, &r) != 0)
    return absl::InternalError(absl::StrCat("setrlimit(RLIMIT_DATA, ", limit, "): ", strerror(errno)));
  return limit;
}

void InstallLimitHandlers() {
  const std::string prefix = absl::StrCat("worker child ", getpid(), ": ").substr(0, sizeof(g_prefix));
  std::memcpy(g_prefix, prefix.data(), prefix.size());
  g_prefix_len = prefix.size();
  struct sigaction sa = {};
  sa.sa_handler = OnCpuLimit;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGXCPU, &sa, nullptr);
  std::set_new_handler(OnOutOfMemory);
}

uint64_t DefaultChildMemoryLimit(int processes) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  const uint64_t ram = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  return std::max<uint64_t>(ram / static_cast<uint64_t>(std::max(processes, 1)), uint64_t{1} << 30);
}

}  // namespace tg::workers
