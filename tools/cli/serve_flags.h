// File: tools/cli/serve_flags.h
// The flags of every `tg` command that serves a local page (tg tune --dashboard, tg farm
// status --web, tg db serve), defined once:
//   --host ADDR       the address to listen on (default 127.0.0.1; others need --allow-remote)
//   --port N          the TCP port (default 0: any free one; the URL is printed)
//   --allow-remote    serve on a non-loopback address (the pages have no authentication)
// A `prefix` names them for a command where plain --host/--port would be ambiguous
// ("dashboard-": --dashboard-host, --dashboard-port); --allow-remote is never prefixed.
#ifndef TOOLS_CLI_SERVE_FLAGS_H_
#define TOOLS_CLI_SERVE_FLAGS_H_

#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "tools/web/local_server.h"

namespace tg {

// Adds the flags to `app`, writing into `options` (which must outlive the parse); returns them
// (for ->needs()).
std::vector<CLI::Option*> AddServeFlags(CLI::App& app, web::ServeOptions& options, const std::string& prefix = "");

// After the parse: the options' error (web::CheckServeOptions: a non-loopback host without
// --allow-remote) printed as "tg <command>: ..." to stderr; returns kExitUsage then, else nullopt.
std::optional<int> CheckServeFlags(const web::ServeOptions& options, const std::string& command);

}  // namespace tg

#endif  // TOOLS_CLI_SERVE_FLAGS_H_
