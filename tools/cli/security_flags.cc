// File: tools/cli/security_flags.cc
#include "tools/cli/security_flags.h"

#include "autotune/net/curve_keys.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

namespace net = autotune::net;

void AddSecurityFlags(CLI::App& app, SecurityFlags& flags, SecurityRole role) {
  CLI::Option* key = app.add_option("--key", flags.key, "our CURVE secret key file (make it with tg keygen)");
  CLI::Option* partner =
      role == SecurityRole::kClient
          ? app.add_option("--server-key", flags.server_key, "the coordinator's public key file")
          : app.add_option("--allow", flags.allow, "the workers' public keys: a .pub file or a directory of them");
  key->type_name("FILE")->needs(partner);
  partner->type_name(role == SecurityRole::kClient ? "FILE" : "PATH")->needs(key);
  app.add_flag("--insecure", flags.insecure, "plain TCP without CURVE (a warning is printed)")
      ->excludes(key)
      ->excludes(partner);
}

CLI::Option* AddCompileServerFlags(CLI::App& app, std::string& endpoint, SecurityFlags& flags, const std::string& where) {
  CLI::Option* with =
      app.add_option("--compile-with", endpoint,
                     "have a compile server (tg compile-server) lower and compile each batch of\n"
                     "candidates, this machine only timing them (GPU devices" + where + "):\n"
                     "tcp://HOST:PORT with --compile-key and --compile-server-key, or --insecure; or\n"
                     "ipc://PATH. A batch it cannot prepare (down, another target) is prepared here")
          ->type_name("EP");
  CLI::Option* key = app.add_option("--compile-key", flags.key, "our CURVE secret key file for the compile server")
                         ->type_name("FILE")
                         ->needs(with);
  CLI::Option* server = app.add_option("--compile-server-key", flags.server_key, "the compile server's public key file")
                            ->type_name("FILE")
                            ->needs(key);
  key->needs(server);
  return with;
}

absl::StatusOr<net::SecurityOptions> ClientSecurity(const SecurityFlags& flags) {
  if (!flags.key.empty()) {
    ASSIGN_OR_RETURN(net::CurveKeyPair mine, net::ReadSecretKeyFile(flags.key));
    ASSIGN_OR_RETURN(std::string server, net::ReadPublicKeyFile(flags.server_key));
    return net::SecurityOptions::CurveClient(mine, server);
  }
  if (flags.insecure) return net::SecurityOptions::Insecure();
  return net::SecurityOptions::FilePermissions();
}

}  // namespace tg
