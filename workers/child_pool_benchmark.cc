// File: workers/child_pool_benchmark.cc
// What isolation costs: a job's round trip through the pool (echo, and with a device
// acquire/release), throughput with several children, and how fast a crashed child is
// replaced.
//
// Usage: bazel run -c opt //workers:child_pool_benchmark
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "workers/child_pool.h"

namespace tg::workers {
namespace {

using namespace std::chrono_literals;

using Clock = std::chrono::steady_clock;
constexpr JobLimits kLimits{.prepare_timeout = 60s, .run_deadline = 60s};

double Us(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

void Report(const char* what, std::vector<double> us) {
  std::sort(us.begin(), us.end());
  double sum = 0;
  for (double u : us) sum += u;
  std::printf("%-34s n=%-5zu mean %8.1f us  p50 %8.1f us  p99 %8.1f us\n", what, us.size(),
              sum / us.size(), us[us.size() / 2], us[us.size() * 99 / 100]);
}

// Sequential round trips of one request.
void RoundTrips(ChildPool& pool, const char* what, const std::string& request, int n) {
  for (int i = 0; i < 20; ++i) pool.Run(request, kLimits);  // warm-up
  std::vector<double> us;
  for (int i = 0; i < n; ++i) {
    Clock::time_point t0 = Clock::now();
    JobOutcome o = pool.Run(request, kLimits);
    us.push_back(Us(Clock::now() - t0));
    if (!o.ok()) std::printf("  job failed: %s\n", o.detail.c_str());
  }
  Report(what, us);
}

void Throughput(ChildPool& pool, int children, int n) {
  std::mutex mu;
  std::condition_variable cv;
  int done = 0;
  Clock::time_point t0 = Clock::now();
  for (int i = 0; i < n; ++i) {
    pool.Submit("echo:x", kLimits, [&](JobOutcome) {
      std::lock_guard<std::mutex> l(mu);
      if (++done == n) cv.notify_all();
    });
  }
  std::unique_lock<std::mutex> l(mu);
  cv.wait(l, [&] { return done == n; });
  double s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("%-34s %d children: %.0f jobs/s (%d jobs)\n", "echo throughput, all queued", children,
              n / s, n);
}

int Main(const char* child) {
  {
    auto pool = ChildPool::Create({.argv = {child}, .children = 1});
    if (!pool.ok()) {
      std::fprintf(stderr, "%s\n", pool.status().ToString().c_str());
      return 1;
    }
    RoundTrips(**pool, "echo round trip", "echo:x", 2000);
    RoundTrips(**pool, "device acquire+release round trip", "run:0", 2000);
    RoundTrips(**pool, "echo 1 MiB round trip", "echo:" + std::string(1 << 20, 'x'), 200);

    // Crash -> replacement ready (stats), and crash -> the next job answered (wall).
    std::vector<double> crash_us, next_us;
    for (int i = 0; i < 30; ++i) {
      Clock::time_point t0 = Clock::now();
      (*pool)->Run("segv", kLimits);
      Clock::time_point t1 = Clock::now();
      (*pool)->Run("echo:x", kLimits);
      crash_us.push_back(Us(t1 - t0));
      next_us.push_back(Us(Clock::now() - t1));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // replacement ready
    }
    Report("segv job (crash reported)", crash_us);
    Report("next echo job after a crash", next_us);
    PoolStats s = (*pool)->stats();
    std::printf("%-34s n=%-5lld mean %8.1f us  max %8.1f us\n", "respawn (reaped -> ready)",
                static_cast<long long>(s.respawns), 1e6 * s.total_respawn_s / s.respawns,
                1e6 * s.max_respawn_s);
  }
  for (int children : {1, 2, 4}) {
    auto pool = ChildPool::Create({.argv = {child}, .children = children});
    if (!pool.ok()) return 1;
    Throughput(**pool, children, 20000);
  }
  return 0;
}

}  // namespace
}  // namespace tg::workers

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s TEST_CHILD\n", argv[0]);
    return 2;
  }
  return tg::workers::Main(argv[1]);
}
