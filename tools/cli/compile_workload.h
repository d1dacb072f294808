// File: tools/cli/compile_workload.h
// What `tg compile` does, as a library: schedule a built-in workload, optimize every kernel
// (the hand-coded heuristic, or the tuned opts a tuning database holds for the target: stored
// under its own device class, else the fastest of any GPU of its arch, TuningDb::
// LookupBestForArch), render it with the target's renderer and compile it, on a machine
// without the GPU.
// Kernels are those `tg tune` tunes: the workload's outputs after its inputs are realized (on
// the CPU), deduplicated, so a database `tg tune` filled for the same class answers them.
//
// Example:
//   ASSIGN_OR_RETURN(auto target, CompileTarget::Create({.device = "CUDA", .arch = "sm_90"}));
//   ASSIGN_OR_RETURN(std::vector<CompiledKernel> ks, CompileWorkload(*target, {.workload = w, ...}));
#ifndef TOOLS_CLI_COMPILE_WORKLOAD_H_
#define TOOLS_CLI_COMPILE_WORKLOAD_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/workloads/workloads.h"
#include "tools/cli/compile_target.h"

namespace tg {

struct CompileWorkloadOptions {
  const Workload* workload = nullptr;  // required
  WorkloadParams params;               // the workload's parameters (its defaults when empty)
  DType dtype = dtypes::float32;
  CodegenOptions codegen;              // NOOPT, TC, ... as the heuristic and lowering read them
  autotune::TuningDb* db = nullptr;    // tuned opts; nullptr: the heuristic for every kernel
};

struct CompiledKernel {
  std::string name;           // the kernel's name once optimized (no colors)
  std::string function_name;  // the C identifier in `src`
  std::vector<Opt> opts;      // the opts applied
  bool tuned = false;         // opts from the database (else the heuristic's)
  std::string tuned_on;       // for people: the tuned record's device, digest and worker
  // Non-empty: the database's opts for the kernel did not work here (why); `tuned` is false and
  // the kernel has the heuristic's opts.
  std::string untuned_why;
  std::string src;            // the rendered source
  std::string ast;            // the kernel AST (PrettyPrint), for DEBUG>=3
  autotune::TuningKey key;    // what tuned opts for it are stored under (the target's class)
  std::string binary;         // what the compiler made
  size_t binary_bytes = 0;
  double compile_s = 0;       // wall time of the compile
  absl::Status status;        // why rendering or compiling failed (then no binary)
};

// Schedules, optimizes, renders and compiles every kernel; `on_kernel` sees each as it is done
// (for printing). A kernel that fails to render or compile is reported in its `status` and the
// others go on. Errors: no workload, the inputs could not be made, scheduling failed, the
// database failed.
absl::StatusOr<std::vector<CompiledKernel>> CompileWorkload(
    CompileTarget& target, const CompileWorkloadOptions& options,
    const std::function<void(const CompiledKernel&)>& on_kernel = {});

// "UPCAST0:4 LOCAL1:4 TC0:-1,0,1", or "(none)".
std::string ShortOptsText(const std::vector<Opt>& opts);

}  // namespace tg

#endif  // TOOLS_CLI_COMPILE_WORKLOAD_H_
