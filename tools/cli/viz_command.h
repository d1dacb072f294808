// File: tools/cli/viz_command.h
// `tg viz [FILE] [--host H] [--port P] [--allow-remote]`: serves the VIZ viewer (tools/viz) on a
// saved trace (VIZ=-1 writes one; default VIZ_PATH, else <cache dir>/viz.json) until Ctrl-C.
#ifndef TOOLS_CLI_VIZ_COMMAND_H_
#define TOOLS_CLI_VIZ_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 served until Ctrl-C, 1 the trace or the address is bad,
// 2 usage error.
int VizCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_VIZ_COMMAND_H_
