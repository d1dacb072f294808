// File: tinygrad/tensor/tiny_jit.h
// TinyJit: a step function (Tensors in, Tensors out) whose kernels are captured once and then
// replayed. Port of tinygrad/engine/jit.py's TinyJit (tinygrad 35900290) on the engine's
// CapturedJit (tinygrad/engine/jit.h).
//
// Example (a training step: loss, gradients and the optimizer's assigns in one realize):
//   nn::Linear model(784, 10);
//   ASSIGN_OR_RETURN(std::unique_ptr<Optimizer> opt, Adam(nn::GetParameters(model), {.lr = 1e-3}));
//   TinyJit step([&](std::span<const Tensor> in) -> absl::StatusOr<std::vector<Tensor>> {
//     opt->zero_grad();
//     Tensor loss = (model(in[0]) - in[1]).square().mean();
//     RETURN_IF_ERROR(loss.backward());
//     ASSIGN_OR_RETURN(std::vector<Tensor> out, opt->schedule_step());
//     out.insert(out.begin(), loss);       // TinyJit realizes everything returned, together
//     return out;
//   });
//   Tensor::Train train;
//   for (...) {
//     ASSIGN_OR_RETURN(std::vector<Tensor> out, step({x_batch, y_batch}));
//     ASSIGN_OR_RETURN(float loss, out[0].item<float>());
//   }
//
// What each call does, as in the reference:
//   1st call: realizes the inputs, runs the function, realizes what it returns.
//   2nd call: the same, while recording every kernel (and copy) the realizes run, with its
//             buffers: that is the capture.
//   later:    runs the captured kernels again, the new inputs' buffers in place of the capture
//             call's inputs, without calling the function: nothing is scheduled or compiled
//             (GetEngineStats().schedules and .programs_built do not move). It returns the
//             tensors the capture call returned; their buffers hold this call's results, and
//             the next call overwrites them (copy out what must survive it).
// With JIT=0 every call runs the function (nothing is captured); with JIT=1 (the default) the
// replays launch the kernels of a device that has graphs (CUDA, CPU) as graphs, JIT=2 one by one
// (engine/jit_graph.h).
// Tuning, as the reference: the kernels the capture call compiles are compiled at JITBEAM's
// width (BEAM's when it is unset), so `JITBEAM=2` tunes the step's kernels and nothing else;
// IGNORE_JIT_FIRST_BEAM=1 compiles the first call's at BEAM=0. Either needs a tuner installed
// as the engine's KernelOptChooser (autotune/tuner.h; `tg train` installs one).
// Pruning (TinyJitOptions::prune): kernels whose results do not change from call to call (they
// read no input, only weights and constants: a weight's transpose, a mask) run in the capture
// call only (engine/jit.h, JitOptions::prune, says exactly which).
// So the function must do the same thing on every call: side effects outside tensors
// (printing, reading the inputs' values, branching on them) happen on the first two calls
// only. Tensors the function uses besides its inputs (weights, optimizer state) are captured
// by buffer: a replay reads and assigns the same buffers, so an optimizer keeps training.
// Random numbers (Rand, dropout) drawn in the step continue their sequence in each replay: a
// jitted run draws what an eager one does.
//
// Inputs: every input is realized first (a lazy one is realized, not refused). Each replay's
// inputs must match the capture call's in number, shape, dtype, device and view of their
// buffer, with variables unbound: a mismatch is an InvalidArgument error naming the input.
// Errors, as the reference's JitError: an input that is a constant (make it a buffer with
// contiguous()), the same buffer passed twice, a function that realized nothing on its
// capture call ("didn't JIT anything!"), a TinyJit called inside another's capture.
//
// Symbolic shapes: the values of bound variables may change between calls. A replay takes
// them from the inputs' shapes and from `vars` (bound variables, SInts from Variable::bind,
// passed to the function as they are); a capture whose kernels take a variable neither gives
// is an error.
//
// A TinyJit is for one thread; it is movable, not copyable.
#ifndef TINYGRAD_TENSOR_TINY_JIT_H_
#define TINYGRAD_TENSOR_TINY_JIT_H_

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/engine/jit.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/uop/shape.h"

namespace tg {

class CapturedJit;
namespace tensor_internal {
struct RandomDraw;
}  // namespace tensor_internal

struct TinyJitOptions {
  // The reference's prune: replays leave out the kernels whose results no call changes. Only
  // for steps whose sole changing state is their inputs (inference): a weight changed between
  // calls (by an optimizer outside the step, a load) is not seen by the pruned kernels.
  bool prune = false;
};

class TinyJit {
 public:
  using Fn = std::function<absl::StatusOr<std::vector<Tensor>>(std::span<const Tensor> inputs,
                                                               std::span<const SInt> vars)>;
  using TensorFn = std::function<absl::StatusOr<std::vector<Tensor>>(std::span<const Tensor> inputs)>;
  explicit TinyJit(Fn fn, TinyJitOptions options = {});
  explicit TinyJit(TensorFn fn, TinyJitOptions options = {});  // a step without variables
  TinyJit(TinyJit&&) noexcept;
  TinyJit& operator=(TinyJit&&) noexcept;
  ~TinyJit();

  absl::StatusOr<std::vector<Tensor>> operator()(const std::vector<Tensor>& inputs,
                                                 const std::vector<SInt>& vars = {});

  // Calls that succeeded: 0 and 1 run the function, 2 captured it, more replayed.
  int calls() const { return calls_; }
  // Items (kernels, copies, views) the replays run; 0 before the capture.
  size_t captured_size() const;
  // Kernels and copies the capture ran that the replays leave out (TinyJitOptions::prune).
  size_t pruned_size() const;
  // The captured intermediates' bytes before and after the JIT planned them; zeros before the
  // capture.
  JitMemory captured_memory() const;
  // Device graphs the replays launch (made at the first replay; 0 where no device has graphs,
  // and with JIT=2).
  size_t captured_graphs() const;
  // Forgets the capture: the next call runs the function as a first call does.
  void reset();

 private:
  // What a replay's input must be like (the reference's expected_input_info).
  struct InputInfo {
    UOp view;            // the input's graph with its buffer replaced by a NOOP, variables unbound
    std::string shape;   // for error messages
    DType dtype;
    std::string device;
    std::optional<int64_t> split_axis;  // a multi-device input's (shard_axis)
  };
  struct Prepared;
  static absl::StatusOr<Prepared> Prepare(const std::vector<Tensor>& inputs,
                                          const std::vector<SInt>& vars);

  Fn fn_;
  TinyJitOptions options_;
  int calls_ = 0;
  std::unique_ptr<CapturedJit> captured_;
  std::vector<InputInfo> expected_;
  std::vector<Tensor> ret_;
  // The random-number buffers the capture call's Rand calls made (refreshed before each replay).
  std::vector<tensor_internal::RandomDraw> random_draws_;
};

}  // namespace tg

#endif  // TINYGRAD_TENSOR_TINY_JIT_H_
