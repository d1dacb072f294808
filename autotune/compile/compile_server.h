// File: autotune/compile/compile_server.h
// A compile server: prepares (lowers, renders, compiles) batches of candidates for GPU machines
// that only load and time them (RemotePreparer is the client). Beyond the reference: NVRTC
// needs no GPU, so a CPU machine's cores can do the preparing that otherwise competes with
// the GPU machine's own work, and its GPU waits less between batches.
//
// A server serves one target: the CandidateCompiler it is given (a renderer and compiler for
// an arch, tools/cli/compile_target.h) and that target's CompileTargetInfo. A request for
// another target or protocol version is answered with an error naming both, never prepared:
// what a candidate becomes depends on all of it. Requests are answered one at a time, each on
// all of the server's threads, in the order they come (clients queue).
//
// Security is the farm's (autotune/net/secure_endpoint.h): tcp:// with CURVE and an allowlist
// of client keys, so only the machines its operator admits can use it, and a client pins the
// server's public key, so it runs no binary from anyone else.
//
// Example:
//   net::ZmqContext ctx;
//   ASSIGN_OR_RETURN(auto server, CompileServer::Bind(ctx, compiler, target,
//                                                     {.endpoint = "tcp://*:5601", .security = s}));
//   std::atomic<bool> stop = false;
//   RETURN_IF_ERROR(server->Serve(stop));   // until `stop`
#ifndef AUTOTUNE_COMPILE_COMPILE_SERVER_H_
#define AUTOTUNE_COMPILE_COMPILE_SERVER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/compile/target_info.h"
#include "autotune/measure/prepare_batch.h"
#include "autotune/net/secure_endpoint.h"
#include "autotune/net/zmq_socket.h"

namespace tg::autotune {

// The answer to one request, without any network (what Serve sends back).
codec::PrepareReply AnswerPrepare(CandidateCompiler& compiler, const codec::CompileTargetInfo& target,
                                  const codec::PrepareRequest& request, const PrepareSettings& settings);

struct CompileServerOptions {
  std::string endpoint;  // where to bind: tcp://*:PORT (CURVE), ipc://PATH
  net::SecurityOptions security;
  int threads = 0;  // lowering and compiling threads; 0: the machine's CPUs
  // An answer bigger than this is refused (ResourceExhausted: the client asks again in parts)
  // instead of sent past the client's message limit.
  size_t max_reply_bytes = codec::kMaxPrepareReplyBytes;
  // Called after each answered request with its candidates and wall time (a log line).
  std::function<void(size_t candidates, double wall_s)> on_answer;
};

class CompileServer {
 public:
  // Binds the endpoint. Errors: a bad endpoint or security options (the message says which).
  static absl::StatusOr<std::unique_ptr<CompileServer>> Bind(net::ZmqContext& ctx, CandidateCompiler& compiler,
                                                             codec::CompileTargetInfo target,
                                                             CompileServerOptions options);

  // The bound endpoint, with a port chosen by the system resolved ("tcp://0.0.0.0:40123").
  const std::string& endpoint() const { return endpoint_; }
  const codec::CompileTargetInfo& target() const { return target_; }

  // Answers requests until `stop` is set (checked every `poll`) or the context is shut down
  // (then OK as well). Errors: the socket fails.
  absl::Status Serve(const std::atomic<bool>& stop, std::chrono::milliseconds poll = std::chrono::milliseconds(100));

  // Requests answered so far (safe to read from another thread while Serve runs).
  uint64_t answered() const { return answered_.load(); }

 private:
  CompileServer(CandidateCompiler& compiler, codec::CompileTargetInfo target, CompileServerOptions options)
      : compiler_(compiler), target_(std::move(target)), options_(std::move(options)) {}
  // The reply to one received message (a request, or bytes that are not one), and how many
  // candidates it prepared.
  std::string Answer(const std::string& bytes, size_t& candidates);

  CandidateCompiler& compiler_;
  codec::CompileTargetInfo target_;
  CompileServerOptions options_;
  net::ZmqSocket socket_;
  std::string endpoint_;
  std::atomic<uint64_t> answered_ = 0;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_COMPILE_SERVER_H_
