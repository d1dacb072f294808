// File: tinygrad/runtime/cpu/stoppable_launch.h
// A kernel launch that a timer can cut short. The autotuner needs this: on a big matmul a bad
// candidate runs for seconds, and the search only needs to know that it is slower than 3x the
// best (tinygrad lets such runs finish; stopping them is most of our search-time lead on
// kernels whose search is spent running them). It also bounds a kernel that never ends.
//
// How: the launching thread arms a POSIX timer that sends it a real-time signal at the
// deadline. The handler marks the launch stopped, forwards the signal (with the launch's
// generation, so a late one is ignored) to every thread inside the kernel, and each thread
// that is inside jumps back out with siglongjmp. Generated kernels take no locks, allocate
// nothing and call nothing but arithmetic builtins, so leaving them mid-loop is safe; their
// outputs are garbage afterwards, which a stopped candidate never uses.
//
// Example (CpuProgram::RunUntil):
//   StoppableLaunch launch(threads, /*stop_after_s=*/0.25);
//   CoreThreadPool::Get().ParallelFor(threads, [&](int id) { launch.Call(fn, bufs, vars, id); });
//   launch.Finish();
//   if (launch.stopped()) ...
#ifndef TINYGRAD_RUNTIME_CPU_STOPPABLE_LAUNCH_H_
#define TINYGRAD_RUNTIME_CPU_STOPPABLE_LAUNCH_H_

#include <sys/types.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace tg {

class StoppableLaunch {
 public:
  using EntryFn = void (*)(void** bufs, const int32_t* vars, int32_t core_id);

  // A launch of `threads` calls (core ids 0..threads-1) created on the thread that makes call 0.
  // stop_after_s <= 0 or not finite: never stopped, no timer and no signals (costs nothing).
  StoppableLaunch(int threads, double stop_after_s);
  ~StoppableLaunch();  // Finish() if not yet done
  StoppableLaunch(const StoppableLaunch&) = delete;
  StoppableLaunch& operator=(const StoppableLaunch&) = delete;

  // fn(bufs, vars, core_id) on the calling thread; returns when it returned or was stopped
  // (then it never starts if the launch was already stopped).
  void Call(EntryFn fn, void** bufs, const int32_t* vars, int32_t core_id);
  // After every Call has returned: deletes the timer. A signal already on its way is ignored.
  void Finish();

  // Whether some call was cut short or never started. A deadline that passes after every call
  // has returned (the kernel was done, Finish not yet called) stops nothing: the run is whole.
  bool stopped() const { return stopped_.load(); }
  // Whether a timer is set (false when no stop was asked for, or the timer could not be made).
  bool armed() const { return armed_; }

 private:
  friend struct StopSignal;

  const uint64_t generation_;  // tells this launch's signals from stale ones
  std::atomic<bool> deadline_passed_{false};  // the timer fired: calls not yet inside never start
  std::atomic<bool> stopped_{false};          // a call jumped out of the kernel or never started
  std::unique_ptr<std::atomic<pid_t>[]> tids_;  // per core id: the thread inside the kernel, or 0
  const int threads_;
  timer_t timer_{};
  bool armed_ = false;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_STOPPABLE_LAUNCH_H_
