// File: autotune/farm/backup_threshold.h
// When the coordinator gives a job in flight a backup copy on another worker (broker.h,
// "Backups"): after what the workers of its device class have actually been taking, not after
// the honest worst case its deadline allows (job_deadline.h), so a job held by a worker that
// never answers is finished elsewhere in seconds instead of minutes.
//
// Not a port: tinygrad measures in-process. The idea is MapReduce's backup tasks (Dean and
// Ghemawat, 2004): near the end of a phase, idle machines run copies of the tasks still in
// progress, and the first copy to finish wins.
//
// A job of k candidates with options o, in flight for longer than
//   max(floor, multiple x p90 x k)
// gets a backup, p90 being the 90th percentile (nearest rank) of the per-candidate durations
// (sent to answered, on the broker's clock) of the last kDurationHistory jobs of its class.
// The 90th percentile, not the median: a class runs kernels of many sizes, and a job three
// times slower than nine in ten recent ones is already rare; a few silent or slow jobs cannot
// move it (only answered jobs count, and only the copy that answered first). The floor (a few
// heartbeats in the broker) keeps jobs of a fast class from being copied for a delay of
// milliseconds. Below kMinDurationSamples answers the class has no history worth the name, and
// the threshold is a conservative one from the job's own limits:
//   max(floor, k x (runs + 2) x timeout_s)
// i.e. every candidate's compile and each of its runs and its second opinion going right up to
// the limit (about a sixth of what JobTimeBudget allows a job of one candidate, which also
// covers retries, the worker's floors and a crash). A non-finite timeout gives kMaxJobBudget:
// no backup before there is history.
//
// Example:
//   JobDurations recent;
//   recent.Add(std::chrono::seconds(4), /*candidates=*/2);  // ... per answered job
//   Clock::Duration t = BackupThreshold(recent, job.options, job.candidates.size(), 3, 3 * heartbeat);
#ifndef AUTOTUNE_FARM_BACKUP_THRESHOLD_H_
#define AUTOTUNE_FARM_BACKUP_THRESHOLD_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "autotune/farm/job_deadline.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/base/clock.h"

namespace tg::autotune::farm {

// Answered jobs remembered per device class, and how many it takes before they are used.
inline constexpr size_t kDurationHistory = 64;
inline constexpr size_t kMinDurationSamples = 8;

// The per-candidate durations of a device class's latest kDurationHistory answered jobs.
class JobDurations {
 public:
  // A job of `candidates` (at least 1 counted) answered `took` after it was sent.
  void Add(Clock::Duration took, size_t candidates);
  size_t size() const { return per_candidate_.size(); }
  // The 90th percentile by nearest rank; nullopt below kMinDurationSamples.
  std::optional<Clock::Duration> P90() const;

 private:
  std::vector<Clock::Duration> per_candidate_;  // a ring once full
  size_t next_ = 0;                             // the oldest, once full
  mutable std::optional<Clock::Duration> p90_;  // cached until the next Add
};

// The formula above, at most kMaxJobBudget.
Clock::Duration BackupThreshold(const JobDurations& recent, const MeasureOptions& options, size_t candidates,
                                double multiple, Clock::Duration floor);

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_BACKUP_THRESHOLD_H_
