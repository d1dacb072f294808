// File: tinygrad/base/asleep_meter.h (testonly)
// For benchmarks of work that several threads do at once: how long the calling thread was
// asleep (blocked: on a contended lock, mostly) rather than running or waiting for a CPU. On a
// busy machine real time says little about threads slowing each other down, since it counts
// the time spent waiting for a CPU too; the time asleep leaves that out. Linux only: it reads
// /proc/thread-self/schedstat (time on a CPU, time runnable); elsewhere it reads 0.
//
// Example:
//   const AsleepMeter meter;
//   for (auto _ : state) Compile(src);
//   state.counters["asleep_ms"] = meter.AsleepSeconds() * 1e3;
#ifndef TINYGRAD_BASE_ASLEEP_METER_H_
#define TINYGRAD_BASE_ASLEEP_METER_H_

#include <chrono>
#include <fstream>

namespace tg {

class AsleepMeter {
 public:
  AsleepMeter() : start_(Read()) {}

  // Seconds the calling thread (the one that made the meter) spent asleep since it was made.
  double AsleepSeconds() const {
    const Sample now = Read();
    if (!start_.ok || !now.ok) return 0;
    const double wall = std::chrono::duration<double>(now.at - start_.at).count();
    return wall - (now.on_cpu_s - start_.on_cpu_s) - (now.runnable_s - start_.runnable_s);
  }

 private:
  struct Sample {
    std::chrono::steady_clock::time_point at;
    double on_cpu_s = 0, runnable_s = 0;
    bool ok = false;
  };
  static Sample Read() {
    Sample s{.at = std::chrono::steady_clock::now()};
    std::ifstream in("/proc/thread-self/schedstat");
    double on_cpu_ns = 0, runnable_ns = 0;
    s.ok = static_cast<bool>(in >> on_cpu_ns >> runnable_ns);
    s.on_cpu_s = on_cpu_ns * 1e-9;
    s.runnable_s = runnable_ns * 1e-9;
    return s;
  }

  const Sample start_;
};

}  // namespace tg

#endif  // TINYGRAD_BASE_ASLEEP_METER_H_
