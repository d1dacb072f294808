// File: autotune/farm/job_deadline.cc
// The honest worker's bound on one job (formula in job_deadline.h).
#include "autotune/farm/job_deadline.h"

#include <algorithm>
#include <cmath>

namespace tg::autotune::farm {

Clock::Duration JobTimeBudget(const MeasureOptions& options, size_t candidates, int capacity,
                              const WorkerTimeLimits& limits) {
  const double cap_s = std::chrono::duration<double>(kMaxJobBudget).count();
  const double t = options.timeout_s;
  if (!(t <= cap_s)) return kMaxJobBudget;  // inf, NaN or absurd: the worker has no limit either
  const double ts = std::max(t, 0.0);
  const double k = static_cast<double>(std::max<size_t>(candidates, 1));
  const double r = static_cast<double>(std::max(options.runs, 1));
  const double c = static_cast<double>(std::max(capacity, 1));
  const double prepare_floor = std::max(limits.prepare_floor.count(), 0.0);
  const double run_floor = std::max(limits.run_floor.count(), 0.0);
  const double child_start = std::max(limits.child_start.count(), 0.0);

  auto prepare = [&](double n) { return prepare_floor + ts * n; };
  const double run = std::max(2 * ts, run_floor);
  // the measurer's retries of a stopped first run: the limit triples from at least 1 ms to t
  int retries = 0;
  for (double limit = kMinFirstRunStopS; limit < ts; limit *= 3) ++retries;
  const double candidate = (r + 1) * run + retries * run_floor + 3 * ts;
  auto attempt = [&](double n) { return child_start + 2 * prepare(n) + run + n * candidate; };
  double budget = attempt(k);
  // isolation: every candidate again in a child of its own
  if (k > 1) budget += std::ceil(k / c) * (child_start + 2 * prepare(1)) + k * (run + candidate);
  if (!(budget <= cap_s)) return kMaxJobBudget;
  return FromSeconds(budget);
}

}  // namespace tg::autotune::farm
