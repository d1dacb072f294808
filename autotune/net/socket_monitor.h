// File: autotune/net/socket_monitor.h
// Connection events of one socket (zmq_socket_monitor): who connected, and why a handshake
// failed. A farm server counts these per reason (`tg farm status` error counts); the security
// tests use them to show *why* a client got nothing (libzmq's ZMQ_EVENT_HANDSHAKE_FAILED_*).
//
// Example:
//   ASSIGN_OR_RETURN(SocketMonitor mon, SocketMonitor::Start(ctx, router));
//   absl::StatusOr<SocketEvent> e = mon.Next(std::chrono::seconds(1));
//   if (e.ok() && e->kind == SocketEventKind::kHandshakeFailedAuth) ...  // ZAP said no
#ifndef AUTOTUNE_NET_SOCKET_MONITOR_H_
#define AUTOTUNE_NET_SOCKET_MONITOR_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/net/zmq_socket.h"

namespace tg::autotune::net {

enum class SocketEventKind {
  kListening,
  kAccepted,
  kConnected,
  kConnectRetried,
  kDisconnected,
  kClosed,
  kHandshakeSucceeded,
  kHandshakeFailedNoDetail,  // e.g. the peer closed during the handshake
  kHandshakeFailedProtocol,  // bad handshake: wrong mechanism, bad crypto (wrong server key)
  kHandshakeFailedAuth,      // the ZAP handler refused the peer; value = its status code (400)
  kOther,
};
std::string_view SocketEventKindName(SocketEventKind k);

struct SocketEvent {
  SocketEventKind kind = SocketEventKind::kOther;
  uint32_t raw_event = 0;  // the ZMQ_EVENT_* bit
  uint32_t value = 0;      // fd, errno, ZAP status or ZMQ_PROTOCOL_ERROR_* by event
  std::string endpoint;    // the endpoint the event is about
};

// Owns the PAIR socket events arrive on; like any socket it must be destroyed before its
// context terminates. Destroying it does not touch the monitored socket (which may already be
// closed): libzmq drops events nobody reads, and a new Start() replaces the old monitor.
class SocketMonitor {
 public:
  static absl::StatusOr<SocketMonitor> Start(ZmqContext& ctx, ZmqSocket& socket);

  // The next event, waiting up to `timeout` (kDeadlineExceeded when none came).
  absl::StatusOr<SocketEvent> Next(std::chrono::milliseconds timeout);

 private:
  explicit SocketMonitor(ZmqSocket events) : events_(std::move(events)) {}
  ZmqSocket events_;
};

}  // namespace tg::autotune::net

#endif  // AUTOTUNE_NET_SOCKET_MONITOR_H_
