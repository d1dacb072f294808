// File: autotune/farm/job_deadline.h
// How long an honest `tg worker` may take over one farm job: the bound the coordinator's job
// deadline (broker.h) is built from. A worker past it is not slow but broken or hostile.
//
// Not a port: tinygrad measures in-process. The bound follows what a worker really does with
// a job (workers/worker.cc, workers/child_pool.cc, autotune/measure/local_measurer.cc):
// - the job runs in one child process: lowering and compiling all its candidates, then one
//   hold of the worker's single device (granted FIFO), then encoding the answer. The child
//   pool kills a child that prepares longer than prepare_floor + t*k before its device
//   request, or again after its release; and a device hold that goes longer than
//   max(2t, run_floor) from the grant, or from one run's start to the next (a run that says
//   its limit L is cut at min(that, run_floor + 2L));
// - a candidate's device phase is: its first run (also the result check), up to
//   ceil(log3(t / 1ms)) first runs again with a 3x longer limit each (a stopped run too short
//   to rank: limits at most t, t/3, t/9, ...), one second opinion, and runs-1 more runs;
// - a child that dies or overruns gets its job re-run one candidate per child (ceil(k/C)
//   rounds on C children; their device phases still take turns), and the pool may have to
//   wait for a child to start (child_start) before each round.
// With t = options.timeout_s (the run deadline the coordinator sends), k candidates,
// r = max(runs, 1), C = the worker's capacity (its children), all in seconds:
//   prepare(n)  = prepare_floor + t*n
//   run         = max(2t, run_floor)
//   R           = ceil(log3(t / 1ms)), 0 when t <= 1ms
//   candidate   = (r + 1) * run + R * run_floor + 3t     (3t: the retried first runs' limits)
//   attempt(n)  = child_start + 2*prepare(n) + run + n*candidate   (run: grant -> first run)
//   budget      = attempt(k) + [k > 1] * (ceil(k/C) * (child_start + 2*prepare(1)) + k*(run + candidate))
// It assumes nothing else runs on the worker; the broker adds the budgets of the jobs a job may
// wait behind (broker.h). A non-finite or absurd bound is capped at kMaxJobBudget: such a job
// has, in effect, no deadline (neither does the worker's own limit on it).
//
// Example:
//   MeasureOptions o;  // timeout_s 10, runs 3
//   JobTimeBudget(o, /*candidates=*/2, /*capacity=*/2, WorkerTimeLimits{})  // 896 s
#ifndef AUTOTUNE_FARM_JOB_DEADLINE_H_
#define AUTOTUNE_FARM_JOB_DEADLINE_H_

#include <chrono>
#include <cstddef>

#include "autotune/measure/measurer.h"
#include "tinygrad/base/clock.h"

namespace tg::autotune::farm {

// The limits workers put on a job's child beyond the job's own options: what `tg worker`
// enforces by default (workers/worker.h WorkerOptions::prepare_timeout_floor and
// run_deadline_floor, workers/child_pool.h ChildPoolOptions::startup_timeout; a test in workers/
// keeps them equal). A farm whose workers allow more must say so here.
struct WorkerTimeLimits {
  std::chrono::duration<double> prepare_floor{60};
  std::chrono::duration<double> run_floor{1};
  std::chrono::duration<double> child_start{30};
};

// Above this a job has, in effect, no deadline (about 11.6 days).
inline constexpr std::chrono::seconds kMaxJobBudget{1'000'000};

// The formula above, on the clock's ticks, at most kMaxJobBudget.
Clock::Duration JobTimeBudget(const MeasureOptions& options, size_t candidates, int capacity,
                              const WorkerTimeLimits& limits);

// attempt(n) less child_start: the wall time one child may spend on a job of n candidates
// outside waiting for the device (the worker child's CPU time budget per job is built on it,
// workers/worker_child.h). At most kMaxJobBudget.
Clock::Duration JobAttemptBudget(const MeasureOptions& options, size_t candidates, const WorkerTimeLimits& limits);

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_JOB_DEADLINE_H_
