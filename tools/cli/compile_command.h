// File: tools/cli/compile_command.h
// `tg compile`: render and compile every kernel of a built-in workload for a GPU target this
// machine does not have (compile_workload.h), printing a summary line per kernel or the sources.
#ifndef TOOLS_CLI_COMPILE_COMMAND_H_
#define TOOLS_CLI_COMPILE_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// `args` are the words after "compile". Returns the exit code: 0 every kernel compiled, 1 a
// kernel or the toolchain failed, 2 a usage error (flags, device, malformed or unknown arch).
int CompileWorkloadCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_COMPILE_COMMAND_H_
