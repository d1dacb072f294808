// File: autotune/net/zmq_socket.h
// RAII ZeroMQ context and socket over libzmq's C API: multipart messages as vectors of byte
// strings, every failure an absl::Status (nothing throws), a poll over several sockets (and plain
// file descriptors, e.g. a worker's child pipes).
//
// Status codes a caller can branch on:
//   kDeadlineExceeded  nothing to receive / could not send within the timeout, or would block
//                      with kDontWait (libzmq EAGAIN): IsTimeout(status)
//   kCancelled         the context was shut down or terminated (libzmq ETERM): IsTerminated()
//   anything else      a real error (bad endpoint, address in use, ...), message names the call
//
// Every socket is created with a bounded linger (kDefaultLinger), so closing a socket and
// terminating its context never waits forever for an unreachable peer.
//
// Example:
//   ZmqContext ctx;
//   ASSIGN_OR_RETURN(ZmqSocket s, ZmqSocket::Create(ctx, SocketType::kDealer));
//   RETURN_IF_ERROR(s.Connect("tcp://127.0.0.1:5555"));
//   RETURN_IF_ERROR(s.Send({"", "hello"}));
//   absl::StatusOr<Frames> reply = s.ReceiveFor(std::chrono::seconds(1));
//   if (IsTimeout(reply.status())) ...
#ifndef AUTOTUNE_NET_ZMQ_SOCKET_H_
#define AUTOTUNE_NET_ZMQ_SOCKET_H_

#include <chrono>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tg::autotune::net {

using Frames = std::vector<std::string>;

// Default ZMQ_LINGER of every socket: pending outgoing messages get this long after Close().
inline constexpr std::chrono::milliseconds kDefaultLinger{200};

bool IsTimeout(const absl::Status& s);     // EAGAIN: timed out or would block
bool IsTerminated(const absl::Status& s);  // ETERM: the context is going away

// One libzmq context. Not movable: sockets keep a pointer to it. Destroying it terminates the
// context, which makes blocking calls in other threads return kCancelled; sockets must be closed
// (destroyed) before the destructor returns, as libzmq requires.
class ZmqContext {
 public:
  ZmqContext();
  ~ZmqContext();
  ZmqContext(const ZmqContext&) = delete;
  ZmqContext& operator=(const ZmqContext&) = delete;

  // Makes every blocking call on this context's sockets return kCancelled (zmq_ctx_shutdown);
  // sockets still have to be closed. Idempotent.
  void Shutdown();
  void* raw() const { return ctx_; }

 private:
  void* ctx_;
};

enum class SocketType { kPair, kPub, kSub, kReq, kRep, kDealer, kRouter, kPull, kPush };

// ZMTP-level heartbeats (ZMQ_HEARTBEAT_*; zero = off, libzmq's default). They detect a dead
// connection, not a hung peer whose I/O thread still answers PINGs.
struct HeartbeatOptions {
  std::chrono::milliseconds interval{0};  // ZMQ_HEARTBEAT_IVL: send a PING this often
  std::chrono::milliseconds timeout{0};   // ZMQ_HEARTBEAT_TIMEOUT: no traffic this long -> drop
  std::chrono::milliseconds ttl{0};       // ZMQ_HEARTBEAT_TTL: the peer drops us after this
};

enum class SendMode { kBlock, kDontWait };

// Metadata libzmq attaches to a received message (zmq_msg_gets).
struct PeerInfo {
  std::string user_id;       // "User-Id": what the ZAP handler answered (our: the client key)
  std::string peer_address;  // "Peer-Address": the remote IP for tcp://, empty otherwise
};

// A move-only socket. Not thread-safe (libzmq sockets are not): use each from one thread.
class ZmqSocket {
 public:
  static absl::StatusOr<ZmqSocket> Create(ZmqContext& ctx, SocketType type);

