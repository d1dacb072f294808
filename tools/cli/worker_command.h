// File: tools/cli/worker_command.h
// `tg worker --connect ENDPOINT [...]`: runs a tuning-farm worker (workers/worker.h) until
// SIGTERM/SIGINT (it says Bye first). `tg worker --child [...]` is the worker's own child
// process (workers/worker_child.h): the daemon re-executes this binary, so nothing else has
// to be built or found next to `tg`.
#ifndef TOOLS_CLI_WORKER_COMMAND_H_
#define TOOLS_CLI_WORKER_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 failed, 2 usage error.
int WorkerCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_WORKER_COMMAND_H_
