// File: tinygrad/codegen/opt/heuristic.h
// Port of tinygrad/codegen/opt/heuristic.py: hand_coded_optimizations, the default optimizer.
//
// When BEAM is off and NOOPT is not set, every kernel gets this fixed recipe of opts: tensor
// cores when a matmul fits one, else matvec grouping, GROUPTOP for small-output reductions,
// upcasts of small masked axes and of broadcast axes, reduce unrolling, an upcast fallback,
// local groups on GPUs and THREAD on CPUs. Each step tries opts on the Scheduler; an opt that
// does not apply (a KernelOptError) is skipped where the reference skips it.
//
// Example:
//   Scheduler k(ast, ren);
//   k.ConvertLoopToGlobal();
//   ASSIGN_OR_RETURN(Scheduler opt, HandCodedOptimizations(k));
//   opt.applied_opts()    // e.g. UPCAST 1 4, UPCAST 0 4, UNROLL 0 4, THREAD 0 2
#ifndef TINYGRAD_CODEGEN_OPT_HEURISTIC_H_
#define TINYGRAD_CODEGEN_OPT_HEURISTIC_H_

#include "absl/status/statusor.h"
#include "tinygrad/codegen/opt/scheduler.h"

namespace tg {

// Returns an optimized copy of `k` (which is left as is). Settings come from k.options(): tc,
// tc_select, tc_opt, nolocals. Errors: a KernelOptError from an opt the
// reference does not guard (the reference raises it too), or anything else ApplyOpt reports.
absl::StatusOr<Scheduler> HandCodedOptimizations(const Scheduler& k);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_HEURISTIC_H_
