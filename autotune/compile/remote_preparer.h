// File: autotune/compile/remote_preparer.h
// A CandidatePreparer that has a compile server (compile_server.h) prepare each batch: the
// client side of compile-only workers. LocalMeasurerOptions::preparer takes one.
//
// Each batch is asked in parts that fit one answer (compile_server_client.h); the answer's
// programs are checked against the task and loaded by the measurer as its own. When the server
// cannot prepare a batch, Prepare returns the error and the measurer prepares the batch itself,
// so a search never stops for the server:
// - no answer within reply_timeout_s (server down, overloaded, unreachable): and the next
//   batches for retry_after_s are prepared locally without asking, so a dead server costs one
//   timeout per retry_after_s, not one per batch;
// - the server prepares for another target (arch, renderer limits, compiler version) or
//   speaks another protocol version: every later batch is prepared locally too (the answer
//   would not change), with the reason given once.
//
// Example:
//   ASSIGN_OR_RETURN(auto remote, RemotePreparer::Connect(TargetInfoOf("CUDA", "sm_90", DeviceCompiler(*gpu)),
//                                                         {.endpoint = "tcp://cpu7:5601", .security = s}));
//   LocalMeasurerOptions o{.device = "CUDA"};
//   o.preparer = std::move(remote);
#ifndef AUTOTUNE_COMPILE_REMOTE_PREPARER_H_
#define AUTOTUNE_COMPILE_REMOTE_PREPARER_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/compile/compile_server_client.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"
#include "tinygrad/base/clock.h"

namespace tg::autotune {

struct RemotePreparerOptions {
  std::string endpoint;  // the compile server: tcp://HOST:PORT (CURVE), ipc://PATH
  net::SecurityOptions security;
  double reply_timeout_s = 120;  // a batch not answered by then is prepared locally
  double retry_after_s = 60;     // after a timeout, how long batches are prepared locally
  Clock* clock = nullptr;        // for retry_after_s; null: the machine's steady clock
  size_t max_reply_bytes = codec::kMaxPrepareReplyBytes;  // the server's limit on one answer
};

class RemotePreparer : public CompileServerClient {
 public:
  // `target`: what this machine's device needs (TargetInfoOf its renderer and compiler).
  // Errors: a bad endpoint or security options. Connecting itself never waits for the server.
  static absl::StatusOr<std::unique_ptr<RemotePreparer>> Connect(codec::CompileTargetInfo target,
                                                                 RemotePreparerOptions options);
  ~RemotePreparer() override;

 private:
  RemotePreparer(codec::CompileTargetInfo target, RemotePreparerOptions options);
  // A new socket to the server (dropping whatever the old one still queued).
  absl::Status Reconnect();
  absl::StatusOr<Answer> Ask(const codec::PrepareRequest& request) override;

  RemotePreparerOptions options_;
  Clock& clock_;
  std::unique_ptr<net::ZmqContext> ctx_;
  net::ZmqSocket socket_;
  absl::Status broken_;                          // a socket that could not be made again
  std::optional<Clock::TimePoint> quiet_until_;  // after a timeout
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_REMOTE_PREPARER_H_
