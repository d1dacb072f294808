// File: tinygrad/runtime/cpu/thread_pool.h
// The CPU device's worker threads (tinygrad's CPUWorker helper threads): a launch with
// THREAD(n) runs the kernel n times at once, core_id 0 on the calling thread and 1..n-1 on
// threads that live between launches, so a launch costs a wake-up, not a thread start.
//
// Example:
//   CoreThreadPool::Get().ParallelFor(4, [&](int core_id) { kernel(bufs, vars, core_id); });
#ifndef TINYGRAD_RUNTIME_CPU_THREAD_POOL_H_
#define TINYGRAD_RUNTIME_CPU_THREAD_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tg {

class CoreThreadPool {
 public:
  // The process's pool (tinygrad has one worker per CPU device; we have one CPU device).
  static CoreThreadPool& Get();

  CoreThreadPool() = default;
  ~CoreThreadPool();
  CoreThreadPool(const CoreThreadPool&) = delete;
  CoreThreadPool& operator=(const CoreThreadPool&) = delete;

  // Calls fn(0), ..., fn(n-1) concurrently and returns when all have returned. Launches from
  // different threads take turns, like commands on tinygrad's device queue.
  void ParallelFor(int n, const std::function<void(int)>& fn);

  // Helper threads started so far (they are kept for later launches).
  int helpers();

 private:
  void Worker(int id);

  std::mutex launch_mu_;  // one launch at a time
  std::mutex mu_;         // guards everything below
  std::condition_variable work_cv_, done_cv_;
  std::vector<std::thread> threads_;  // threads_[i] runs core_id i + 1
  uint64_t generation_ = 0;           // bumped per launch
  int active_ = 0;                    // core ids 1..active_ take part in this launch
  int pending_ = 0;                   // of those, not finished yet
  const std::function<void(int)>* fn_ = nullptr;
  bool stop_ = false;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_THREAD_POOL_H_
