// File: autotune/compile/compile_server.cc
#include "autotune/compile/compile_server.h"

#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/codec/compile_codec.h"
#include "autotune/compile/prepared_program.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

codec::PrepareReply AnswerPrepare(CandidateCompiler& compiler, const codec::CompileTargetInfo& target,
                                  const codec::PrepareRequest& request, const PrepareSettings& settings) {
  codec::PrepareReply reply{.request_id = request.request_id, .target = target};
  if (request.protocol_version != codec::kCompileProtocolVersion) {
    reply.status = absl::FailedPreconditionError(absl::StrCat("the request speaks compile protocol version ",
                                                              request.protocol_version, ", this server ",
                                                              codec::kCompileProtocolVersion));
    return reply;
  }
  if (std::string why = TargetMismatch(target, request.target); !why.empty()) {
    reply.status = absl::FailedPreconditionError(absl::StrCat("this server prepares for another target: ", why));
    return reply;
  }
  Clock& clock = settings.clock != nullptr ? *settings.clock : Clock::Real();
  const Clock::TimePoint t0 = clock.Now();
  std::vector<CandidateResult> results(request.candidates.size());
  absl::StatusOr<std::vector<PreparedCandidate>> prep =
      PrepareBatch(compiler, request.task, request.candidates, request.options, settings, results);
  if (!prep.ok()) {
    reply.status = prep.status();
    return reply;
  }
  reply.programs.reserve(results.size());
  for (size_t i = 0; i < results.size(); ++i)
    reply.programs.push_back(ToWire(std::move((*prep)[i]), results[i], request.task));
  reply.prepare_wall_s = clock.SecondsSince(t0);
  return reply;
}

absl::StatusOr<std::unique_ptr<CompileServer>> CompileServer::Bind(net::ZmqContext& ctx, CandidateCompiler& compiler,
                                                                   codec::CompileTargetInfo target,
                                                                   CompileServerOptions options) {
  std::unique_ptr<CompileServer> s(new CompileServer(compiler, std::move(target), std::move(options)));
  ASSIGN_OR_RETURN(s->socket_, net::ZmqSocket::Create(ctx, net::SocketType::kRouter));
  RETURN_IF_ERROR(net::ConfigureServer(s->socket_, s->options_.endpoint, s->options_.security));
  ASSIGN_OR_RETURN(s->endpoint_, s->socket_.LastEndpoint());
  return s;
}

std::string CompileServer::Answer(const std::string& bytes, size_t& candidates) {
  candidates = 0;
  absl::StatusOr<codec::CompileMessage> m = codec::DecodeCompileMessage(bytes);
  const codec::PrepareRequest* request = m.ok() ? std::get_if<codec::PrepareRequest>(&*m) : nullptr;
  if (request == nullptr) {
    codec::PrepareReply bad{.target = target_};
    bad.status = absl::InvalidArgumentError(m.ok() ? std::string("a compile server answers prepare requests only")
                                                   : absl::StrCat("unreadable request: ", m.status().message()));
    return codec::EncodeCompileMessage(bad);
  }
  candidates = request->candidates.size();
  const int threads = options_.threads > 0 ? options_.threads
                                           : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::string answer =
      codec::EncodeCompileMessage(AnswerPrepare(compiler_, target_, *request, PrepareSettings{.threads = threads}));
  if (answer.size() <= options_.max_reply_bytes) return answer;
  codec::PrepareReply too_big{.request_id = request->request_id, .target = target_};
  too_big.status = absl::ResourceExhaustedError(
      absl::StrCat("the answer to ", candidates, " candidates comes to ", answer.size(), " bytes, more than the ",
                   options_.max_reply_bytes, " one answer may carry: ask for fewer at a time"));
  return codec::EncodeCompileMessage(too_big);
}

absl::Status CompileServer::Serve(const std::atomic<bool>& stop, std::chrono::milliseconds poll) {
  while (!stop.load()) {
    absl::StatusOr<net::Frames> in = socket_.ReceiveFor(poll);
    if (net::IsTimeout(in.status())) continue;
    if (net::IsTerminated(in.status())) return absl::OkStatus();
    RETURN_IF_ERROR(in.status());
    // [the client's routing id, its envelope frames (a relay's tag), the request]: the answer
    // goes back in the same envelope
    if (in->size() < 2) continue;
    const Clock::TimePoint t0 = Clock::Real().Now();
    size_t candidates = 0;
    std::string reply = Answer(in->back(), candidates);
    in->back() = std::move(reply);
    // counted before it leaves: a client holding its answer sees it counted
    ++answered_;
    absl::Status sent = socket_.Send(*in);
    if (net::IsTerminated(sent)) return absl::OkStatus();
    // a client gone meanwhile (EHOSTUNREACH) costs only its answer
    if (options_.on_answer) options_.on_answer(candidates, Clock::Real().SecondsSince(t0));
  }
  return absl::OkStatus();
}

}  // namespace tg::autotune
