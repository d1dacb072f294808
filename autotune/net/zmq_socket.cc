// File: autotune/net/zmq_socket.cc
#include "autotune/net/zmq_socket.h"

#include <poll.h>
#include <zmq.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "autotune/net/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::net {

using internal::Cat;
namespace {

int ZmqType(SocketType t) {
  switch (t) {
    case SocketType::kPair: return ZMQ_PAIR;
    case SocketType::kPub: return ZMQ_PUB;
    case SocketType::kSub: return ZMQ_SUB;
    case SocketType::kReq: return ZMQ_REQ;
    case SocketType::kRep: return ZMQ_REP;
    case SocketType::kDealer: return ZMQ_DEALER;
    case SocketType::kRouter: return ZMQ_ROUTER;
    case SocketType::kPull: return ZMQ_PULL;
    case SocketType::kPush: return ZMQ_PUSH;
  }
  TG_CHECK(false) << "bad SocketType " << static_cast<int>(t);
  return -1;
}

int Ms(std::chrono::milliseconds d) { return static_cast<int>(d.count()); }

// Closes a zmq_msg_t on every path out of ReceiveImpl.
struct Msg {
  zmq_msg_t m;
  Msg() { zmq_msg_init(&m); }
  ~Msg() { zmq_msg_close(&m); }
  Msg(const Msg&) = delete;
  Msg& operator=(const Msg&) = delete;
};

}  // namespace

absl::Status ZmqError(std::string_view what) {
  const int err = zmq_errno();
  std::string msg = Cat(what, ": ", zmq_strerror(err));
  switch (err) {
    case EAGAIN: return absl::DeadlineExceededError(msg);
    case ETERM: return absl::CancelledError(msg);
    case EINTR: return absl::AbortedError(msg);
    case EINVAL:
    case EPROTONOSUPPORT:
    case ENOCOMPATPROTO: return absl::InvalidArgumentError(msg);
    case EADDRINUSE: return absl::AlreadyExistsError(msg);
    case ENOTSOCK:
    case EFSM: return absl::FailedPreconditionError(msg);
    default: return absl::UnavailableError(msg);
  }
}

bool IsTimeout(const absl::Status& s) { return s.code() == absl::StatusCode::kDeadlineExceeded; }
bool IsTerminated(const absl::Status& s) { return s.code() == absl::StatusCode::kCancelled; }

// ---- ZmqContext ----

ZmqContext::ZmqContext() : ctx_(zmq_ctx_new()) {
  // zmq_ctx_new fails only when the process is out of file descriptors or memory.
  TG_CHECK(ctx_ != nullptr) << "zmq_ctx_new: " << zmq_strerror(zmq_errno());
}

ZmqContext::~ZmqContext() {
  // zmq_ctx_term retries internally on EINTR only when asked; loop so a signal cannot leak it.
  while (zmq_ctx_term(ctx_) != 0 && zmq_errno() == EINTR) {
  }
}

void ZmqContext::Shutdown() { zmq_ctx_shutdown(ctx_); }

// ---- ZmqSocket ----

absl::StatusOr<ZmqSocket> ZmqSocket::Create(ZmqContext& ctx, SocketType type) {
  void* s = zmq_socket(ctx.raw(), ZmqType(type));
  if (s == nullptr) return ZmqError("zmq_socket");
  ZmqSocket sock(ctx.raw(), s);
  RETURN_IF_ERROR(sock.SetLinger(kDefaultLinger));
  return sock;
}

ZmqSocket::ZmqSocket(ZmqSocket&& o) noexcept
    : ctx_(std::exchange(o.ctx_, nullptr)), sock_(std::exchange(o.sock_, nullptr)) {}

ZmqSocket& ZmqSocket::operator=(ZmqSocket&& o) noexcept {
  if (this != &o) {
    Close();
    ctx_ = std::exchange(o.ctx_, nullptr);
    sock_ = std::exchange(o.sock_, nullptr);
  }
  return *this;
}

ZmqSocket::~ZmqSocket() { Close(); }

void ZmqSocket::Close() {
  if (sock_ != nullptr) zmq_close(sock_);
  sock_ = nullptr;
}

absl::Status ZmqSocket::Bind(std::string_view endpoint) {
  TG_CHECK(sock_ != nullptr) << "Bind on a closed socket";
  std::string ep(endpoint);
  if (zmq_bind(sock_, ep.c_str()) != 0) return ZmqError(Cat("bind ", ep));
  return absl::OkStatus();
}

