// File: autotune/measure/parallel_for.h
// fn(0..n-1) on up to `threads` threads, each index exactly once: the measurer's compile pool
// and the result check's chunks. Without `setup` the calling thread is one of them; with it,
// only helper threads that ran `setup` first do the work (a compile thread lowers its own
// priority that way).
//
// Example:
//   ParallelFor(candidates.size(), 8, [&](size_t i) { Compile(candidates[i]); });
#ifndef AUTOTUNE_MEASURE_PARALLEL_FOR_H_
#define AUTOTUNE_MEASURE_PARALLEL_FOR_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace tg::autotune {

inline void ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn,
                        const std::function<void()>& setup = nullptr) {
  if (n == 0) return;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) fn(i);
  };
  const size_t width = std::min<size_t>(n, static_cast<size_t>(std::max(1, threads)));
  std::vector<std::thread> pool;
  for (size_t t = setup ? 0 : 1; t < width; ++t)
    pool.emplace_back([&] {
      if (setup) setup();
      work();
    });
  if (!setup) work();
  for (std::thread& t : pool) t.join();
}

// The first error the calls of a ParallelFor note (a failed lock), kept for after the loop.
class FirstError {
 public:
  void Note(absl::Status s) {
    std::lock_guard<std::mutex> g(mu_);
    if (status_.ok()) status_ = std::move(s);
  }
  // The error noted first (OK if none), leaving none noted: a FirstError may serve several loops.
  absl::Status Take() { return std::exchange(status_, absl::OkStatus()); }

 private:
  std::mutex mu_;
  absl::Status status_;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_PARALLEL_FOR_H_
