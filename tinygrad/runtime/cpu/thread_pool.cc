// File: tinygrad/runtime/cpu/thread_pool.cc
#include "tinygrad/runtime/cpu/thread_pool.h"

#include "tinygrad/base/check.h"

namespace tg {

CoreThreadPool& CoreThreadPool::Get() {
  static CoreThreadPool* const pool = new CoreThreadPool();  // threads live for the process
  return *pool;
}

CoreThreadPool::~CoreThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

int CoreThreadPool::helpers() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(threads_.size());
}

void CoreThreadPool::ParallelFor(int n, const std::function<void(int)>& fn) {
  TG_CHECK(n >= 1) << "ParallelFor of " << n;
  if (n == 1) {
    fn(0);
    return;
  }
  std::lock_guard<std::mutex> launch(launch_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    while (static_cast<int>(threads_.size()) < n - 1) {
      int id = static_cast<int>(threads_.size()) + 1;
      threads_.emplace_back([this, id] { Worker(id); });
    }
    fn_ = &fn;
    active_ = n - 1;
    pending_ = n - 1;
    ++generation_;
  }
  work_cv_.notify_all();
  fn(0);
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [this] { return pending_ == 0; });
  fn_ = nullptr;
}

void CoreThreadPool::Worker(int id) {
  std::unique_lock<std::mutex> lock(mu_);
  // Started inside a launch (under mu_, before its generation was published): take part in it.
  uint64_t seen = generation_ - 1;
  while (true) {
    work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (id > active_) continue;  // not part of this launch
    const std::function<void(int)>* fn = fn_;
    lock.unlock();
    (*fn)(id);
    lock.lock();
    if (--pending_ == 0) done_cv_.notify_all();
  }
}

}  // namespace tg
