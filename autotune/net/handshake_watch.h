// File: autotune/net/handshake_watch.h
// Tells a CURVE client why the server will not talk to it. Without this a refused worker only
// sees silence (libzmq retries the handshake quietly), so an operator who forgot to add the
// worker's key to the coordinator's allowlist reads "no word from the coordinator" and nothing
// about keys. The watch reads the client socket's monitor events on its own thread and, the
// first time the server's ZAP handler refuses the key (ZMQ_EVENT_HANDSHAKE_FAILED_AUTH), calls
// `report` with a line naming the key. A handshake that fails before that (the server hangs up
// or reports a CURVE protocol error: what a server key that is not the server's looks like)
// gets its own line. Each is said once per watch, however often libzmq retries (it retries a
// hung-up handshake every reconnect interval, never a refused one): a worker starts a new
// watch with each fresh connection, so it says so once per connection attempt.
//
// Example (in the worker's connect):
//   ASSIGN_OR_RETURN(ZmqSocket dealer, ZmqSocket::Create(ctx, SocketType::kDealer));
//   ASSIGN_OR_RETURN(std::unique_ptr<HandshakeWatch> watch,
//                    HandshakeWatch::Start(ctx, dealer, security, log));
//   RETURN_IF_ERROR(ConfigureClient(dealer, endpoint, security));
#ifndef AUTOTUNE_NET_HANDSHAKE_WATCH_H_
#define AUTOTUNE_NET_HANDSHAKE_WATCH_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "absl/status/statusor.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/socket_monitor.h"
#include "autotune/net/zmq_socket.h"

namespace tg::autotune::net {

// What the watch reports (the endpoint is the one libzmq names in its event).
std::string KeyRefusedLine(std::string_view endpoint, std::string_view client_public_z85,
                           uint32_t zap_status);
std::string CurveHandshakeFailedLine(std::string_view endpoint, std::string_view why);

class HandshakeWatch {
 public:
  // Watches `socket` (not connected yet, so no handshake is missed), a client with `security`;
  // `report` is called on the watch's thread. Answers nullptr when there is
  // nothing to watch (no CURVE: no key to be refused). `socket` must outlive the watch or be
  // closed first; the watch must be destroyed before `ctx` terminates.
  static absl::StatusOr<std::unique_ptr<HandshakeWatch>> Start(
      ZmqContext& ctx, ZmqSocket& socket, const SecurityOptions& security,
      std::function<void(std::string_view)> report);
  // Stops and joins the thread (within one poll interval, 50 ms).
  ~HandshakeWatch();
  HandshakeWatch(const HandshakeWatch&) = delete;
  HandshakeWatch& operator=(const HandshakeWatch&) = delete;

 private:
  HandshakeWatch(SocketMonitor monitor, std::string client_public_z85,
                 std::function<void(std::string_view)> report);
  void Loop();

  SocketMonitor monitor_;  // used by the thread only, once started
  const std::string client_public_z85_;
  const std::function<void(std::string_view)> report_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace tg::autotune::net

#endif  // AUTOTUNE_NET_HANDSHAKE_WATCH_H_
