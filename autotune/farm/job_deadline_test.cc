// File: autotune/farm/job_deadline_test.cc
// The honest worker's bound on a job: the formula's values, worked by hand from
// job_deadline.h, and how it grows with a job's limits.
#include "autotune/farm/job_deadline.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace tg::autotune::farm {
namespace {

double Seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

double Budget(const MeasureOptions& o, size_t k, int capacity, const WorkerTimeLimits& l = {}) {
  return Seconds(JobTimeBudget(o, k, capacity, l));
}

TEST(JobTimeBudgetTest, TheFormulaByHand) {
  // t = 10, r = 3: prepare(n) = 60 + 10n, run = 20, R = 9 (1 ms x 3^8 = 6.6 s < 10 s),
  // candidate = 4*20 + 9*1 + 3*10 = 119.
  const MeasureOptions o;
  // one candidate: 30 + 2*70 + 20 + 119, nothing to isolate
  EXPECT_NEAR(Budget(o, 1, 2), 309, 1e-9);
  // two on a worker of two children: attempt(2) = 30 + 2*80 + 20 + 238 = 448, isolation =
  // 1*(30 + 2*70) + 2*(20 + 119) = 448
  EXPECT_NEAR(Budget(o, 2, 2), 896, 1e-9);
  // the same two on one child: two isolation rounds of child start + prepare
  EXPECT_NEAR(Budget(o, 2, 1), 896 + 170, 1e-9);
  // scripted-test sizes: t = 0.1, r = 1, floors 0.2 / 0.05 / 0.1: run = 0.2, R = 5,
  // candidate = 2*0.2 + 5*0.05 + 0.3 = 0.95; 0.1 + 2*0.3 + 0.2 + 0.95
  MeasureOptions small;
  small.timeout_s = 0.1;
  small.runs = 1;
  const WorkerTimeLimits fast{.prepare_floor = std::chrono::duration<double>(0.2),
                              .run_floor = std::chrono::duration<double>(0.05),
                              .child_start = std::chrono::duration<double>(0.1)};
  EXPECT_NEAR(Budget(small, 1, 1, fast), 1.85, 1e-9);
}

TEST(JobTimeBudgetTest, OneAttemptByHand) {
  // t = 10, r = 3 (above): 2*70 + 20 + 119 for one candidate, 2*80 + 20 + 238 for two
  const MeasureOptions o;
  EXPECT_NEAR(Seconds(JobAttemptBudget(o, 1, {})), 279, 1e-9);
  EXPECT_NEAR(Seconds(JobAttemptBudget(o, 2, {})), 418, 1e-9);
  EXPECT_NEAR(Seconds(JobAttemptBudget(o, 0, {})), 279, 1e-9);  // no candidates: as one
  MeasureOptions forever = o;
  forever.timeout_s = std::numeric_limits<double>::infinity();
  EXPECT_EQ(JobAttemptBudget(forever, 1, {}), kMaxJobBudget);
}

TEST(JobTimeBudgetTest, GrowsWithEveryLimitOfTheJob) {
  MeasureOptions o;
  const double base = Budget(o, 4, 2);
  EXPECT_GT(Budget(o, 5, 2), base);  // candidates
  MeasureOptions more_runs = o;
  more_runs.runs = 10;
  EXPECT_GT(Budget(more_runs, 4, 2), base);
  MeasureOptions longer = o;
  longer.timeout_s = 20;
  EXPECT_GT(Budget(longer, 4, 2), base);
  // more children isolate in fewer rounds: never longer
  EXPECT_LE(Budget(o, 4, 8), base);
  // the worker's own floors
  EXPECT_GT(Budget(o, 4, 2, {.prepare_floor = std::chrono::duration<double>(120)}), base);
  // a job with no runs still runs once; a negative timeout is no time
  MeasureOptions none = o;
  none.runs = 0;
  none.timeout_s = -1;
  EXPECT_NEAR(Budget(none, 1, 1), 30 + 2 * 60 + 1 + 2 * 1, 1e-9);
}

TEST(JobTimeBudgetTest, NoLimitIsNoDeadline) {
  MeasureOptions o;
  o.timeout_s = std::numeric_limits<double>::infinity();
  EXPECT_EQ(JobTimeBudget(o, 2, 2, {}), Clock::Duration(kMaxJobBudget));
  o.timeout_s = std::nan("");
  EXPECT_EQ(JobTimeBudget(o, 2, 2, {}), Clock::Duration(kMaxJobBudget));
  o.timeout_s = 10;
  EXPECT_EQ(JobTimeBudget(o, size_t{1} << 40, 2, {}), Clock::Duration(kMaxJobBudget));
  o.runs = std::numeric_limits<int>::max();
  EXPECT_EQ(JobTimeBudget(o, 1, 2, {}), Clock::Duration(kMaxJobBudget));
}

}  // namespace
}  // namespace tg::autotune::farm
