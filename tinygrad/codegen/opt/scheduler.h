// File: tinygrad/codegen/opt/scheduler.h
// Port of tinygrad/codegen/opt/postrange.py: Scheduler, the kernel being optimized.
//
// A Scheduler holds a kernel AST (a SINK over END'ed stores, ranges still symbolic RANGE UOps)
// and the Renderer it targets. Its "shape" is the kernel's RANGEs of size > 1 ordered by axis
// type (GLOBAL/THREAD, WARP, LOCAL/GROUP_REDUCE, UPCAST, REDUCE, UNROLL) then id. Applying an
// Opt splits one of those ranges (shift_to) or changes the AST structurally (TC, PADTO, SWAP,
// NOLOCALS); GetOptimizedAst names the kernel and tags the AST "optimized".
//
// A Scheduler is a copyable value (tinygrad's copy()): BEAM and the heuristic try opts on copies.
// ApplyOpt is transactional: when it returns an error the Scheduler is exactly as before.
//
// Example:
//   Scheduler k(ast, ren);
//   k.ConvertLoopToGlobal();
//   RETURN_IF_ERROR(k.ApplyOpt({OptOps::UPCAST, 0, int64_t{4}}));
//   absl::Status s = k.ApplyOpt({OptOps::LOCAL, 0, int64_t{16}});   // on CPU:
//   IsKernelOptError(s)                                             // "locals needed for opt"
//   UOp optimized = k.GetOptimizedAst();
#ifndef TINYGRAD_CODEGEN_OPT_SCHEDULER_H_
#define TINYGRAD_CODEGEN_OPT_SCHEDULER_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/uop.h"

namespace tg {

class Scheduler {
 public:
  // `ren` must outlive the Scheduler and its copies. `options` are the settings of the
  // optimizer that reads this kernel (the hand-coded heuristic; ALLOW_TF32 for TC opts).
  Scheduler(UOp ast, const Renderer& ren, const CodegenOptions& options = {});
  // tinygrad's copy(): same AST, renderer, dont_use_locals, applied_opts and tensor_core; the
  // next new range id restarts after the largest id among rngs().
  Scheduler(const Scheduler& o);
  // A full copy of the state, range counter included (`k = HandCodedOptimizations(k)`).
  Scheduler& operator=(const Scheduler& o);

  const UOp& ast() const { return ast_; }
  const Renderer& ren() const { return *ren_; }
  const CodegenOptions& options() const { return options_; }

  // ** the kernel's shape **
  // RANGEs of size > 1, by axis position then id.
  std::vector<UOp> rngs() const;
  int shape_len() const;
  std::vector<SInt> full_shape() const;
  std::vector<AxisType> axis_types() const;
  // ['g0', 'g1', 'l0', 'R0', 'r0', 'u0', ...]: axis letter and index within its type.
  std::vector<std::string> shape_str() const;
  // Positions of the given shape_str entries (CHECK-fails when one is missing).
  std::vector<int> shape_str_to_axis(const std::vector<std::string>& names) const;
  std::vector<int> axes_of(std::initializer_list<AxisType> types) const;
  std::vector<UOp> ranges_of(std::initializer_list<AxisType> types) const;
  // Product of the UPCAST and UNROLL axes.
  int64_t upcast_size() const;
  // GLOBAL/LOCAL/LOOP axes of int size > 1; GROUP_REDUCE/REDUCE axes of int size > 1.
  std::vector<int> upcastable_dims() const;
  std::vector<int> unrollable_dims() const;
  // full_shape with the reduce-like axes (REDUCE, UNROLL, GROUP_REDUCE) as 1.
  std::vector<SInt> output_shape() const;
  int upcasted() const;           // number of UPCAST/UNROLL axes
  int group_for_reduces() const;  // number of GROUP_REDUCE axes

  // ** the kernel's contents **
  std::vector<UOp> reduceops() const;  // REDUCEs in backward_slice order
  // The first REDUCE as REDUCE_AXIS(src, arg=(op, ())), tinygrad's reduceop view.
  std::optional<UOp> reduceop() const;
  std::vector<UOp> bufs() const;  // INDEX nodes, reverse toposort order

  // ** display **
  // Each range's size right-aligned to 4, colored by axis type, joined by spaces.
  std::string colored_shape() const;
  // The color of each of rngs() (kernel names and colored_shape use them).
  std::vector<std::string> colors() const;

