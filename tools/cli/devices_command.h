// File: tools/cli/devices_command.h
// `tg devices`: which devices work on this machine (tinygrad's `python -m tinygrad.device`).
#ifndef TOOLS_CLI_DEVICES_COMMAND_H_
#define TOOLS_CLI_DEVICES_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 the default device works, 1 it does not, 2 usage error.
int DevicesCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_DEVICES_COMMAND_H_
