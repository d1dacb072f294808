// File: autotune/compile/compile_server_client.cc
#include "autotune/compile/compile_server_client.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "autotune/compile/prepared_program.h"
#include "autotune/compile/target_info.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

CompileServerClient::CompileServerClient(codec::CompileTargetInfo target, std::string name, size_t max_reply_bytes)
    : target_(std::move(target)), name_(std::move(name)), max_reply_bytes_(max_reply_bytes) {}

absl::StatusOr<std::vector<PreparedCandidate>> CompileServerClient::Prepare(const KernelTask& task,
                                                                            std::span<const std::vector<Opt>> candidates,
                                                                            const MeasureOptions& options,
                                                                            std::vector<CandidateResult>& results) {
  auto refuse = [&](const absl::Status& s) {
    ++refused_;
    std::fill(results.begin(), results.end(), CandidateResult{});
    return absl::Status(s.code(), absl::StrCat(name_, ": ", s.message()));
  };
  if (!refused_for_good_.ok()) return refuse(refused_for_good_);
  const size_t n = candidates.size();
  std::vector<PreparedCandidate> prep(n);
  for (size_t start = 0; start < n;) {
    const size_t len = std::min(n - start, part_size_);
    absl::StatusOr<std::vector<PreparedCandidate>> part =
        AskPart(task, candidates.subspan(start, len), options, std::span(results).subspan(start, len));
    if (absl::IsResourceExhausted(part.status()) && len > 1) {
      part_size_ = len / 2;  // the same candidates again, in halves
      continue;
    }
    if (!part.ok()) {
      // another target or protocol stays so: ask no more
      if (absl::IsFailedPrecondition(part.status())) refused_for_good_ = part.status();
      return refuse(part.status());
    }
    for (size_t i = 0; i < len; ++i) {
      prep[start + i] = std::move((*part)[i]);
      CandidateResult& r = results[start + i];
      if (r.duplicate_of >= 0) MarkDuplicate(static_cast<int>(start) + r.duplicate_of, r);
    }
    start += len;
  }
  // the rules again over the whole batch: the server applied them to each part alone
  ApplyBatchRules(task, options, nullptr, prep, results);
  ++prepared_;
  return prep;
}

absl::StatusOr<std::vector<PreparedCandidate>> CompileServerClient::AskPart(const KernelTask& task,
                                                                            std::span<const std::vector<Opt>> candidates,
                                                                            const MeasureOptions& options,
                                                                            std::span<CandidateResult> results) {
  codec::PrepareRequest request{.request_id = next_request_++,
                                .target = target_,
                                .task = task,
                                .candidates = std::vector<std::vector<Opt>>(candidates.begin(), candidates.end()),
                                .options = options};
  ASSIGN_OR_RETURN(Answer answer, Ask(request));
  if (answer.reply.request_id != request.request_id && answer.reply.request_id != 0)
    return absl::DataLossError(
        absl::StrCat("the answer to request ", answer.reply.request_id, ", not ", request.request_id));
  ASSIGN_OR_RETURN(std::vector<PreparedCandidate> out, AcceptReply(std::move(answer.reply), target_, task, results));
  ++parts_;
  // as many candidates as fit half an answer at this answer's bytes per candidate
  const size_t per_candidate = std::max<size_t>(1, answer.bytes / std::max<size_t>(1, results.size()));
  part_size_ = std::max<size_t>(1, max_reply_bytes_ / 2 / per_candidate);
  return out;
}

absl::StatusOr<std::vector<PreparedCandidate>> AcceptReply(codec::PrepareReply reply, const codec::CompileTargetInfo& target,
                                                           const KernelTask& task, std::span<CandidateResult> results) {
  if (!reply.status.ok()) return reply.status;
  if (std::string why = TargetMismatch(reply.target, target); !why.empty())
    return absl::FailedPreconditionError(absl::StrCat("it prepared for another target: ", why));
  const size_t n = results.size();
  if (reply.programs.size() != n)
    return absl::DataLossError(absl::StrCat(reply.programs.size(), " programs for ", n, " candidates"));
  std::vector<PreparedCandidate> out(n);
  for (size_t i = 0; i < n; ++i) {
    FromWire(std::move(reply.programs[i]), task, out[i], results[i]);
    CandidateResult& r = results[i];
    if (r.duplicate_of < -1 || r.duplicate_of >= static_cast<int>(i)) {
      out[i].pending = false;
      r.outcome = Outcome::kCompileError;
      r.error = absl::StrCat("the compile server called it a duplicate of candidate ", r.duplicate_of);
      r.duplicate_of = -1;
    }
  }
  return out;
}

}  // namespace tg::autotune
