// File: autotune/compile/relayed_preparer.h
// A CandidatePreparer that reaches its compile server through someone else: a worker's
// sandboxed child, which has no sockets, hands each encoded request to its daemon
// (workers/child_main.h DeviceGate::AskRelay), whose CompileRelay forwards it. Parts, checks
// and refusals as RemotePreparer's (compile_server_client.h); an empty answer (the server did
// not answer in time) only loses this batch.
//
// Example:
//   auto p = std::make_shared<RelayedPreparer>(target, [&](std::string request) -> absl::StatusOr<std::string> {
//     return gate->AskRelay(request);
//   });
#ifndef AUTOTUNE_COMPILE_RELAYED_PREPARER_H_
#define AUTOTUNE_COMPILE_RELAYED_PREPARER_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/compile/compile_server_client.h"

namespace tg::autotune {

class RelayedPreparer : public CompileServerClient {
 public:
  // The answer's bytes for a request's, "" for none; an error: not asked (Cancelled: quietly).
  using AskRelay = std::function<absl::StatusOr<std::string>(std::string request)>;
  RelayedPreparer(codec::CompileTargetInfo target, AskRelay ask)
      : CompileServerClient(std::move(target), "the worker's compile server"), ask_(std::move(ask)) {}

 private:
  absl::StatusOr<Answer> Ask(const codec::PrepareRequest& request) override;

  AskRelay ask_;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_RELAYED_PREPARER_H_
