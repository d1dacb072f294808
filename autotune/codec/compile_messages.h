// File: autotune/codec/compile_messages.h
// The compile service's protocol (autotune/proto/compile.capnp CompileMessage) as plain C++
// values. A GPU machine (a worker, or `tg tune` on it) hands a batch of candidates to a compile
// server, a CPU machine, which lowers, renders and compiles them for that GPU and answers each
// candidate's program and binary, ready to load and time; the GPU machine's cores are then
// free for the runs (beyond the reference: tinygrad compiles where it times).
//
//   client -> server: PrepareRequest
//   server -> client: PrepareReply (one per request, same request_id, at most
//                     kMaxPrepareReplyBytes)
//
// A server prepares only for a client whose CompileTargetInfo equals its own: the code a
// candidate becomes depends on the renderer, its limits and the compiler's version, and a
// binary from another compiler would be timed under this machine's tuning key.
//
// Example:
//   codec::CompileMessage m = codec::PrepareRequest{.request_id = 7, .target = t, .task = task,
//                                                   .candidates = cands, .options = o};
//   std::string bytes = codec::EncodeCompileMessage(m);
//   ASSIGN_OR_RETURN(codec::CompileMessage back, codec::DecodeCompileMessage(bytes));
#ifndef AUTOTUNE_CODEC_COMPILE_MESSAGES_H_
#define AUTOTUNE_CODEC_COMPILE_MESSAGES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/tensor_map_spec.h"
#include "tinygrad/dtype/dtype.h"

namespace tg::autotune::codec {

// Bumped on any change a peer of the previous version would misread.
inline constexpr uint32_t kCompileProtocolVersion = 1;

// The most an encoded PrepareReply may be: under what a ZeroMQ peer accepts by default
// (net::kDefaultMaxMessageBytes, 64 MiB) and a worker frame (workers/frame.h, 64 MiB, with the
// relay's tag beside it). A server refuses a bigger answer; the client asks fewer candidates.
inline constexpr size_t kMaxPrepareReplyBytes = size_t{48} << 20;

// What decides the programs and binaries a candidate becomes.
struct CompileTargetInfo {
  std::string device;       // "CUDA"
  std::string arch;         // "sm_90"
  std::string renderer;     // RendererName (autotune/key/device_class.h): "CUDA", "PTX"
  std::string compiler_id;  // the compiler and its version (Device::compiler_id)
  // The renderer's limits (Renderer::global_max, local_max, shared_max): a device sets them
  // from its GPU.
  std::optional<std::array<int64_t, 3>> global_max;
  std::optional<std::array<int64_t, 3>> local_max;
  int64_t shared_max = 0;
  bool operator==(const CompileTargetInfo&) const = default;
};

struct PrepareRequest {
  uint32_t protocol_version = kCompileProtocolVersion;
  uint64_t request_id = 0;
  CompileTargetInfo target;  // the client's
  KernelTask task;
  std::vector<std::vector<Opt>> candidates;
  // The rejections made before compiling use these (known_programs, uops_max,
  // max_compute_ratio; timeout_s bounds a compile); the rest is the client's.
  MeasureOptions options;
};

// A variable argument of a program (its DEFINE_VAR), in the order the launch passes them.
struct ProgramVar {
  std::string name;
  int64_t min = 0;
  int64_t max = 0;
  DType dtype = dtypes::index;
  bool operator==(const ProgramVar&) const = default;
};

// One candidate, prepared: kOk with its program and binary, or what stopped it before any run
// (kInvalidOpts, kLoweringError, kRejected, kDuplicate, kCompileError, kTimeout) and why.
struct PreparedProgram {
  Outcome outcome = Outcome::kOk;
  std::string error;
  int32_t duplicate_of = -1;  // kDuplicate: the candidate of the request it repeats (-1: known)
  uint64_t program_hash = 0;  // of the rendered source; 0 when it never rendered
  int64_t uops = 0;           // length of the linear program
  MeasureCost cost;           // lower_s, lower_cpu_s and compile_s on the server
  // kOk: the program as the client loads and launches it (ProgramSpec's fields). Sizes and
  // estimates are evaluated at the task's variable values.
  std::string name;
  std::string function_name;
  std::string src;
  std::array<int64_t, 3> global_size{1, 1, 1};
  std::optional<std::array<int64_t, 3>> local_size;  // nullopt: the runtime picks
  std::vector<ProgramVar> vars;
  std::vector<int64_t> globals;  // buffer slots, in argument order
  std::vector<int64_t> outs;
  std::vector<int64_t> ins;
  double ops = 0;  // estimates
  double mem = 0;
  double lds = 0;
  int64_t dynamic_shared_bytes = 0;
  std::vector<TensorMapSpec> tensor_maps;
  std::string binary;  // what the device loads (a CUBIN; PTX for the driver's JIT)
};

struct PrepareReply {
  uint64_t request_id = 0;
  // Not OK: the request failed as a whole (another target or protocol version, a task the
  // server cannot lower); `programs` is then empty.
  absl::Status status;
  CompileTargetInfo target;  // the server's
  std::vector<PreparedProgram> programs;  // one per candidate, in order
  double prepare_wall_s = 0;
};

using CompileMessage = std::variant<PrepareRequest, PrepareReply>;

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_COMPILE_MESSAGES_H_
