// File: tools/cli/keygen_command.h
// `tg keygen [--dir DIR] NAME`: makes a CURVE key pair for the farm and writes DIR/NAME.key
// (secret, mode 0600) and DIR/NAME.pub (public, mode 0644), refusing to overwrite either, and
// prints the public key. A missing DIR is created with mode 0700. The formats are in
// autotune/net/curve_keys.h.
#ifndef TOOLS_CLI_KEYGEN_COMMAND_H_
#define TOOLS_CLI_KEYGEN_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 failed (e.g. the files exist), 2 usage error.
int KeygenCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_KEYGEN_COMMAND_H_
