// File: autotune/compile/relayed_preparer.h
// A CandidatePreparer that reaches its compile server through someone else: a worker's
// sandboxed child, which has no sockets, hands each encoded request to its daemon
// (workers/child_main.h DeviceGate::AskRelay), whose CompileRelay forwards it. The answer's
// programs are checked as RemotePreparer checks them (AcceptReply).
//
// A server for another target or protocol is asked no more (every later batch is prepared
// locally); an empty answer (the server did not answer in time) only loses this batch.
//
// Example:
//   auto p = std::make_shared<RelayedPreparer>(target, [&](std::string request) -> absl::StatusOr<std::string> {
//     return gate->AskRelay(request);
//   });
#ifndef AUTOTUNE_COMPILE_RELAYED_PREPARER_H_
#define AUTOTUNE_COMPILE_RELAYED_PREPARER_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/measure/prepare_batch.h"

namespace tg::autotune {

class RelayedPreparer : public CandidatePreparer {
 public:
  // The answer's bytes for a request's, "" for none; an error: not asked (Cancelled: quietly).
  using Ask = std::function<absl::StatusOr<std::string>(std::string request)>;
  RelayedPreparer(codec::CompileTargetInfo target, Ask ask) : target_(std::move(target)), ask_(std::move(ask)) {}

  absl::StatusOr<std::vector<PreparedCandidate>> Prepare(const KernelTask& task,
                                                         std::span<const std::vector<Opt>> candidates,
                                                         const MeasureOptions& options,
                                                         std::vector<CandidateResult>& results) override;

 private:
  codec::CompileTargetInfo target_;
  Ask ask_;
  uint64_t next_request_ = 1;
  absl::Status refused_for_good_;  // another target or protocol
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_RELAYED_PREPARER_H_
