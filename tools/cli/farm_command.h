// File: tools/cli/farm_command.h
// `tg farm status --connect ENDPOINT [--key FILE --server-key FILE] [--insecure]
// [--timeout SECONDS]`: asks a running coordinator's status socket (autotune/farm/broker.h
// BrokerOptions::status_endpoint, a REP socket answering any request with
// FormatFarmStatus text) for its workers, their device classes, queue depths and error
// counts, and prints the answer. With `--web [--host ADDR] [--port N] [--allow-remote]` it
// serves a page instead (tools/dashboard/farm_page.h) that asks for the status as JSON each
// time it polls, until Ctrl-C.
//
// Not a port: tinygrad has no farm.
#ifndef TOOLS_CLI_FARM_COMMAND_H_
#define TOOLS_CLI_FARM_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 no answer / failure, 2 usage error.
int FarmCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_FARM_COMMAND_H_
