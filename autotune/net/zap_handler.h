// File: autotune/net/zap_handler.h
// A ZAP (ZeroMQ RFC 27) handler: the thread that libzmq asks, during each CURVE handshake on a
// server socket of the same context, whether the client's public key may connect.
//
// Why it must exist: a CURVE server only authenticates *itself*. Without a handler on
// inproc://zeromq.zap.01, libzmq admits any client that knows the server's public key (the
// "Stonehouse" pattern). The server sockets set a ZAP domain and ZMQ_ZAP_ENFORCE_DOMAIN
// (ConfigureServer does), so with the handler stopped or absent handshakes fail: fail closed.
//
// Policy: admit a request only if its domain is ours, its mechanism is CURVE, and its client key
// is in the allowlist and not revoked. Everything else gets status 400 and is counted and logged
// (key prefix, peer address, reason). Admitted clients get their Z85 public key as the ZAP
// User-Id, which the server reads per message (PeerInfo::user_id) to re-check revocations on
// connections that were open before a key was revoked.
//
// Example:
//   ASSIGN_OR_RETURN(auto zap, ZapHandler::Start(ctx, {.allowlist = keys}));
//   ... ConfigureServer(router, "tcp://*:5555", SecurityOptions::CurveServer(kp, zap.get()));
//   zap->Revoke(key);   // takes effect for the next handshake
#ifndef AUTOTUNE_NET_ZAP_HANDLER_H_
#define AUTOTUNE_NET_ZAP_HANDLER_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/zmq_socket.h"

namespace tg::autotune::net {

inline constexpr std::string_view kDefaultZapDomain = "tg-farm";
inline constexpr std::string_view kZapEndpoint = "inproc://zeromq.zap.01";

struct ZapOptions {
  std::string domain = std::string(kDefaultZapDomain);
  KeyList allowlist;
  KeyList revoked;
  // When set, Reload() reads the lists again from these paths (LoadKeyList formats).
  std::string allowlist_path;
  std::string revocation_path;
  bool log_denials = true;  // one stderr line per denial (at most 10 a second)
};

enum class ZapDenyReason { kMalformed, kWrongDomain, kNotCurve, kUnknownKey, kRevokedKey };
inline constexpr int kNumZapDenyReasons = 5;
std::string_view ZapDenyReasonName(ZapDenyReason r);

struct ZapDenial {
  std::string key_prefix;  // KeyPrefix of the client key, "-" when the mechanism has none
  std::string address;     // the client's IP address as libzmq reports it
  std::string mechanism;   // "CURVE", "NULL", "PLAIN", ...
  ZapDenyReason reason;
};

struct ZapStats {
  uint64_t accepted = 0;
  uint64_t denied = 0;
  std::array<uint64_t, kNumZapDenyReasons> denied_by_reason{};  // indexed by ZapDenyReason
};

class ZapHandler {
 public:
  // Binds kZapEndpoint on `ctx` (fails if another handler already serves it) and starts the
  // thread. Loads the lists from the paths in `opts` when given, adding to opts' lists.
  static absl::StatusOr<std::unique_ptr<ZapHandler>> Start(ZmqContext& ctx, ZapOptions opts);
  ~ZapHandler();  // Stop()
  ZapHandler(const ZapHandler&) = delete;
  ZapHandler& operator=(const ZapHandler&) = delete;

  // Stops the thread and unbinds; later handshakes on enforcing servers fail. Idempotent.
  void Stop();
  bool running() const { return thread_.joinable() && !stop_.load() && !exited_.load(); }

  // Admits `key` from now on (also undoes a run-time Revoke; a key in the revocation *file*
  // stays revoked until the file changes and Reload() runs).
  absl::Status Allow(std::string_view public_z85);
  // Refuses `key` from the next handshake on; survives Reload().
  absl::Status Revoke(std::string_view public_z85);
  // Re-reads allowlist_path / revocation_path. On an error the old lists stay in force.
  absl::Status Reload();
  // Whether `public_z85` would be admitted now (servers re-check User-Ids with this).
  bool IsAllowed(std::string_view public_z85) const;

  ZapStats stats() const;
  std::vector<ZapDenial> RecentDenials() const;  // the last 64, oldest first
  const std::string& domain() const { return domain_; }
  void* context() const { return ctx_; }

 private:
  ZapHandler(void* ctx, ZmqSocket socket, ZapOptions opts);
  void Run();
  // Answers one request: the reply frames (RFC 27 section "Replies").
  Frames Handle(const Frames& request);
  void Deny(ZapDenial d);
  bool IsAllowedLocked(const std::string& key) const;

  void* ctx_;
  const std::string domain_;
  const std::string allowlist_path_;
  const std::string revocation_path_;
  const bool log_denials_;
  ZmqSocket socket_;  // owned by the thread while it runs
  std::atomic<bool> stop_{false};
  std::atomic<bool> exited_{false};  // the thread left its loop (context terminated)
  std::thread thread_;

  mutable std::mutex mu_;
  KeyList file_allow_, file_revoked_;        // from opts and the files (replaced by Reload)
  KeyList runtime_allow_, runtime_revoked_;  // from Allow()/Revoke()
  ZapStats stats_;
  std::deque<ZapDenial> recent_;
  int64_t log_second_ = 0;  // rate limit of denial log lines
  int logged_this_second_ = 0;
  uint64_t suppressed_ = 0;
};

}  // namespace tg::autotune::net

#endif  // AUTOTUNE_NET_ZAP_HANDLER_H_
