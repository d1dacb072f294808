// File: autotune/compile/remote_preparer.cc
#include "autotune/compile/remote_preparer.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "autotune/codec/compile_codec.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

RemotePreparer::RemotePreparer(codec::CompileTargetInfo target, RemotePreparerOptions options)
    : CompileServerClient(std::move(target), absl::StrCat("compile server ", options.endpoint),
                          options.max_reply_bytes),
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

absl::StatusOr<RemotePreparer::Answer> RemotePreparer::Ask(const codec::PrepareRequest& request) {
  RETURN_IF_ERROR(broken_);
  if (quiet_until_ && clock_.Now() < *quiet_until_) return absl::UnavailableError("did not answer lately");
  quiet_until_.reset();
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(FromSeconds(options_.reply_timeout_s));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto no_answer = [&] {
    quiet_until_ = clock_.Now() + FromSeconds(options_.retry_after_s);
    // a fresh socket: the request still queued for an unreachable server must not reach it later
    if (absl::Status s = Reconnect(); !s.ok()) broken_ = s;
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
    if (reply->request_id == request.request_id || reply->request_id == 0)
      return Answer{.reply = std::move(*reply), .bytes = (*in)[0].size()};
  }
}

}  // namespace tg::autotune
