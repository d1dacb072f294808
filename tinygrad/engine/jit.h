// File: tinygrad/engine/jit.h
// Port of tinygrad/engine/jit.py's capture and CapturedJit, at the level of buffers: the
// kernels (ExecItems with their runners and buffers) that Realize() runs while a JitCapture
// is alive, kept and run again with other input buffers, without scheduling or compiling.
// The Tensor-level TinyJit (tinygrad/tensor/tiny_jit.h) is built on this; use that.
//
// Example:
//   ASSIGN_OR_RETURN(JitCapture capture, JitCapture::Start());
//   ... Realize(...) as often as the step needs, inputs' BUFFER UOps in `inputs` ...
//   ASSIGN_OR_RETURN(CapturedJit jit, CapturedJit::Make(std::move(capture), inputs));
//   RETURN_IF_ERROR(jit.Replay(other_inputs, var_vals));   // the same kernels, new buffers
//
// What a replay runs on: every buffer the captured items used stays theirs (intermediates,
// outputs, weights the step reads and assigns), except the inputs' buffers, which each replay
// swaps for the new inputs' (views of an input follow it), and lets go of again afterwards.
// Outputs are the captured buffers: each replay overwrites them, as in the reference.
// Not thread-safe: one replay at a time per CapturedJit.
//
// Memory (the reference's add_buffer and _internal_memory_planner at capture): the captured
// items' intermediates (buffers no tensor names, not inputs, not touched by copies or views,
// first used as a kernel's output) are replaced by buffers of the JIT's own, planned across
// all the capture call's realizes together and sub-allocated from one arena per device, so
// that intermediates whose lifetimes do not overlap share memory whatever their sizes. What a
// tensor names (inputs, outputs, weights, optimizer state) is never replaced or shared.
// Graphs (jit_graph.h): at the first replay, unless JitOptions::graph is off (JIT=2), kernels of
// a device that has graphs (CUDA: CUDA graphs; CPU: sequential_graph.h) are batched into graphs
// that later replays launch whole.
// Pruning (JitOptions::prune, the reference's TinyJit(prune=True)): items whose results no
// replay would change ran in the capture call and are left out of the replays (below).
// The reference's optimize (re-planning every captured buffer, weights too, into one arena of
// copies) is not ported.
#ifndef TINYGRAD_ENGINE_JIT_H_
#define TINYGRAD_ENGINE_JIT_H_

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/engine/exec_item.h"
#include "tinygrad/engine/jit_graph.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Records what Realize() runs on this thread while alive (tinygrad's `capturing`).
class JitCapture {
 public:
  // FailedPrecondition when a capture is already active on this thread (a TinyJit capturing
  // inside another, which the reference refuses too).
  static absl::StatusOr<JitCapture> Start();
  size_t size() const { return capture_->items().size(); }  // items recorded so far

 private:
  friend class CapturedJit;
  explicit JitCapture(std::unique_ptr<ExecItemCapture> c);
  std::unique_ptr<ExecItemCapture> capture_;
};

// How a CapturedJit is made and replayed; FromConfig reads NO_MEMORY_PLANNER, JIT,
// JIT_BATCH_SIZE and GRAPH_ONE_KERNEL.
struct JitOptions {
  // Intermediates planned together (false: NO_MEMORY_PLANNER keeps them as captured).
  bool plan_memory = true;
  bool graph = true;  // kernels batched into device graphs (JIT < 2)
  JitGraphOptions graph_options;
  // Leave out of the replays the items whose results no replay changes: those that take no
  // variable and touch no memory whose contents change between replays. Such memory is the
  // inputs', the refreshed buffers' (Make), what a changing item writes, and, where the
  // reference would freeze it, memory that carries a value from one replay to the next (read at
  // or before an item that writes it, or written by two items: a step counter's `t += 1`).
  // Everything else an item reads must stay as the capture left it (weights), so this is for
  // steps whose only changing state is their inputs (inference). The pruned items' results
  // stay in their captured buffers, so the capture call's realizes must have run without the
  // memory planner (TinyJit's prune does so). Not from the Config: a TinyJit option.
  bool prune = false;
  static JitOptions FromConfig(const Config& c) {
    return {.plan_memory = !c.no_memory_planner,
            .graph = c.jit < 2,
            .graph_options = {.batch_size = c.jit_batch_size, .one_kernel = c.graph_one_kernel}};
  }
};

