// File: tools/cli/run_command.h
// `tg run <workload> [--<param> N ...] [--runs N] [--noopt]`: runs a built-in workload and
// prints its kernels (DEBUG=2 style) and where the time went.
#ifndef TOOLS_CLI_RUN_COMMAND_H_
#define TOOLS_CLI_RUN_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 the run failed, 2 usage error.
int RunWorkloadCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_RUN_COMMAND_H_
