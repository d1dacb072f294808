// File: autotune/compile/compile_server_client.h
// What the clients of a compile server share (RemotePreparer asks over a socket, RelayedPreparer
// through its worker daemon): a batch asked in parts small enough for one answer each, each
// part's programs checked against the task (AcceptReply), the parts merged with the batch-wide
// rules applied across them (measure/prepare_batch.h ApplyBatchRules: a program repeated in a
// later part is a duplicate, the compute rule over the whole batch), and a server for another
// target or protocol asked no more.
//
// Parts: an answer may carry max_reply_bytes (codec::kMaxPrepareReplyBytes: under ZeroMQ's and
// a worker frame's limits), and the server refuses a bigger one (ResourceExhausted) rather than
// send what the client would drop. The first part of a client holds kFirstPart candidates; after
// each answer a part holds what fits half the limit at the bytes per candidate that answer
// measured; a refused part is asked again in halves. When any part fails, the whole batch is
// left to the measurer (it prepares the batch itself).
#ifndef AUTOTUNE_COMPILE_COMPILE_SERVER_CLIENT_H_
#define AUTOTUNE_COMPILE_COMPILE_SERVER_CLIENT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/codec/compile_messages.h"
#include "autotune/measure/prepare_batch.h"

namespace tg::autotune {

class CompileServerClient : public CandidatePreparer {
 public:
  static constexpr size_t kFirstPart = 64;

  absl::StatusOr<std::vector<PreparedCandidate>> Prepare(const KernelTask& task,
                                                         std::span<const std::vector<Opt>> candidates,
                                                         const MeasureOptions& options,
                                                         std::vector<CandidateResult>& results) final;

  uint64_t batches_prepared() const { return prepared_; }  // answered by the server
  uint64_t batches_refused() const { return refused_; }    // left to the measurer
  uint64_t parts_asked() const { return parts_; }          // requests answered, all batches
  size_t part_size() const { return part_size_; }          // candidates in the next part

 protected:
  // `name` begins every error ("compile server tcp://host:5601"); `max_reply_bytes`: the
  // server's limit on one answer.
  CompileServerClient(codec::CompileTargetInfo target, std::string name,
                      size_t max_reply_bytes = codec::kMaxPrepareReplyBytes);

  // One request's answer and its size in bytes, or why there is none.
  struct Answer {
    codec::PrepareReply reply;
    size_t bytes = 0;
  };
  virtual absl::StatusOr<Answer> Ask(const codec::PrepareRequest& request) = 0;

 private:
  // Candidates [start, start + results.size()) of the batch as one request, checked.
  absl::StatusOr<std::vector<PreparedCandidate>> AskPart(const KernelTask& task,
                                                         std::span<const std::vector<Opt>> candidates,
                                                         const MeasureOptions& options,
                                                         std::span<CandidateResult> results);

  codec::CompileTargetInfo target_;
  std::string name_;
  size_t max_reply_bytes_;
  size_t part_size_ = kFirstPart;
  uint64_t next_request_ = 1;
  absl::Status refused_for_good_;  // another target or protocol
  uint64_t prepared_ = 0;
  uint64_t refused_ = 0;
  uint64_t parts_ = 0;
};

// The programs of a server's `reply` to a request for results.size() candidates of `task` from a
// client whose target is `target`, each checked (prepared_program.h), with `results` filled
// (duplicate_of counts within the request). Errors: the reply is a refusal (its status:
// FailedPrecondition for another target or protocol, ResourceExhausted for an answer too big),
// was made for another target (FailedPrecondition), or holds another number of programs.
absl::StatusOr<std::vector<PreparedCandidate>> AcceptReply(codec::PrepareReply reply, const codec::CompileTargetInfo& target,
                                                           const KernelTask& task, std::span<CandidateResult> results);

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_COMPILE_SERVER_CLIENT_H_
