// File: autotune/compile/relayed_preparer.cc
#include "autotune/compile/relayed_preparer.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "autotune/codec/compile_codec.h"
#include "autotune/compile/remote_preparer.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

absl::StatusOr<std::vector<PreparedCandidate>> RelayedPreparer::Prepare(const KernelTask& task,
                                                                        std::span<const std::vector<Opt>> candidates,
                                                                        const MeasureOptions& options,
                                                                        std::vector<CandidateResult>& results) {
  auto named = [](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat("the worker's compile server: ", s.message()));
  };
  if (!refused_for_good_.ok()) return named(refused_for_good_);
  codec::PrepareRequest request{.request_id = next_request_++,
                                .target = target_,
                                .task = task,
                                .candidates = std::vector<std::vector<Opt>>(candidates.begin(), candidates.end()),
                                .options = options};
  ASSIGN_OR_RETURN(std::string answer, ask_(codec::EncodeCompileMessage(request)));
  if (answer.empty()) return named(absl::UnavailableError("no answer in time"));
  absl::StatusOr<codec::CompileMessage> m = codec::DecodeCompileMessage(answer);
  if (!m.ok()) return named(m.status());
  auto* reply = std::get_if<codec::PrepareReply>(&*m);
  if (reply == nullptr) return named(absl::DataLossError("a request instead of an answer"));
  if (reply->request_id != request.request_id && reply->request_id != 0)
    return named(absl::DataLossError(absl::StrCat("the answer to request ", reply->request_id, ", not ", request.request_id)));
  absl::StatusOr<std::vector<PreparedCandidate>> out =
      AcceptReply(*std::move(reply), target_, task, candidates.size(), results);
  if (!out.ok() && absl::IsFailedPrecondition(out.status())) refused_for_good_ = out.status();
  if (!out.ok()) return named(out.status());
  return out;
}

}  // namespace tg::autotune
