// File: tinygrad/base/clock_test.cc
#include "tinygrad/base/clock.h"

#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

using std::chrono::milliseconds;

TEST(FakeClockTest, MovesOnlyWhenTold) {
  FakeClock clock;
  const Clock::TimePoint t0 = clock.Now();
  EXPECT_EQ(clock.Now(), t0);
  clock.Advance(milliseconds(3));
  EXPECT_EQ(clock.Now() - t0, milliseconds(3));
  clock.AdvanceSeconds(0.5);
  EXPECT_DOUBLE_EQ(clock.SecondsSince(t0), 0.503);
  clock.SleepFor(milliseconds(7));  // no real wait
  EXPECT_DOUBLE_EQ(clock.SecondsSince(t0), 0.510);
}

TEST(FakeClockTest, AdvancesFromSeveralThreadsAddUp) {
  FakeClock clock;
  const Clock::TimePoint t0 = clock.Now();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) clock.Advance(milliseconds(1));
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(clock.Now() - t0, milliseconds(4000));
}

// The real clock never goes back (what holds on any machine).
TEST(RealClockTest, IsMonotonic) {
  Clock& clock = Clock::Real();
  Clock::TimePoint last = clock.Now();
  for (int i = 0; i < 1000; ++i) {
    const Clock::TimePoint now = clock.Now();
    EXPECT_GE(now, last);
    last = now;
  }
  EXPECT_GE(SecondsSince(last), 0);
}

}  // namespace
}  // namespace tg
