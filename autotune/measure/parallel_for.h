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
#include <thread>
#include <vector>

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

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_PARALLEL_FOR_H_