absl::Status ZmqSocket::Connect(std::string_view endpoint) {
  TG_CHECK(sock_ != nullptr) << "Connect on a closed socket";
  std::string ep(endpoint);
  if (zmq_connect(sock_, ep.c_str()) != 0) return ZmqError(Cat("connect ", ep));
  return absl::OkStatus();
}

absl::StatusOr<std::string> ZmqSocket::LastEndpoint() const {
  ASSIGN_OR_RETURN(std::string ep, GetBytesOption(ZMQ_LAST_ENDPOINT));
  // libzmq includes the terminating NUL in the option's length.
  while (!ep.empty() && ep.back() == '\0') ep.pop_back();
  return ep;
}

absl::Status ZmqSocket::SetIntOption(int option, int value) {
  TG_CHECK(sock_ != nullptr) << "setsockopt on a closed socket";
  if (zmq_setsockopt(sock_, option, &value, sizeof value) != 0) {
    return ZmqError(Cat("zmq_setsockopt(", option, ", ", value, ")"));
  }
  return absl::OkStatus();
}

absl::Status ZmqSocket::SetBytesOption(int option, std::string_view value) {
  TG_CHECK(sock_ != nullptr) << "setsockopt on a closed socket";
  // Never echo the value: this also sets secret keys.
  if (zmq_setsockopt(sock_, option, value.data(), value.size()) != 0) {
    return ZmqError(Cat("zmq_setsockopt(", option, ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> ZmqSocket::GetIntOption(int option) const {
  TG_CHECK(sock_ != nullptr) << "getsockopt on a closed socket";
  int v = 0;
  size_t len = sizeof v;
  if (zmq_getsockopt(sock_, option, &v, &len) != 0) {
    return ZmqError(Cat("zmq_getsockopt(", option, ")"));
  }
  return v;
}

absl::StatusOr<std::string> ZmqSocket::GetBytesOption(int option) const {
  TG_CHECK(sock_ != nullptr) << "getsockopt on a closed socket";
  std::string buf(1024, '\0');
  size_t len = buf.size();
  if (zmq_getsockopt(sock_, option, buf.data(), &len) != 0) {
    return ZmqError(Cat("zmq_getsockopt(", option, ")"));
  }
  buf.resize(len);
  return buf;
}

absl::Status ZmqSocket::SetLinger(std::chrono::milliseconds linger) {
  return SetIntOption(ZMQ_LINGER, Ms(linger));
}
absl::Status ZmqSocket::SetReceiveTimeout(std::chrono::milliseconds timeout) {
  return SetIntOption(ZMQ_RCVTIMEO, Ms(timeout));
}
absl::Status ZmqSocket::SetSendTimeout(std::chrono::milliseconds timeout) {
  return SetIntOption(ZMQ_SNDTIMEO, Ms(timeout));
}

absl::Status ZmqSocket::SetHeartbeat(const HeartbeatOptions& hb) {
  // 0 keeps a feature off. libzmq sends the TTL in deciseconds, so it rounds down to 100 ms.
  RETURN_IF_ERROR(SetIntOption(ZMQ_HEARTBEAT_IVL, Ms(hb.interval)));
  RETURN_IF_ERROR(SetIntOption(ZMQ_HEARTBEAT_TIMEOUT, Ms(hb.timeout)));
  return SetIntOption(ZMQ_HEARTBEAT_TTL, Ms(hb.ttl));
}

absl::Status ZmqSocket::SetRoutingId(std::string_view id) {
  return SetBytesOption(ZMQ_ROUTING_ID, id);
}

absl::Status ZmqSocket::Subscribe(std::string_view prefix) {
  return SetBytesOption(ZMQ_SUBSCRIBE, prefix);
}

absl::Status ZmqSocket::SetRouterMandatory(bool on) {
  return SetIntOption(ZMQ_ROUTER_MANDATORY, on ? 1 : 0);
}

absl::Status ZmqSocket::SetRouterHandover(bool on) {
  return SetIntOption(ZMQ_ROUTER_HANDOVER, on ? 1 : 0);
}

absl::Status ZmqSocket::Send(std::span<const std::string> frames, SendMode mode) {
  TG_CHECK(sock_ != nullptr) << "Send on a closed socket";
  if (frames.empty()) return absl::InvalidArgumentError("Send: a message needs at least one frame");
  const int base = mode == SendMode::kDontWait ? ZMQ_DONTWAIT : 0;
  for (size_t i = 0; i < frames.size(); ++i) {
    const int flags = base | (i + 1 < frames.size() ? ZMQ_SNDMORE : 0);
    // Only the first frame can fail with EAGAIN: libzmq admits the rest of a message once its
    // first frame is queued.
    if (zmq_send(sock_, frames[i].data(), frames[i].size(), flags) < 0) {
      return ZmqError(Cat("send frame ", i, " of ", frames.size()));
    }
  }
  return absl::OkStatus();
}

absl::Status ZmqSocket::Send(std::initializer_list<std::string> frames, SendMode mode) {
  return Send(std::span<const std::string>(frames.begin(), frames.size()), mode);
}

absl::StatusOr<Frames> ZmqSocket::ReceiveImpl(int flags, PeerInfo* peer) {
  TG_CHECK(sock_ != nullptr) << "Receive on a closed socket";
  Frames frames;
  bool have_meta = false;
  for (bool first = true;; first = false) {
    Msg msg;
    // Multipart messages arrive atomically, so the later frames are already here.
    if (zmq_msg_recv(&msg.m, sock_, first ? flags : 0) < 0) return ZmqError("receive");
    frames.emplace_back(static_cast<const char*>(zmq_msg_data(&msg.m)), zmq_msg_size(&msg.m));
    // A ROUTER's routing-id frame is made locally and has no metadata: take the first frame
    // that came over the connection.
    if (peer != nullptr && !have_meta) {
      if (first) *peer = PeerInfo{};
      const char* uid = zmq_msg_gets(&msg.m, "User-Id");
      const char* addr = zmq_msg_gets(&msg.m, "Peer-Address");
      if (uid != nullptr) peer->user_id = uid;
      if (addr != nullptr) peer->peer_address = addr;
      have_meta = uid != nullptr || addr != nullptr;
    }
    if (!zmq_msg_more(&msg.m)) break;
  }
  return frames;
}

absl::StatusOr<Frames> ZmqSocket::Receive(PeerInfo* peer) { return ReceiveImpl(0, peer); }

absl::StatusOr<Frames> ZmqSocket::TryReceive(PeerInfo* peer) {
  return ReceiveImpl(ZMQ_DONTWAIT, peer);
}

absl::StatusOr<Frames> ZmqSocket::ReceiveFor(std::chrono::milliseconds timeout, PeerInfo* peer) {
  // Poll again after a signal's early wake-up, against the caller's deadline.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    PollItem item{.socket = this};
    ASSIGN_OR_RETURN(int ready, Poll(std::span<PollItem>(&item, 1),
                                     std::max(left, std::chrono::milliseconds(0))));
    if (ready > 0) return TryReceive(peer);
    if (left.count() <= 0 || std::chrono::steady_clock::now() >= deadline) {
      return absl::DeadlineExceededError(
          Cat("receive: no message within ", timeout.count(), " ms"));
    }
  }
}

absl::StatusOr<int> Poll(std::span<PollItem> items, std::chrono::milliseconds timeout) {
  std::vector<zmq_pollitem_t> zitems(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const PollItem& it = items[i];
    TG_CHECK(it.socket != nullptr ? it.socket->is_open() : it.fd >= 0)
        << "PollItem " << i << " has neither an open socket nor a file descriptor";
    zitems[i].socket = it.socket != nullptr ? it.socket->raw() : nullptr;
    zitems[i].fd = it.socket != nullptr ? 0 : it.fd;
    zitems[i].events = static_cast<short>((it.want_read ? ZMQ_POLLIN : 0) |
                                          (it.want_write ? ZMQ_POLLOUT : 0));
  }
  const int rc = zmq_poll(zitems.data(), static_cast<int>(zitems.size()), timeout.count());
  if (rc < 0) {
    // A signal is a spurious wake-up: callers poll in a loop against their own deadline.
    if (zmq_errno() == EINTR) return 0;
    return ZmqError("zmq_poll");
  }
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].readable = (zitems[i].revents & ZMQ_POLLIN) != 0;
    items[i].writable = (zitems[i].revents & ZMQ_POLLOUT) != 0;
    items[i].error = (zitems[i].revents & ZMQ_POLLERR) != 0;
  }
  return rc;
}

}  // namespace tg::autotune::net
