// File: workers/thread_priority_test.cc
// Lowering a thread's priority changes that thread only: SCHED_BATCH and the nice increment
// there, the calling thread (and so a child's timing thread) untouched.
#include "workers/thread_priority.h"

#include <sched.h>

#include <thread>

#include "gtest/gtest.h"

namespace tg::workers {
namespace {

TEST(ThreadPriorityTest, LowersTheCallingThreadOnly) {
  absl::StatusOr<ThreadPriority> before = CurrentThreadPriority();
  ASSERT_TRUE(before.ok()) << before.status();
  absl::StatusOr<ThreadPriority> lowered, inherited;
  absl::Status status;
  std::thread t([&] {
    status = LowerThisThreadPriority(7);
    lowered = CurrentThreadPriority();
    // A thread started by a lowered one (a compiler's helper) inherits the lower priority.
    std::thread([&] { inherited = CurrentThreadPriority(); }).join();
  });
  t.join();
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  EXPECT_EQ(lowered->policy, SCHED_BATCH);
  EXPECT_EQ(lowered->nice, std::min(before->nice + 7, 19));
  ASSERT_TRUE(inherited.ok());
  EXPECT_EQ(inherited->policy, SCHED_BATCH);
  EXPECT_EQ(inherited->nice, lowered->nice);
  absl::StatusOr<ThreadPriority> after = CurrentThreadPriority();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->policy, before->policy);
  EXPECT_EQ(after->nice, before->nice);
}

TEST(ThreadPriorityTest, NeverAboveNineteenAndOnlyLowers) {
  absl::StatusOr<ThreadPriority> p;
  std::thread([&] {
    ASSERT_TRUE(LowerThisThreadPriority(15).ok());
    ASSERT_TRUE(LowerThisThreadPriority(15).ok());
    p = CurrentThreadPriority();
  }).join();
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->nice, 19);
  EXPECT_FALSE(LowerThisThreadPriority(-5).ok());
  // 0: SCHED_BATCH, the nice value kept.
  absl::StatusOr<ThreadPriority> before = CurrentThreadPriority(), batch;
  ASSERT_TRUE(before.ok());
  std::thread([&] {
    ASSERT_TRUE(LowerThisThreadPriority(0).ok());
    batch = CurrentThreadPriority();
  }).join();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(batch->policy, SCHED_BATCH);
  EXPECT_EQ(batch->nice, before->nice);
}

}  // namespace
}  // namespace tg::workers
