// File: autotune/farm/backup_threshold.cc
// The recent durations of a device class's jobs, and when a job in flight gets a backup
// (formula in backup_threshold.h).
#include "autotune/farm/backup_threshold.h"

#include <algorithm>
#include <cmath>

namespace tg::autotune::farm {

void JobDurations::Add(Clock::Duration took, size_t candidates) {
  const Clock::Duration per = std::max(took, Clock::Duration::zero()) / static_cast<Clock::Duration::rep>(std::max<size_t>(candidates, 1));
  if (per_candidate_.size() < kDurationHistory) {
    per_candidate_.push_back(per);
  } else {
    per_candidate_[next_] = per;
    next_ = (next_ + 1) % kDurationHistory;
  }
  p90_.reset();
}

std::optional<Clock::Duration> JobDurations::P90() const {
  if (per_candidate_.size() < kMinDurationSamples) return std::nullopt;
  if (!p90_.has_value()) {
    std::vector<Clock::Duration> v = per_candidate_;
    // nearest rank: the ceil(0.9 n)-th smallest
    const size_t rank = (9 * v.size() + 9) / 10;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
    p90_ = v[rank - 1];
  }
  return p90_;
}

Clock::Duration BackupThreshold(const JobDurations& recent, const MeasureOptions& options, size_t candidates,
                                double multiple, Clock::Duration floor) {
  const double k = static_cast<double>(std::max<size_t>(candidates, 1));
  double s;
  if (std::optional<Clock::Duration> p90 = recent.P90()) {
    s = multiple * std::chrono::duration<double>(*p90).count() * k;
  } else {
    s = k * (std::max(options.runs, 1) + 2) * std::max(options.timeout_s, 0.0);
  }
  const double cap_s = std::chrono::duration<double>(kMaxJobBudget).count();
  const Clock::Duration t = s <= cap_s ? FromSeconds(s) : Clock::Duration(kMaxJobBudget);  // NaN, inf: the cap
  return std::max(t, floor);
}

}  // namespace tg::autotune::farm
