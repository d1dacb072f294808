// File: autotune/net/zap_handler.cc
#include "autotune/net/zap_handler.h"

#include <zmq.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include "autotune/net/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::net {

using internal::Cat;
namespace {

// How often the thread looks at the stop flag while idle.
constexpr std::chrono::milliseconds kStopCheck{50};
constexpr size_t kRecentDenials = 64;
constexpr int kLogLinesPerSecond = 10;

// RFC 27 request frames after REP strips the envelope.
enum RequestFrame { kVersion, kRequestId, kDomain, kAddress, kIdentity, kMechanism, kCredentials };

// Peer-controlled text in a log line: printable ASCII only, bounded.
std::string Printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 64)) out.push_back(c >= 0x20 && c < 0x7f ? c : '?');
  return out;
}

}  // namespace

std::string_view ZapDenyReasonName(ZapDenyReason r) {
  switch (r) {
    case ZapDenyReason::kMalformed: return "malformed ZAP request";
    case ZapDenyReason::kWrongDomain: return "wrong ZAP domain";
    case ZapDenyReason::kNotCurve: return "mechanism is not CURVE";
    case ZapDenyReason::kUnknownKey: return "key not in the allowlist";
    case ZapDenyReason::kRevokedKey: return "key revoked";
  }
  return "?";
}

absl::StatusOr<std::unique_ptr<ZapHandler>> ZapHandler::Start(ZmqContext& ctx, ZapOptions opts) {
  ASSIGN_OR_RETURN(ZmqSocket sock, ZmqSocket::Create(ctx, SocketType::kRep));
  // Unanswered requests are dropped at Stop; libzmq then fails those handshakes.
  RETURN_IF_ERROR(sock.SetLinger(std::chrono::milliseconds(0)));
  if (absl::Status s = sock.Bind(kZapEndpoint); !s.ok()) {
    return absl::AlreadyExistsError(
        Cat("cannot start the ZAP handler (is another one running on this context?): ",
                     s.message()));
  }
  std::unique_ptr<ZapHandler> h(new ZapHandler(ctx.raw(), std::move(sock), std::move(opts)));
  RETURN_IF_ERROR(h->Reload());
  // The socket moves to the thread here; thread creation orders the hand-over.
  h->thread_ = std::thread([p = h.get()] { p->Run(); });
  return h;
}

ZapHandler::ZapHandler(void* ctx, ZmqSocket socket, ZapOptions opts)
    : ctx_(ctx),
      domain_(std::move(opts.domain)),
      allowlist_path_(std::move(opts.allowlist_path)),
      revocation_path_(std::move(opts.revocation_path)),
      log_denials_(opts.log_denials),
      socket_(std::move(socket)),
      runtime_allow_(std::move(opts.allowlist)),
      runtime_revoked_(std::move(opts.revoked)) {}

ZapHandler::~ZapHandler() { Stop(); }

void ZapHandler::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  socket_.Close();
}

void ZapHandler::Run() {
  while (!stop_.load()) {
    PollItem item{.socket = &socket_};
    absl::StatusOr<int> ready = Poll(std::span<PollItem>(&item, 1), kStopCheck);
    if (!ready.ok()) break;  // the context terminates (ETERM): nothing more to serve
    if (*ready == 0) continue;
    absl::StatusOr<Frames> request = socket_.TryReceive();
    if (!request.ok()) {
      if (IsTimeout(request.status())) continue;
      break;
    }
    // REP must answer every request before it can receive the next one.
    if (!socket_.Send(Handle(*request)).ok()) break;
  }
  // Flag first: a context termination waiting for the Close below then sees running() false.
  exited_.store(true);
  // Close here so a terminating context is not kept waiting for this socket.
  socket_.Close();
}

