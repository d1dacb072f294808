#include "tinygrad/runtime/cpu/thread_pool.h"

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/wait_until.h"

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
  // Core 0 waits for core 1 while core 1 waits for core 0: both see the other only if they
  // run concurrently. Each gives up at a deadline, so a pool that runs them one after the
  // other fails here instead of hanging.
  CoreThreadPool pool;
  std::atomic<bool> started[2] = {false, false};
  std::atomic<bool> saw_the_other[2] = {false, false};
  pool.ParallelFor(2, [&](int id) {
    started[id] = true;
    saw_the_other[id] = WaitUntil([&] { return started[1 - id].load(); });
  });
  EXPECT_TRUE(saw_the_other[0]) << "core 0 never saw core 1 running";
  EXPECT_TRUE(saw_the_other[1]) << "core 1 never saw core 0 running";
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
