// File: tools/cli/security_flags.h
// The farm's transport-security flags, the same in every `tg` subcommand that opens a farm
// socket (tg worker, tg farm status: clients; tg tune --bind: the server):
//   --key FILE         our CURVE secret key file (tg keygen)
//   --server-key FILE  (clients) the coordinator's public key file
//   --allow PATH       (server) the workers' public keys: a .pub file or a directory of them
//   --insecure         plain tcp:// (a warning); excludes the keys
// ipc:// needs none of them (file permissions protect it).
#ifndef TOOLS_CLI_SECURITY_FLAGS_H_
#define TOOLS_CLI_SECURITY_FLAGS_H_

#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "autotune/net/secure_endpoint.h"

namespace tg {

struct SecurityFlags {
  std::string key;
  std::string server_key;  // clients only
  std::string allow;       // the server only
  bool insecure = false;
};

enum class SecurityRole { kClient, kServer };

// Adds the flags of `role` to `app`, writing into `flags` (which must outlive the parse).
// CLI11 checks that --key and its partner (--server-key or --allow) come together, and that
// --insecure comes without them.
void AddSecurityFlags(CLI::App& app, SecurityFlags& flags, SecurityRole role);

// The flags of a compile server's client (tg tune, tg worker): --compile-with EP, and
// --compile-key FILE with --compile-server-key FILE (CURVE; both or neither), writing into
// `endpoint` and `flags` (key, server_key). Returns the --compile-with option.
CLI::Option* AddCompileServerFlags(CLI::App& app, std::string& endpoint, SecurityFlags& flags, const std::string& where);

// A client's socket security: CURVE from the key files, plain TCP with --insecure, or the
// default (none: fine for ipc://, refused for tcp:// by ConfigureClient). Errors: unreadable
// or malformed key files.
absl::StatusOr<autotune::net::SecurityOptions> ClientSecurity(const SecurityFlags& flags);

}  // namespace tg

#endif  // TOOLS_CLI_SECURITY_FLAGS_H_