// Bytes of the intermediates a capture holds for its replays.
struct JitMemory {
  size_t captured_bytes = 0;  // as the capture call's realizes left them (each planned alone)
  size_t planned_bytes = 0;   // after the JIT's planning (captured_bytes without it)
};

class CapturedJit {
 public:
  using VarVals = absl::flat_hash_map<std::string, ConstValue>;

  // Ends `capture` and keeps what it recorded. `inputs` are the BUFFER UOps (realized) of the
  // capture call's inputs, in call order (one that holds nothing yet is allocated); a
  // multi-device one (or an MSTACK of BUFFERs) stands for its Buffer on each device.
  // `refreshed`: BUFFER UOps besides the inputs whose contents the caller rewrites before each
  // replay (a TinyJit's random-number counters); for pruning they change as inputs do.
  // Errors: nothing captured (the reference's "didn't JIT anything!"), an input that is not a
  // BUFFER, one buffer given twice.
  static absl::StatusOr<CapturedJit> Make(JitCapture capture, std::span<const UOp> inputs,
                                          const JitOptions& options = {},
                                          std::span<const UOp> refreshed = {});

  // Runs the captured items again with `inputs` in place of the capture call's (as many, each
  // of the same devices, dtype and size: InvalidArgument otherwise, or for one buffer given
  // twice) and the variables' values `var_vals` (every one in variables() needed). The first
  // replay batches kernels into graphs (JitOptions::graph). Device errors pass through.
  absl::Status Replay(std::span<const UOp> inputs, const VarVals& var_vals);

  // Items a replay runs (kernels, copies, views).
  size_t size() const { return items_.size(); }
  // Items the capture ran that pruning left out of the replays (JitOptions::prune).
  size_t pruned() const { return pruned_; }
  // Names of the variables the captured kernels take at run time (not those an item fixes).
  const absl::flat_hash_set<std::string>& variables() const { return variables_; }
  const JitMemory& memory() const { return memory_; }
  // Graphs the replays launch (0 before the first replay, and where no device has graphs).
  size_t graphs() const;
  // What a replay runs; an input's slots are empty (null) between replays.
  const std::vector<ExecItem>& items() const { return items_; }

 private:
  CapturedJit() = default;
  // Runs the replay's steps (planning them on the first replay).
  absl::Status RunSteps(const VarVals& var_vals);
  // What an input's buffer must be like to replace the capture call's: each input's, or each
  // of a multi-device input's, one per device (`input` says whose).
  struct InputInfo {
    std::string device;
    DType dtype;
    int64_t size;
    size_t input;
  };
  // Where an input buffer (of expected_'s) goes: argument `arg` of item `item`.
  struct Slot {
    size_t item, arg, input;
  };
  // A view of input `input` that item `item` takes as argument `arg` (extra_view_inputs).
  struct ViewSlot {
    size_t item, arg, input;
    int64_t size, offset;
    DType dtype;
  };
  std::vector<ExecItem> items_;
  ExecOptions options_;
  JitOptions jit_options_;
  // What a replay runs, once the first replay planned it (empty before).
  std::vector<JitStep> steps_;
  // Items whose launches differ between replays: they take inputs or variables.
  absl::flat_hash_set<size_t> changing_;
  size_t inputs_ = 0;  // how many inputs the capture call had
  std::vector<InputInfo> expected_;
  std::vector<Slot> input_slots_;
  std::vector<ViewSlot> view_slots_;
  absl::flat_hash_set<std::string> variables_;
  JitMemory memory_;
  size_t pruned_ = 0;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_JIT_H_
