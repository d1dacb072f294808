// File: tools/cli/serve_flags.cc
#include "tools/cli/serve_flags.h"

#include <cstdio>

#include "tools/cli/command_line.h"

namespace tg {

std::vector<CLI::Option*> AddServeFlags(CLI::App& app, web::ServeOptions& options, const std::string& prefix) {
  return {
      app.add_option("--" + prefix + "host", options.host,
                     "serve the page on this address (others than loopback need --allow-remote)")
          ->capture_default_str()
          ->type_name("ADDR"),
      app.add_option("--" + prefix + "port", options.port, "serve the page on this TCP port (0: any free one)")
          ->capture_default_str()
          ->check(CLI::Range(0, 65535)),
      app.add_flag("--allow-remote", options.allow_remote,
                   "allow a non-loopback --" + prefix + "host: the page has no authentication, so\n"
                   "anyone who can reach the address can read it"),
  };
}

std::optional<int> CheckServeFlags(const web::ServeOptions& options, const std::string& command) {
  absl::Status s = web::CheckServeOptions(options);
  if (s.ok()) return std::nullopt;
  std::fprintf(stderr, "tg %s: %s\n", command.c_str(), std::string(s.message()).c_str());
  return kExitUsage;
}

}  // namespace tg
