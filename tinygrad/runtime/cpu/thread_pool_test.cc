#include "tinygrad/runtime/cpu/thread_pool.h"

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(CoreThreadPoolTest, RunsEveryCoreIdOnceConcurrently) {
  CoreThreadPool pool;
  for (int n : {1, 2, 4, 3, 8, 1, 5}) {
    std::vector<std::atomic<int>> hits(n);
    std::mutex mu;
    std::set<std::thread::id> threads;
    pool.ParallelFor(n, [&](int id) {
      hits[id]++;
      std::lock_guard<std::mutex> l(mu);
      threads.insert(std::this_thread::get_id());
    });
    for (int i = 0; i < n; ++i) EXPECT_EQ(hits[i].load(), 1) << "n=" << n << " id=" << i;
    EXPECT_EQ(static_cast<int>(threads.size()), n) << "each core id on its own thread";
  }
}

TEST(CoreThreadPoolTest, KeepsItsThreadsBetweenLaunches) {
  CoreThreadPool pool;
  pool.ParallelFor(4, [](int) {});
  EXPECT_EQ(pool.helpers(), 3);
  for (int i = 0; i < 1000; ++i) pool.ParallelFor(i % 4 + 1, [](int) {});
  EXPECT_EQ(pool.helpers(), 3) << "no thread started per launch";
}

TEST(CoreThreadPoolTest, TasksReallyRunAtTheSameTime) {
  // Core 0 waits for core 1: this only finishes if both run concurrently.
  CoreThreadPool pool;
  std::atomic<bool> one_ran{false};
  pool.ParallelFor(2, [&](int id) {
    if (id == 1) one_ran = true;
    while (!one_ran) std::this_thread::yield();
  });
  EXPECT_TRUE(one_ran);
}

TEST(CoreThreadPoolTest, LaunchesFromSeveralThreadsTakeTurns) {
  CoreThreadPool pool;
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int i = 0; i < 200; ++i) pool.ParallelFor(3, [&](int) { total++; });
    });
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(total.load(), 4 * 200 * 3);
}

}  // namespace
}  // namespace tg