Frames ZapHandler::Handle(const Frames& req) {
  const std::string request_id = req.size() > kRequestId ? req[kRequestId] : "";
  auto reply = [&](std::string_view code, std::string_view text, std::string user_id) {
    return Frames{"1.0", request_id, std::string(code), std::string(text), std::move(user_id), ""};
  };
  ZapDenial d{.key_prefix = "-",
              .address = req.size() > kAddress ? Printable(req[kAddress]) : "?",
              .mechanism = req.size() > kMechanism ? Printable(req[kMechanism]) : "?",
              .reason = ZapDenyReason::kMalformed};
  if (req.size() < kCredentials || req[kVersion] != "1.0") {
    Deny(d);
    return reply("400", ZapDenyReasonName(d.reason), "");
  }
  // Key first, so every denial of a CURVE client names it.
  std::string key;
  if (req[kMechanism] == "CURVE" && req.size() == kCredentials + 1 &&
      req[kCredentials].size() == 32) {
    char z85[kZ85KeyLength + 1] = {};
    zmq_z85_encode(z85, reinterpret_cast<const uint8_t*>(req[kCredentials].data()), 32);
    key = z85;
    d.key_prefix = KeyPrefix(key);
  }
  if (req[kDomain] != domain_) {
    d.reason = ZapDenyReason::kWrongDomain;
  } else if (req[kMechanism] != "CURVE") {
    d.reason = ZapDenyReason::kNotCurve;
  } else if (key.empty()) {
    d.reason = ZapDenyReason::kMalformed;
  } else {
    std::lock_guard<std::mutex> lock(mu_);
    const bool revoked = file_revoked_.Contains(key) || runtime_revoked_.Contains(key);
    if (!revoked && (file_allow_.Contains(key) || runtime_allow_.Contains(key))) {
      ++stats_.accepted;
      return reply("200", "OK", key);
    }
    d.reason = revoked ? ZapDenyReason::kRevokedKey : ZapDenyReason::kUnknownKey;
  }
  const ZapDenyReason reason = d.reason;
  Deny(std::move(d));
  return reply("400", ZapDenyReasonName(reason), "");
}

void ZapHandler::Deny(ZapDenial d) {
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.denied;
  ++stats_.denied_by_reason[static_cast<int>(d.reason)];
  if (log_denials_) {
    // A client reconnecting in a loop must not flood the log: at most kLogLinesPerSecond.
    const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    if (now != log_second_) {
      if (suppressed_ > 0) {
        std::fprintf(stderr, "tg zap: %llu more denials not shown\n",
                     static_cast<unsigned long long>(suppressed_));
      }
      log_second_ = now;
      logged_this_second_ = 0;
      suppressed_ = 0;
    }
    if (logged_this_second_++ < kLogLinesPerSecond) {
      std::fprintf(stderr, "tg zap: denied %s client key %s from %s (domain '%s'): %s\n",
                   d.mechanism.c_str(), d.key_prefix.c_str(), d.address.c_str(), domain_.c_str(),
                   std::string(ZapDenyReasonName(d.reason)).c_str());
    } else {
      ++suppressed_;
    }
  }
  recent_.push_back(std::move(d));
  if (recent_.size() > kRecentDenials) recent_.pop_front();
}

absl::Status ZapHandler::Allow(std::string_view public_z85) {
  RETURN_IF_ERROR(ValidateZ85Key(public_z85));
  std::lock_guard<std::mutex> lock(mu_);
  runtime_revoked_.Remove(public_z85);
  runtime_allow_.Add(std::string(public_z85), "Allow()");
  return absl::OkStatus();
}

absl::Status ZapHandler::Revoke(std::string_view public_z85) {
  RETURN_IF_ERROR(ValidateZ85Key(public_z85));
  std::lock_guard<std::mutex> lock(mu_);
  runtime_revoked_.Add(std::string(public_z85), "Revoke()");
  return absl::OkStatus();
}

absl::Status ZapHandler::Reload() {
  KeyList allow, revoked;
  if (!allowlist_path_.empty()) {
    ASSIGN_OR_RETURN(allow, LoadKeyList(allowlist_path_));
  }
  if (!revocation_path_.empty()) {
    ASSIGN_OR_RETURN(revoked, LoadKeyList(revocation_path_));
  }
  std::lock_guard<std::mutex> lock(mu_);
  file_allow_ = std::move(allow);
  file_revoked_ = std::move(revoked);
  return absl::OkStatus();
}

bool ZapHandler::IsAllowed(std::string_view public_z85) const {
  std::lock_guard<std::mutex> lock(mu_);
  return IsAllowedLocked(std::string(public_z85));
}

bool ZapHandler::IsAllowedLocked(const std::string& key) const {
  if (file_revoked_.Contains(key) || runtime_revoked_.Contains(key)) return false;
  return file_allow_.Contains(key) || runtime_allow_.Contains(key);
}

ZapStats ZapHandler::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

std::vector<ZapDenial> ZapHandler::RecentDenials() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {recent_.begin(), recent_.end()};
}

}  // namespace tg::autotune::net
