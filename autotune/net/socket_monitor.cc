// File: autotune/net/socket_monitor.cc
#include "autotune/net/socket_monitor.h"

#include <zmq.h>

#include <atomic>
#include <cstring>

#include "autotune/net/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::net {

using internal::Cat;

namespace {

SocketEventKind KindOf(uint32_t event) {
  switch (event) {
    case ZMQ_EVENT_LISTENING: return SocketEventKind::kListening;
    case ZMQ_EVENT_ACCEPTED: return SocketEventKind::kAccepted;
    case ZMQ_EVENT_CONNECTED: return SocketEventKind::kConnected;
    case ZMQ_EVENT_CONNECT_RETRIED: return SocketEventKind::kConnectRetried;
    case ZMQ_EVENT_DISCONNECTED: return SocketEventKind::kDisconnected;
    case ZMQ_EVENT_CLOSED: return SocketEventKind::kClosed;
    case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: return SocketEventKind::kHandshakeSucceeded;
    case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL: return SocketEventKind::kHandshakeFailedNoDetail;
    case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: return SocketEventKind::kHandshakeFailedProtocol;
    case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: return SocketEventKind::kHandshakeFailedAuth;
    default: return SocketEventKind::kOther;
  }
}

}  // namespace

std::string_view SocketEventKindName(SocketEventKind k) {
  switch (k) {
    case SocketEventKind::kListening: return "listening";
    case SocketEventKind::kAccepted: return "accepted";
    case SocketEventKind::kConnected: return "connected";
    case SocketEventKind::kConnectRetried: return "connect retried";
    case SocketEventKind::kDisconnected: return "disconnected";
    case SocketEventKind::kClosed: return "closed";
    case SocketEventKind::kHandshakeSucceeded: return "handshake succeeded";
    case SocketEventKind::kHandshakeFailedNoDetail: return "handshake failed";
    case SocketEventKind::kHandshakeFailedProtocol: return "handshake failed: protocol";
    case SocketEventKind::kHandshakeFailedAuth: return "handshake failed: authentication";
    case SocketEventKind::kOther: return "other";
  }
  return "?";
}

absl::StatusOr<SocketMonitor> SocketMonitor::Start(ZmqContext& ctx, ZmqSocket& socket) {
  // A process-unique inproc name for the event pipe.
  static std::atomic<uint64_t> counter{0};
  const std::string ep = Cat("inproc://tg-monitor-", counter.fetch_add(1));
  if (zmq_socket_monitor(socket.raw(), ep.c_str(), ZMQ_EVENT_ALL) != 0) {
    return ZmqError("zmq_socket_monitor");
  }
  ASSIGN_OR_RETURN(ZmqSocket events, ZmqSocket::Create(ctx, SocketType::kPair));
  RETURN_IF_ERROR(events.SetLinger(std::chrono::milliseconds(0)));
  RETURN_IF_ERROR(events.Connect(ep));
  return SocketMonitor(std::move(events));
}


absl::StatusOr<SocketEvent> SocketMonitor::Next(std::chrono::milliseconds timeout) {
  ASSIGN_OR_RETURN(Frames f, events_.ReceiveFor(timeout));
  // Version 1 events: [uint16 event, uint32 value] (host byte order), then the endpoint.
  if (f.size() != 2 || f[0].size() != 6) {
    return absl::InternalError(Cat("malformed monitor event (", f.size(), " frames)"));
  }
  uint16_t event = 0;
  uint32_t value = 0;
  std::memcpy(&event, f[0].data(), 2);
  std::memcpy(&value, f[0].data() + 2, 4);
  return SocketEvent{KindOf(event), event, value, f[1]};
}

}  // namespace tg::autotune::net
