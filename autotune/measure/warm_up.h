// File: autotune/measure/warm_up.h
// A measurer's first batch, on a kernel of its own: everything a first Measure does once per
// process (the in-process clang runs its driver, LLVM starts up, a GPU driver loads its
// modules, thread pools start) happens now. A worker's child does this before it enters its
// sandbox (workers/sandbox.h), while files can still be opened.
//
// Example:
//   RETURN_IF_ERROR(autotune::WarmUp(measurer));
#ifndef AUTOTUNE_MEASURE_WARM_UP_H_
#define AUTOTUNE_MEASURE_WARM_UP_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "autotune/measure/measurer.h"

namespace tg::autotune {

// out[i] = in[i] + 1 over 4 floats, as the scheduler writes a kernel.
absl::StatusOr<KernelTask> WarmUpTask();

// Measures WarmUpTask's kernel, unoptimized, once. Errors: Measure's, or FailedPrecondition
// naming the outcome when the kernel was not measured (it did not compile, run or check out).
absl::Status WarmUp(Measurer& m);

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_WARM_UP_H_