  const std::vector<Opt>& applied_opts() const { return applied_opts_; }
  bool dont_use_locals() const { return dont_use_locals_; }
  // The tensor core a TC opt used (tinygrad's optional tensor_core attribute), else null.
  const TensorCore* tensor_core() const { return tensor_core_ ? &*tensor_core_ : nullptr; }

  // ** actions **
  // On renderers with locals, output LOOP ranges present in every BUFFERIZE become GLOBAL.
  void ConvertLoopToGlobal();
  // Applies one opt; a KernelOptError (IsKernelOptError) with the reference's message when it
  // does not apply, leaving this Scheduler unchanged.
  absl::Status ApplyOpt(const Opt& opt, bool append_opt = true);
  // ApplyOpt that also returns what tinygrad's apply_opt returns: {replaced range, new range}
  // for the splitting opts (UPCAST, UNROLL, LOCAL, GROUP, GROUPTOP, THREAD), the three chosen
  // (N, M, K) axes for TC, and nothing for the others.
  absl::StatusOr<std::vector<UOp>> ApplyOptRanges(const Opt& opt, bool append_opt = true);
  // tinygrad's shift_to: splits `rng` into (rng/amount, new range of `amount` and `new_type`),
  // the new one inner (or outer when `top`). Returns {replaced range, new range}.
  absl::StatusOr<std::pair<UOp, UOp>> ShiftTo(const UOp& rng, int64_t amount, AxisType new_type, bool top = false,
                                             std::optional<UOp> input_new_rng = std::nullopt);
  // tinygrad's real_axis: the position in rngs() an opt's axis means (-1 for TC / no axis).
  absl::StatusOr<int> RealAxis(OptOps op, std::optional<int64_t> axis) const;

  // tinygrad's name for the kernel as it stands ("r_16_16_4", colored): its kind (r: it
  // reduces, E: elementwise), then the launch dims and the range sizes. Without the
  // process-wide "n1" suffix GetOptimizedAst adds, so asking has no side effect.
  std::string KernelName() const;
  // Names the kernel (unless `name_override`; counts names process-wide to suffix "n1", "n2",
  // ...), flattens ranges, and returns the SINK with KernelInfo{name, applied_opts,
  // dont_use_locals} and tag 1.
  UOp GetOptimizedAst(std::optional<std::string> name_override = std::nullopt) const;

 private:
  // A bare Scheduler for ApplyOpt's snapshot (no KernelInfo read, no range count).
  struct NoRecount {};
  Scheduler(UOp ast, const Renderer& ren, NoRecount);
  absl::StatusOr<std::vector<UOp>> ApplyOptImpl(const Opt& opt, bool append_opt);
  absl::StatusOr<std::optional<std::vector<UOp>>> ApplyTcOpt(int64_t use_tensor_cores, int64_t axis,
                                                             int64_t tc_select, int64_t opt_level);
  // The BLOCK opt (ours), in scheduler_block.cc: {replaced range, loop over blocks}.
  absl::StatusOr<std::vector<UOp>> ApplyBlockOpt(const Opt& opt);
  // BLOCK of a reduce axis: the loop over `blocks` K blocks (id `outer_id`) around the store.
  absl::StatusOr<std::vector<UOp>> BlockReduction(const UOp& rng, int64_t blocks, int64_t outer_id);
  // The loop over K blocks a BLOCK of the reduction made: a LOOP the store's END closes that
  // the stored address does not use.
  std::optional<UOp> ReduceBlockLoop() const;
  // Whether a BLOCK of an output loop was applied.
  bool OutputBlocked() const;
  // The PACK opt (ours), in scheduler_pack.cc: its checks, and the loop it may move outermost;
  // the copy is made by PackOperands.
  absl::Status ApplyPackOpt(const Opt& opt);
  std::vector<UOp> OutputRngs() const;
  std::vector<UOp> GlobalizableRngs() const;
  int64_t NextRangeId() { return next_range_id_++; }

  UOp ast_;
  const Renderer* ren_;
  CodegenOptions options_;
  bool dont_use_locals_ = false;
  std::vector<Opt> applied_opts_;
  int64_t next_range_id_ = 0;
  std::optional<TensorCore> tensor_core_;
};

// Forgets the kernel names handed out (tinygrad's Scheduler.kernel_cnt), for tests.
void ResetKernelNameCounts();

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_SCHEDULER_H_
