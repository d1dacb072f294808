// File: autotune/farm/job_deadline.cc
// The honest worker's bound on one job (formula in job_deadline.h).
#include "autotune/farm/job_deadline.h"

#include <algorithm>
#include <cmath>

namespace tg::autotune::farm {

namespace {

// The formula's pieces, in seconds, for one job's options and a worker's limits.
struct Terms {
  double ts, r, prepare_floor, run_floor, child_start, run, candidate;
  double Prepare(double n) const { return prepare_floor + ts * n; }
  // one child's try, without its start: prepare, device phase, finish
  double Attempt(double n) const { return 2 * Prepare(n) + run + n * candidate; }
};

Terms TermsOf(const MeasureOptions& options, const WorkerTimeLimits& limits) {
  Terms t{.ts = std::max(options.timeout_s, 0.0),
          .r = static_cast<double>(std::max(options.runs, 1)),
          .prepare_floor = std::max(limits.prepare_floor.count(), 0.0),
          .run_floor = std::max(limits.run_floor.count(), 0.0),
          .child_start = std::max(limits.child_start.count(), 0.0)};
  t.run = std::max(2 * t.ts, t.run_floor);
  // the measurer's retries of a stopped first run: the limit triples from at least 1 ms to t
  int retries = 0;
  for (double limit = kMinFirstRunStopS; limit < t.ts; limit *= 3) ++retries;
  t.candidate = (t.r + 1) * t.run + retries * t.run_floor + 3 * t.ts;
  return t;
}

bool Absurd(double timeout_s) { return !(timeout_s <= std::chrono::duration<double>(kMaxJobBudget).count()); }

}  // namespace

Clock::Duration JobTimeBudget(const MeasureOptions& options, size_t candidates, int capacity,
                              const WorkerTimeLimits& limits) {
  const double cap_s = std::chrono::duration<double>(kMaxJobBudget).count();
  if (Absurd(options.timeout_s)) return kMaxJobBudget;  // inf, NaN or absurd: the worker has no limit either
  const Terms t = TermsOf(options, limits);
  const double k = static_cast<double>(std::max<size_t>(candidates, 1));
  const double c = static_cast<double>(std::max(capacity, 1));
  double budget = t.child_start + t.Attempt(k);
  // isolation: every candidate again in a child of its own
  if (k > 1) budget += std::ceil(k / c) * (t.child_start + 2 * t.Prepare(1)) + k * (t.run + t.candidate);
  if (!(budget <= cap_s)) return kMaxJobBudget;
  return FromSeconds(budget);
}

Clock::Duration JobAttemptBudget(const MeasureOptions& options, size_t candidates, const WorkerTimeLimits& limits) {
  if (Absurd(options.timeout_s)) return kMaxJobBudget;
  const double attempt = TermsOf(options, limits).Attempt(static_cast<double>(std::max<size_t>(candidates, 1)));
  if (!(attempt <= std::chrono::duration<double>(kMaxJobBudget).count())) return kMaxJobBudget;
  return FromSeconds(attempt);
}

}  // namespace tg::autotune::farm
