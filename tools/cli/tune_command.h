// File: tools/cli/tune_command.h
// `tg tune <workload> [--beam N] [--<param> N ...] [--db PATH] [--ignore-cache]`: tunes every
// kernel of a built-in workload with BEAM search, showing progress, and prints a table of
// baseline, heuristic and tuned times. Results go to the tuning database, where a second run
// and `tg run` find them.
#ifndef TOOLS_CLI_TUNE_COMMAND_H_
#define TOOLS_CLI_TUNE_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 tuning failed, 2 usage error.
int TuneWorkloadCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_TUNE_COMMAND_H_
