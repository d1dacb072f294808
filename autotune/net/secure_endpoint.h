// File: autotune/net/secure_endpoint.h
// The one place farm sockets get their security settings, so no caller can forget them.
//
// Rules (issue 5 section 3):
//   tcp://     CURVE required. Plain TCP only with SecurityOptions::Insecure(), which prints
//              "farm traffic on tcp://... is neither authenticated nor encrypted" to stderr.
//   ipc://     CURVE, or none: then the socket file's directory must be private to us (a
//              directory owned by this user with mode 0700; a server creates it so when
//              missing). Linux abstract sockets (ipc://@name) have no file, so they need CURVE.
//   inproc://  one process: no security needed.
// A CURVE server also needs a running ZapHandler on its socket's context (the allowlist): it
// sets the handler's ZAP domain and ZMQ_ZAP_ENFORCE_DOMAIN, so no handler means no clients.
//
// Example (coordinator and worker):
//   ASSIGN_OR_RETURN(CurveKeyPair server_keys, ReadSecretKeyFile("farm.key"));
//   ASSIGN_OR_RETURN(auto zap, ZapHandler::Start(ctx, {.allowlist_path = "workers.d"}));
//   RETURN_IF_ERROR(ConfigureServer(router, "tcp://*:5555",
//                                   SecurityOptions::CurveServer(server_keys, zap.get())));
//   ...
//   RETURN_IF_ERROR(ConfigureClient(dealer, "tcp://host:5555",
//                                   SecurityOptions::CurveClient(worker_keys, server_public)));
#ifndef AUTOTUNE_NET_SECURE_ENDPOINT_H_
#define AUTOTUNE_NET_SECURE_ENDPOINT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/zap_handler.h"
#include "autotune/net/zmq_socket.h"

namespace tg::autotune::net {

// Far above any kernel AST or result message; the codec has its own, tighter limits.
inline constexpr int64_t kDefaultMaxMessageBytes = int64_t{64} << 20;

struct SecurityOptions {
  // Our own key pair (server or client) turns CURVE on.
  std::optional<CurveKeyPair> curve_keys;
  // Clients: the server's public key (Z85).
  std::string server_public_key;
  // Servers: the ZAP handler holding the allowlist; must run on the socket's context.
  ZapHandler* zap = nullptr;
  // No authentication and no encryption, on purpose (`--insecure`).
  bool insecure = false;
  // ZMQ_MAXMSGSIZE: a peer that sends a bigger message is disconnected (its message is never
  // delivered), so even an admitted but broken peer cannot make us allocate without bound.
  // -1 = no limit.
  int64_t max_message_bytes = kDefaultMaxMessageBytes;

  static SecurityOptions CurveServer(CurveKeyPair keys, ZapHandler* zap);
  static SecurityOptions CurveClient(CurveKeyPair keys, std::string server_public_key);
  static SecurityOptions Insecure();
  // No CURVE and no `insecure`: valid for ipc:// (file permissions) and inproc:// only.
  static SecurityOptions FilePermissions() { return {}; }
};

// Checks `opts` against `endpoint`, sets the socket's security options, and binds.
absl::Status ConfigureServer(ZmqSocket& socket, std::string_view endpoint,
                             const SecurityOptions& opts);
// Checks `opts` against `endpoint`, sets the socket's security options, and connects.
absl::Status ConfigureClient(ZmqSocket& socket, std::string_view endpoint,
                             const SecurityOptions& opts);

// The ipc:// rule on its own: `dir` must be a directory (not a symlink) owned by this user
// with no group/other permissions. With `create`, missing directories are made with 0700.
absl::Status EnsurePrivateDirectory(std::string_view dir, bool create);

}  // namespace tg::autotune::net

#endif  // AUTOTUNE_NET_SECURE_ENDPOINT_H_
