// File: autotune/measure/thread_cpu_time.h
// The calling thread's CPU time, for reports of what a stage cost: unlike wall time it leaves out
// the time the thread waited for a CPU (more threads than free cores, another tenant) or slept
// on a lock, so that a sum over threads says what the work itself took. Never for decisions
// (those take a Clock: tinygrad/base/clock.h).
//
// Example:
//   const double c0 = ThreadCpuSeconds();
//   Lower(candidate);
//   cost.lower_cpu_s = ThreadCpuSeconds() - c0;
#ifndef AUTOTUNE_MEASURE_THREAD_CPU_TIME_H_
#define AUTOTUNE_MEASURE_THREAD_CPU_TIME_H_

#include <time.h>

namespace tg::autotune {

// Seconds of CPU the calling thread has used since it started (0 where the system cannot say).
inline double ThreadCpuSeconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_THREAD_CPU_TIME_H_
