// File: tools/cli/compile_server_command.h
// `tg compile-server`: serves a GPU target's compiling to GPU machines that only time
// candidates (autotune/compile/compile_server.h): `tg tune --compile-with` on a GPU machine
// sends it each batch of candidates and gets them back lowered, rendered and compiled.
#ifndef TOOLS_CLI_COMPILE_SERVER_COMMAND_H_
#define TOOLS_CLI_COMPILE_SERVER_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// `args` are the words after "compile-server". Runs until SIGTERM or SIGINT (exit 0); 1: the
// toolchain or the socket failed; 2: a usage error.
int CompileServerCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_COMPILE_SERVER_COMMAND_H_
