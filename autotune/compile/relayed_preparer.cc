// File: autotune/compile/relayed_preparer.cc
#include "autotune/compile/relayed_preparer.h"

#include <utility>

#include "autotune/codec/compile_codec.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

absl::StatusOr<RelayedPreparer::Answer> RelayedPreparer::Ask(const codec::PrepareRequest& request) {
  ASSIGN_OR_RETURN(std::string answer, ask_(codec::EncodeCompileMessage(request)));
  if (answer.empty()) return absl::UnavailableError("no answer in time");
  ASSIGN_OR_RETURN(codec::CompileMessage m, codec::DecodeCompileMessage(answer));
  auto* reply = std::get_if<codec::PrepareReply>(&m);
  if (reply == nullptr) return absl::DataLossError("a request instead of an answer");
  return Answer{.reply = std::move(*reply), .bytes = answer.size()};
}

}  // namespace tg::autotune
