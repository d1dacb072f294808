// File: autotune/farm/broker_benchmark.cc
// Jobs per second through the broker with 1..64 simulated workers on loopback (ipc), each
// worker a scripted DEALER whose "device" sleeps a modelled time per job (one job at a time,
// 2 slots so the next job waits on the worker), plus the round-trip overhead per job with a
// device that takes no time. Scaling efficiency = jobs/s(N) / (N * jobs/s(1)). Last, a closed
// loop that keeps one job per worker outstanding, so half the slots are idle while jobs are in
// flight: the regime where the broker looks for jobs to back up on every pass.
//
//   bazel run -c opt //autotune/farm:broker_benchmark -- [DEVICE_MS] [JOBS_PER_WORKER]
//
// Not a port: benchmark of autotune/farm.
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/farm/broker.h"
#include "autotune/farm/test_worker.h"
#include "autotune/measure/test_kernels.h"
#include "tinygrad/base/check.h"

namespace tg::autotune::farm {
namespace {

using Clock = std::chrono::steady_clock;

struct Run {
  double jobs_per_s = 0;
  double us_per_job = 0;
  double broker_cpu_us_per_job = 0;
};

// `outstanding` > 0: a closed loop that keeps that many jobs submitted (each answer submits the
// next) instead of submitting all at once.
Run Measure(int workers, double device_s, int jobs, int outstanding = 0) {
  char tmpl[] = "/tmp/farm_benchXXXXXX";
  TG_CHECK(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;
  net::ZmqContext ctx;
  DeviceClass dc{.device = "CPU", .cpu_model = "bench"};
  auto b = Broker::Start({.endpoint = absl::StrCat("ipc://", dir, "/farm"), .context = &ctx});
  TG_CHECK(b.ok()) << b.status();
  std::unique_ptr<Broker> broker = *std::move(b);
  std::vector<std::unique_ptr<TestWorker>> ws;
  for (int i = 0; i < workers; ++i)
    ws.push_back(std::make_unique<TestWorker>(
        ctx, TestWorkerOptions{.endpoint = broker->endpoint(), .id = absl::StrCat("w", i), .device = dc,
                               .capacity = 2, .heartbeat = std::chrono::milliseconds(1000), .delay_s = device_s}));
  TG_CHECK(broker->WaitForWorkers(dc.Digest(), workers, std::chrono::seconds(30)));
  auto task = std::make_shared<const KernelTask>(*KernelTask::FromAst(AddKernel(16)));
  // Warm-up: every worker gets the task once.
  {
    std::vector<std::future<absl::StatusOr<JobResult>>> fs;
    for (int i = 0; i < 2 * workers; ++i)
      fs.push_back(broker->Submit(FarmJob{.device_class = dc.Digest(), .task = task, .candidates = {{}}}));
    for (auto& f : fs) TG_CHECK(f.get().ok());
  }
  const double cpu0 = broker->Status().broker_cpu_s;
  auto job = [&](int j) {
    return FarmJob{.device_class = dc.Digest(), .task = task, .candidates = {{Opt{OptOps::UPCAST, 0, j % 64 + 1}}}};
  };
  // The closed loop's state outlives the broker thread that runs its callbacks (Shutdown below).
  std::atomic<int> next{0}, answered{0};
  std::promise<void> all_done;
  std::function<void(absl::StatusOr<JobResult>)> on_done = [&](absl::StatusOr<JobResult> r) {
    TG_CHECK(r.ok()) << r.status();
    if (const int j = next.fetch_add(1); j < jobs) broker->Submit(job(j), on_done);  // runs after the lock is released
    if (answered.fetch_add(1) + 1 == jobs) all_done.set_value();
  };
  const Clock::time_point t0 = Clock::now();
  if (outstanding > 0) {
    for (int i = 0; i < outstanding && next.load() < jobs; ++i) broker->Submit(job(next.fetch_add(1)), on_done);
    all_done.get_future().wait();
  } else {
    std::vector<std::future<absl::StatusOr<JobResult>>> fs;
    fs.reserve(static_cast<size_t>(jobs));
    for (int j = 0; j < jobs; ++j) fs.push_back(broker->Submit(job(j)));
    for (auto& f : fs) TG_CHECK(f.get().ok());
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  const double cpu = broker->Status().broker_cpu_s - cpu0;
  ws.clear();
  broker->Shutdown();
  std::filesystem::remove_all(dir);
  return Run{.jobs_per_s = jobs / wall, .us_per_job = 1e6 * wall / jobs, .broker_cpu_us_per_job = 1e6 * cpu / jobs};
}

}  // namespace
}  // namespace tg::autotune::farm

int main(int argc, char** argv) {
  using tg::autotune::farm::Measure;
  const double device_ms = argc > 1 ? std::atof(argv[1]) : 10;
  const int per_worker = argc > 2 ? std::atoi(argv[2]) : 40;
  std::printf("broker overhead (device 0 ms, round trip through broker + worker, 1 job per message):\n");
  for (int n : {1, 8}) {
    auto r = Measure(n, 0, 4000);
    std::printf("  %2d workers: %8.0f jobs/s  %7.1f us/job wall  %6.1f us/job broker thread CPU\n", n, r.jobs_per_s,
                r.us_per_job, r.broker_cpu_us_per_job);
  }
  std::printf("scaling (device %.1f ms per job, %d jobs per worker):\n", device_ms, per_worker);
  std::printf("  workers   jobs/s   ideal   efficiency   broker CPU us/job\n");
  double one = 0;
  for (int n : {1, 2, 4, 8, 16, 32, 64}) {
    auto r = Measure(n, device_ms * 1e-3, per_worker * n);
    if (n == 1) one = r.jobs_per_s;
    std::printf("  %7d %8.0f %7.0f %10.1f%% %12.1f\n", n, r.jobs_per_s, n * 1000.0 / device_ms,
                100.0 * r.jobs_per_s / (n * one), r.broker_cpu_us_per_job);
  }
  std::printf("half the slots idle (one job per worker outstanding, device %.1f ms):\n", device_ms);
  std::printf("  workers   jobs/s   broker CPU us/job\n");
  for (int n : {8, 64}) {
    auto r = Measure(n, device_ms * 1e-3, per_worker * n, /*outstanding=*/n);
    std::printf("  %7d %8.0f %12.1f\n", n, r.jobs_per_s, r.broker_cpu_us_per_job);
  }
  return 0;
}
