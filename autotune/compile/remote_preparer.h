// File: autotune/compile/remote_preparer.h
// A CandidatePreparer that has a compile server (compile_server.h) prepare each batch: the
// client side of compile-only workers. LocalMeasurerOptions::preparer takes one.
//
// Each batch is one request; the answer's programs are checked against the task
// (prepared_program.h) and loaded by the measurer as its own. When the server cannot prepare a
// batch, Prepare returns the error and the measurer prepares the batch itself, so a search
// never stops for the server:
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

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/measure/prepare_batch.h"
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
};

class RemotePreparer : public CandidatePreparer {
 public:
  // `target`: what this machine's device needs (TargetInfoOf its renderer and compiler).
  // Errors: a bad endpoint or security options. Connecting itself never waits for the server.
  static absl::StatusOr<std::unique_ptr<RemotePreparer>> Connect(codec::CompileTargetInfo target,
                                                                 RemotePreparerOptions options);
  ~RemotePreparer() override;

  absl::StatusOr<std::vector<PreparedCandidate>> Prepare(const KernelTask& task,
                                                         std::span<const std::vector<Opt>> candidates,
                                                         const MeasureOptions& options,
                                                         std::vector<CandidateResult>& results) override;

  uint64_t batches_prepared() const { return prepared_; }  // answered by the server
  uint64_t batches_refused() const { return refused_; }    // left to the measurer

 private:
  RemotePreparer(codec::CompileTargetInfo target, RemotePreparerOptions options);
  // A new socket to the server (dropping whatever the old one still queued).
  absl::Status Reconnect();
  // The server's answer to one request, or why there is none.
  absl::StatusOr<codec::PrepareReply> Ask(const codec::PrepareRequest& request);

  codec::CompileTargetInfo target_;
  RemotePreparerOptions options_;
  Clock& clock_;
  std::unique_ptr<net::ZmqContext> ctx_;
  net::ZmqSocket socket_;
  uint64_t next_request_ = 1;
  absl::Status refused_for_good_;                   // another target or protocol
  std::optional<Clock::TimePoint> quiet_until_;     // after a timeout
  uint64_t prepared_ = 0;
  uint64_t refused_ = 0;
};

// The programs of a server's `reply` to a request for `n` candidates of `task` from a client
// whose target is `target`, each checked (prepared_program.h), with `results` filled. Errors:
// the reply is a refusal (its status: FailedPrecondition for another target or protocol), was
// made for another target (FailedPrecondition), or holds another number of programs.
absl::StatusOr<std::vector<PreparedCandidate>> AcceptReply(codec::PrepareReply reply, const codec::CompileTargetInfo& target,
                                                           const KernelTask& task, size_t n,
                                                           std::vector<CandidateResult>& results);

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_REMOTE_PREPARER_H_
