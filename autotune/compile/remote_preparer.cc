// File: autotune/compile/remote_preparer.cc
#include "autotune/compile/remote_preparer.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "autotune/codec/compile_codec.h"
#include "autotune/compile/prepared_program.h"
#include "autotune/compile/target_info.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

RemotePreparer::RemotePreparer(codec::CompileTargetInfo target, RemotePreparerOptions options)
    : target_(std::move(target)),
      options_(std::move(options)),
      clock_(options_.clock != nullptr ? *options_.clock : Clock::Real()),
      ctx_(std::make_unique<net::ZmqContext>()) {}

RemotePreparer::~RemotePreparer() { socket_.Close(); }

absl::StatusOr<std::unique_ptr<RemotePreparer>> RemotePreparer::Connect(codec::CompileTargetInfo target,
                                                                       RemotePreparerOptions options) {
  std::unique_ptr<RemotePreparer> p(new RemotePreparer(std::move(target), std::move(options)));
  RETURN_IF_ERROR(p->Reconnect());
  return p;
}

absl::Status RemotePreparer::Reconnect() {
  socket_.Close();
  ASSIGN_OR_RETURN(socket_, net::ZmqSocket::Create(*ctx_, net::SocketType::kDealer));
  return net::ConfigureClient(socket_, options_.endpoint, options_.security);
}

absl::StatusOr<codec::PrepareReply> RemotePreparer::Ask(const codec::PrepareRequest& request) {
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(FromSeconds(options_.reply_timeout_s));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto no_answer = [&] {
    quiet_until_ = clock_.Now() + FromSeconds(options_.retry_after_s);
    // a fresh socket: the request still queued for an unreachable server must not reach it later
    if (absl::Status s = Reconnect(); !s.ok()) refused_for_good_ = s;
    return absl::DeadlineExceededError(absl::StrCat("no answer within ", options_.reply_timeout_s,
                                                    " s; batches are prepared here for the next ",
                                                    options_.retry_after_s, " s"));
  };
  RETURN_IF_ERROR(socket_.SetSendTimeout(timeout));
  absl::Status sent = socket_.Send({codec::EncodeCompileMessage(request)});
  if (net::IsTimeout(sent)) return no_answer();
  RETURN_IF_ERROR(sent);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return no_answer();
    absl::StatusOr<net::Frames> in = socket_.ReceiveFor(left);
    if (net::IsTimeout(in.status())) return no_answer();
    RETURN_IF_ERROR(in.status());
    if (in->size() != 1) return absl::DataLossError(absl::StrCat("an answer of ", in->size(), " frames, not 1"));
    ASSIGN_OR_RETURN(codec::CompileMessage m, codec::DecodeCompileMessage((*in)[0]));
    auto* reply = std::get_if<codec::PrepareReply>(&m);
    if (reply == nullptr) return absl::DataLossError("the server sent a request, not an answer");
    // (an answer to a request that timed out earlier: not this one's)
    if (reply->request_id == request.request_id || reply->request_id == 0) return std::move(*reply);
  }
}

absl::StatusOr<std::vector<PreparedCandidate>> RemotePreparer::Prepare(const KernelTask& task,
                                                                       std::span<const std::vector<Opt>> candidates,
                                                                       const MeasureOptions& options,
                                                                       std::vector<CandidateResult>& results) {
  const std::string where = absl::StrCat("compile server ", options_.endpoint, ": ");
  auto refuse = [&](const absl::Status& s) {
    ++refused_;
    return absl::Status(s.code(), absl::StrCat(where, s.message()));
  };
  if (!refused_for_good_.ok()) return refuse(refused_for_good_);
  if (quiet_until_ && clock_.Now() < *quiet_until_) return refuse(absl::UnavailableError("did not answer lately"));
  quiet_until_.reset();

  codec::PrepareRequest request{.request_id = next_request_++,
                                .target = target_,
                                .task = task,
                                .candidates = std::vector<std::vector<Opt>>(candidates.begin(), candidates.end()),
                                .options = options};
  absl::StatusOr<codec::PrepareReply> reply = Ask(request);
  if (!reply.ok()) return refuse(reply.status());
  absl::StatusOr<std::vector<PreparedCandidate>> out = AcceptReply(*std::move(reply), target_, task, candidates.size(), results);
  if (!out.ok()) {
    // another target or protocol stays so: ask no more
    if (absl::IsFailedPrecondition(out.status())) refused_for_good_ = out.status();
    return refuse(out.status());
  }
  ++prepared_;
  return out;
}

absl::StatusOr<std::vector<PreparedCandidate>> AcceptReply(codec::PrepareReply reply, const codec::CompileTargetInfo& target,
                                                           const KernelTask& task, size_t n,
                                                           std::vector<CandidateResult>& results) {
  if (!reply.status.ok()) return reply.status;
  if (std::string why = TargetMismatch(reply.target, target); !why.empty())
    return absl::FailedPreconditionError(absl::StrCat("it prepared for another target: ", why));
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
