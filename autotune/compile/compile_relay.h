// File: autotune/compile/compile_relay.h
// A worker daemon's line to its compile server. The worker's children measure sandboxed, with
// no sockets, so a child hands its prepare request (an encoded codec::PrepareRequest) to the
// daemon, whose relay forwards it and hands back the server's answer as bytes. Requests of
// several children are in flight at once, each tagged so its answer finds it.
//
// A request the server does not answer within reply_timeout_s is answered "" (none: the child
// prepares the batch itself), and so is every request for the retry_after_s after that: a dead
// server costs one timeout per retry_after_s, not one per batch. The relay reads nothing of
// the bytes: the child checks the answer (compile_server_client.h AcceptReply).
//
// Example:
//   ASSIGN_OR_RETURN(auto relay, CompileRelay::Start({.endpoint = "tcp://cpu7:5601", .security = s}));
//   relay->Forward(request_bytes, [](std::string answer) { ... });  // on the relay's thread
#ifndef AUTOTUNE_COMPILE_COMPILE_RELAY_H_
#define AUTOTUNE_COMPILE_COMPILE_RELAY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/compile/remote_preparer.h"

namespace tg::autotune {

class CompileRelay {
 public:
  using Answer = std::function<void(std::string answer)>;

  // Connects (without waiting for the server) and starts the relay's thread. Errors: a bad
  // endpoint or security options. options.clock is not used (the relay's waits are real).
  static absl::StatusOr<std::unique_ptr<CompileRelay>> Start(RemotePreparerOptions options);
  // Stops the thread; answers still owed are dropped, not called.
  ~CompileRelay();
  CompileRelay(const CompileRelay&) = delete;
  CompileRelay& operator=(const CompileRelay&) = delete;

  // Sends `request` on; `answer` gets the server's answer, or "" for none, exactly once, on the
  // relay's thread (keep it short). Thread-safe.
  void Forward(std::string request, Answer answer);

  struct Stats {
    uint64_t forwarded = 0;  // requests sent to the server
    uint64_t answered = 0;   // answers passed back
    uint64_t unanswered = 0;  // answered "" (timed out, or asked while the server was quiet)
  };
  Stats stats() const;

 private:
  struct Impl;
  explicit CompileRelay(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_COMPILE_RELAY_H_
