// File: autotune/codec/farm_messages.h
// The worker-farm protocol as plain C++ values (autotune/proto/farm.capnp FarmMessage), so a
// coordinator or worker never touches Cap'n Proto builders: build one of these, encode it with
// farm_codec.h, decode what comes back.
//
//   worker -> coordinator: Hello (once), Ready (credits), Heartbeat, MeasureResult, Bye
//   coordinator -> worker: MeasureRequest (a job), Heartbeat, Bye
//
// Example:
//   codec::FarmMessage m = codec::Hello{.build_id = "...", .device = dc, .worker_id = "w1",
//                                       .capacity = 4};
//   std::string bytes = codec::EncodeFarmMessage(m);
//   ASSIGN_OR_RETURN(codec::FarmMessage back, codec::DecodeFarmMessage(bytes));
//   std::get<codec::Hello>(back).worker_id   // "w1"
#ifndef AUTOTUNE_CODEC_FARM_MESSAGES_H_
#define AUTOTUNE_CODEC_FARM_MESSAGES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "autotune/key/device_class.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::autotune::codec {

// Bumped on any change a peer of the previous version would misread.
inline constexpr uint32_t kProtocolVersion = 1;

// A job: measure `candidates` of one kernel task.
struct MeasureRequest {
  uint64_t job_id = 0;
  uint64_t search_id = 0;
  uint64_t task_digest = 0;          // KernelTaskDigest(task)
  std::optional<KernelTask> task;    // nullopt: the worker already has it (by task_digest)
  std::vector<std::vector<Opt>> candidates;
  MeasureOptions options;
  double run_deadline_s = 0;         // a run longer than this is killed; 0: options.timeout_s
};

// A job's answer. `status` not OK: the batch as a whole failed (Measurer::Measure's error).
struct MeasureResult {
  uint64_t job_id = 0;
  uint64_t search_id = 0;
  absl::Status status;
  MeasureBatch batch;
};

struct Hello {
  uint32_t protocol_version = kProtocolVersion;
  std::string build_id;   // tinygrad-cc build id
  DeviceClass device;
  std::string worker_id;
  uint32_t capacity = 0;  // jobs it can hold at once
  std::string host;       // its host name (provenance of its measurements)
  // Random per worker process (0: not given). A Hello with the incarnation the coordinator
  // knows is the same process on a new connection, not a restart: the jobs in `holding` stay
  // in flight with it, the others were lost on the way (no fault of the worker's).
  uint64_t incarnation = 0;
  std::vector<uint64_t> holding;
};

struct Ready {
  uint32_t credits = 0;   // more jobs it can take now
};

struct Heartbeat {
  uint64_t seq = 0;
  uint32_t in_flight = 0;  // jobs the sender holds
};

struct Bye {
  std::string reason;
  // Coordinator -> worker: it takes no more work from this worker, whatever it says next (the
  // worker was evicted, or speaks another protocol version): a worker stops rather than come
  // back. False: it may say Hello again (the coordinator is shutting down, say).
  bool refused = false;
};

using FarmMessage = std::variant<Hello, Ready, Heartbeat, MeasureRequest, MeasureResult, Bye>;

// "hello", "ready", "heartbeat", "job", "result", "bye".
std::string_view FarmMessageKind(const FarmMessage& m);

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_FARM_MESSAGES_H_
