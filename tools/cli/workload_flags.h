// File: tools/cli/workload_flags.h
// The WORKLOAD argument of `tg run` and `tg tune` and the workload's own parameters as flags
// (`tg run matmul --m 256`): which flags exist depends on the workload, so the words are
// looked at once before CLI11 parses them.
#ifndef TOOLS_CLI_WORKLOAD_FLAGS_H_
#define TOOLS_CLI_WORKLOAD_FLAGS_H_

#include <span>
#include <string>
#include <string_view>

#include "CLI/CLI.hpp"
#include "tinygrad/workloads/workloads.h"

namespace tg {

// Adds the positional WORKLOAD (required; an unknown name is a usage error) and, when a
// word of `args` names a workload (the first that does), its parameters as
// `--<param> N` options (N >= 1) writing into `params`, which gets that workload's defaults.
// With `dtype`, also `--dtype NAME` (float32, half, bfloat16: WorkloadDTypes()) writing into
// it; it is left as it is when the flag is not given. Returns that workload, or nullptr. The
// help's footer lists every workload.
const Workload* AddWorkloadFlags(CLI::App& app, std::span<const std::string_view> args,
                                 std::string& name, WorkloadParams& params, DType* dtype = nullptr);

}  // namespace tg

#endif  // TOOLS_CLI_WORKLOAD_FLAGS_H_
