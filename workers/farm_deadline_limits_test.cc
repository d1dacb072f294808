// File: workers/farm_deadline_limits_test.cc
// The coordinator's job deadlines (autotune/farm/job_deadline.h) are built on the limits a
// worker puts on a job's child beyond the job's own options. If a default here moves, the
// coordinator's bound must move with it, or it would take an honest slow worker for a hung one.
#include <chrono>

#include "autotune/farm/job_deadline.h"
#include "gtest/gtest.h"
#include "workers/child_pool.h"
#include "workers/worker.h"

namespace tg::workers {
namespace {

TEST(FarmDeadlineLimitsTest, TheCoordinatorAssumesTheWorkersDefaults) {
  const autotune::farm::WorkerTimeLimits assumed;
  const WorkerOptions worker;
  const ChildPoolOptions pool;
  EXPECT_EQ(assumed.prepare_floor, worker.prepare_timeout_floor);
  EXPECT_EQ(assumed.run_floor, worker.run_deadline_floor);
  EXPECT_EQ(assumed.child_start, pool.startup_timeout);
}

}  // namespace
}  // namespace tg::workers
