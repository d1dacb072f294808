// File: autotune/farm/backup_threshold_test.cc
// When a job in flight gets a backup: the recent durations' 90th percentile (nearest rank, a
// ring of the latest jobs), and the threshold from them or, before there are enough, from the
// job's own limits; values worked by hand from backup_threshold.h.
#include "autotune/farm/backup_threshold.h"

#include <chrono>
#include <limits>

#include "gtest/gtest.h"

namespace tg::autotune::farm {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

double Seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

TEST(JobDurationsTest, NinetiethPercentileByNearestRankPerCandidate) {
  JobDurations d;
  for (int i = 1; i < static_cast<int>(kMinDurationSamples); ++i) d.Add(seconds(i), 1);
  EXPECT_FALSE(d.P90().has_value()) << "a percentile of " << d.size() << " jobs";
  d.Add(seconds(16), 2);  // 8 s per candidate
  ASSERT_TRUE(d.P90().has_value());
  EXPECT_EQ(*d.P90(), seconds(8));  // 1..8 s: ceil(0.9 x 8) = 8th
  d.Add(seconds(100), 1);
  d.Add(seconds(9), 1);
  EXPECT_EQ(*d.P90(), seconds(9));  // 1..9, 100 s: the 9th of 10; one outlier moves it by one rank
  d.Add(milliseconds(-5), 0);       // clock steps back, no candidates: counted as 0 s for one
  EXPECT_EQ(d.size(), 11u);
  EXPECT_EQ(*d.P90(), seconds(9));  // ceil(9.9) = 10th of 0, 1..9, 100
}

TEST(JobDurationsTest, KeepsOnlyTheLatestJobs) {
  JobDurations d;
  for (size_t i = 0; i < kDurationHistory; ++i) d.Add(seconds(60), 1);
  EXPECT_EQ(*d.P90(), seconds(60));
  // A class that got faster: once the slow ones have left the ring, they no longer count.
  for (size_t i = 0; i < kDurationHistory - 1; ++i) d.Add(seconds(1), 1);
  EXPECT_EQ(*d.P90(), seconds(1));  // one slow job left of 64: below the 58th rank
  d.Add(seconds(1), 1);
  EXPECT_EQ(d.size(), kDurationHistory);
  EXPECT_EQ(*d.P90(), seconds(1));
}

TEST(BackupThresholdTest, AMultipleOfWhatTheClassTakesScaledByCandidates) {
  JobDurations d;
  for (size_t i = 0; i < kMinDurationSamples; ++i) d.Add(seconds(4), 2);  // 2 s per candidate
  const MeasureOptions o;
  EXPECT_NEAR(Seconds(BackupThreshold(d, o, 1, 3, seconds(3))), 6, 1e-9);
  EXPECT_NEAR(Seconds(BackupThreshold(d, o, 5, 3, seconds(3))), 30, 1e-9);
  EXPECT_NEAR(Seconds(BackupThreshold(d, o, 0, 3, seconds(3))), 6, 1e-9);  // counted as one
  // the floor
  EXPECT_NEAR(Seconds(BackupThreshold(d, o, 1, 3, seconds(7))), 7, 1e-9);
  JobDurations fast;
  for (size_t i = 0; i < kMinDurationSamples; ++i) fast.Add(Clock::Duration::zero(), 1);
  EXPECT_NEAR(Seconds(BackupThreshold(fast, o, 20, 3, seconds(3))), 3, 1e-9);
}

TEST(BackupThresholdTest, BeforeAnyHistoryFromTheJobsLimits) {
  const JobDurations none;
  MeasureOptions o;  // timeout 10 s, 3 runs: (3 + 2) x 10 s per candidate
  EXPECT_NEAR(Seconds(BackupThreshold(none, o, 1, 3, seconds(3))), 50, 1e-9);
  EXPECT_NEAR(Seconds(BackupThreshold(none, o, 4, 3, seconds(3))), 200, 1e-9);
  // the scripted tests' jobs: timeout 0.1 s, one run: 0.3 s per candidate, at the floor of
  // 3 heartbeats of 100 ms
  MeasureOptions small;
  small.timeout_s = 0.1;
  small.runs = 1;
  EXPECT_NEAR(Seconds(BackupThreshold(none, small, 1, 3, milliseconds(300))), 0.3, 1e-9);
  EXPECT_NEAR(Seconds(BackupThreshold(none, small, 2, 3, milliseconds(300))), 0.6, 1e-9);
  small.runs = 0;  // at least one run
  EXPECT_NEAR(Seconds(BackupThreshold(none, small, 1, 3, Clock::Duration::zero())), 0.3, 1e-9);
  // No limit on the job: no backup before there is history.
  MeasureOptions unlimited;
  unlimited.timeout_s = std::numeric_limits<double>::infinity();
  EXPECT_EQ(BackupThreshold(none, unlimited, 1, 3, seconds(3)), kMaxJobBudget);
  unlimited.timeout_s = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(BackupThreshold(none, unlimited, 1, 3, seconds(3)), kMaxJobBudget);
  unlimited.timeout_s = 1e300;
  EXPECT_EQ(BackupThreshold(none, unlimited, 1, 3, seconds(3)), kMaxJobBudget);
  MeasureOptions negative;
  negative.timeout_s = -1;
  EXPECT_EQ(BackupThreshold(none, negative, 1, 3, seconds(3)), seconds(3));
}

}  // namespace
}  // namespace tg::autotune::farm
