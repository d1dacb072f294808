// File: autotune/net/handshake_watch.cc
#include "autotune/net/handshake_watch.h"

#include <chrono>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "autotune/net/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::net {

using internal::Cat;

namespace {
// How long the thread waits for an event before looking at stop_ again: the longest a
// destructor waits.
constexpr std::chrono::milliseconds kPoll{50};
}  // namespace

std::string KeyRefusedLine(std::string_view endpoint, std::string_view client_public_z85,
                           uint32_t zap_status) {
  return Cat("the coordinator at ", endpoint, " refused this worker's key ", client_public_z85,
             " (ZAP status ", zap_status, "): is it in the coordinator's allowlist?");
}

std::string CurveHandshakeFailedLine(std::string_view endpoint, std::string_view why) {
  return Cat("the CURVE handshake with the coordinator at ", endpoint, " failed (", why,
             "): is the server key this worker was given the coordinator's public key?");
}

absl::StatusOr<std::unique_ptr<HandshakeWatch>> HandshakeWatch::Start(
    ZmqContext& ctx, ZmqSocket& socket, const SecurityOptions& security,
    std::function<void(std::string_view)> report) {
  if (!security.curve_keys.has_value()) return std::unique_ptr<HandshakeWatch>();
  ASSIGN_OR_RETURN(SocketMonitor monitor, SocketMonitor::Start(ctx, socket));
  return std::unique_ptr<HandshakeWatch>(new HandshakeWatch(
      std::move(monitor), security.curve_keys->public_z85, std::move(report)));
}

HandshakeWatch::HandshakeWatch(SocketMonitor monitor, std::string client_public_z85,
                               std::function<void(std::string_view)> report)
    : monitor_(std::move(monitor)),
      client_public_z85_(std::move(client_public_z85)),
      report_(std::move(report)),
      thread_([this] { Loop(); }) {}

HandshakeWatch::~HandshakeWatch() {
  stop_.store(true);
  thread_.join();
}

void HandshakeWatch::Loop() {
  bool said_refused = false, said_failed = false;
  while (!stop_.load()) {
    absl::StatusOr<SocketEvent> e = monitor_.Next(kPoll);
    if (!e.ok()) {
      if (IsTimeout(e.status())) continue;
      return;  // the context is going away (or the pipe broke): nothing more to say
    }
    if (e->kind == SocketEventKind::kHandshakeFailedAuth && !said_refused) {
      said_refused = true;
      report_(KeyRefusedLine(e->endpoint, client_public_z85_, e->value));
    } else if (e->kind == SocketEventKind::kHandshakeFailedProtocol && !said_failed) {
      said_failed = true;
      report_(CurveHandshakeFailedLine(e->endpoint, Cat("ZMQ protocol error ", absl::StrFormat("0x%x", e->value))));
    } else if (e->kind == SocketEventKind::kHandshakeFailedNoDetail && !said_failed) {
      // What a server that cannot decrypt our HELLO (we hold the wrong server key) looks like
      // from here: it hangs up mid-handshake (EPIPE), and libzmq retries every interval.
      said_failed = true;
      report_(CurveHandshakeFailedLine(e->endpoint, Cat("the coordinator hung up: ", std::strerror(static_cast<int>(e->value)))));
    }
  }
}

}  // namespace tg::autotune::net