  ZmqSocket() = default;  // an empty (closed) socket
  ZmqSocket(ZmqSocket&& o) noexcept;
  ZmqSocket& operator=(ZmqSocket&& o) noexcept;
  ZmqSocket(const ZmqSocket&) = delete;
  ZmqSocket& operator=(const ZmqSocket&) = delete;
  ~ZmqSocket();

  bool is_open() const { return sock_ != nullptr; }
  void* raw() const { return sock_; }
  void* context() const { return ctx_; }
  void Close();

  absl::Status Bind(std::string_view endpoint);
  absl::Status Connect(std::string_view endpoint);
  // The endpoint actually bound (ZMQ_LAST_ENDPOINT): resolves "tcp://127.0.0.1:*" to a port.
  absl::StatusOr<std::string> LastEndpoint() const;

  absl::Status SetIntOption(int option, int value);
  absl::Status SetBytesOption(int option, std::string_view value);
  absl::StatusOr<int> GetIntOption(int option) const;
  absl::StatusOr<std::string> GetBytesOption(int option) const;

  absl::Status SetLinger(std::chrono::milliseconds linger);
  // -1 ms = block forever (libzmq's default); applies to Send/Receive with kBlock.
  absl::Status SetReceiveTimeout(std::chrono::milliseconds timeout);
  absl::Status SetSendTimeout(std::chrono::milliseconds timeout);
  absl::Status SetHeartbeat(const HeartbeatOptions& hb);
  absl::Status SetRoutingId(std::string_view id);
  absl::Status Subscribe(std::string_view prefix);  // SUB sockets
  // ROUTER sockets. Mandatory (ZMQ_ROUTER_MANDATORY): a send to an unknown routing id fails
  // (EHOSTUNREACH) instead of being dropped silently. Handover (ZMQ_ROUTER_HANDOVER): a peer
  // connecting with a routing id already in use takes it over instead of being refused.
  absl::Status SetRouterMandatory(bool on);
  absl::Status SetRouterHandover(bool on);

  // Sends all frames as one multipart message (atomic: all or none are delivered).
  absl::Status Send(std::span<const std::string> frames, SendMode mode = SendMode::kBlock);
  absl::Status Send(std::initializer_list<std::string> frames, SendMode mode = SendMode::kBlock);
  // Receives one whole multipart message; blocks up to the receive timeout.
  absl::StatusOr<Frames> Receive(PeerInfo* peer = nullptr);
  absl::StatusOr<Frames> TryReceive(PeerInfo* peer = nullptr);  // never blocks
  // Waits up to `timeout` for a message (kDeadlineExceeded if none came).
  absl::StatusOr<Frames> ReceiveFor(std::chrono::milliseconds timeout, PeerInfo* peer = nullptr);

 private:
  ZmqSocket(void* ctx, void* sock) : ctx_(ctx), sock_(sock) {}
  absl::StatusOr<Frames> ReceiveImpl(int flags, PeerInfo* peer);

  void* ctx_ = nullptr;
  void* sock_ = nullptr;
};

// One entry of Poll: a socket, or a plain file descriptor when socket is null.
struct PollItem {
  ZmqSocket* socket = nullptr;
  int fd = -1;
  bool want_read = true;
  bool want_write = false;
  // Outputs.
  bool readable = false;
  bool writable = false;
  bool error = false;  // only for file descriptors (POLLERR)
};

// Waits until some item is ready or `timeout` passes (-1 ms = forever); returns how many items
// are ready (0 on timeout). kCancelled when the context terminates.
absl::StatusOr<int> Poll(std::span<PollItem> items, std::chrono::milliseconds timeout);

// absl::Status for the current errno of a failed zmq call: "what: strerror" with the code rules
// above (EAGAIN -> kDeadlineExceeded, ETERM -> kCancelled).
absl::Status ZmqError(std::string_view what);

}  // namespace tg::autotune::net

#endif  // AUTOTUNE_NET_ZMQ_SOCKET_H_
