// File: tinygrad/codegen/opt/scheduler_block.cc
// The BLOCK opt (ours, not in the reference): cache blocking of a CPU output loop.
//
// After lowering, a CPU kernel's output loops nest in the order of their range ids (the
// END of a store splits into one END per range, the largest id innermost: PmSplitEnds), and
// the reduce loop sits inside all of them. A tuned matmul is therefore
//   for i-tile: for j-tile: acc = 0; for k: acc += A[i-tile, k] * B[k, j-tile]; store
// and every i-tile streams all of B through the cache. BLOCK axis n splits output loop
// `axis` (size s) into s/n blocks of n and gives the loop over blocks an id below every
// other range, so it runs outermost:
//   for j-block: for i-tile: for j-tile in block: ...
// and the K x n panel of B that a block reads stays in L2 while the i-tiles sweep it. With
// n = 1 nothing is split: the whole axis moves outermost (a loop order choice).
//
// What it does not do: block the reduction. An outer k-block loop outside the output loops needs
// the accumulator to outlive it (a partial C tile kept in memory between k-blocks), and a
// REDUCE here is a value inside its store: it is lowered to a register accumulator that is
// zeroed and stored inside the output loops. Blocking K would mean rewriting the store into a
// read-modify-write of the output (C = (kb == 0 ? 0 : C) + the block's partial sum) under a
// new outer loop: a different kernel, with another summation order, not a split of a range.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {

absl::StatusOr<std::vector<UOp>> Scheduler::ApplyBlockOpt(const Opt& opt) {
  auto check = [](bool cond, std::string_view msg) { return cond ? absl::OkStatus() : KernelOptError(msg); };
  RETURN_IF_ERROR(check(!ren_->has_local,
                        "BLOCK is for CPU loops: this renderer launches the output axes as a grid"));
  for (const Opt& o : applied_opts_) RETURN_IF_ERROR(check(o.op != OptOps::BLOCK, "BLOCK applied twice"));
  RETURN_IF_ERROR(check(opt.axis.has_value(), "BLOCK needs an axis"));
  const int64_t* block = std::get_if<int64_t>(&opt.arg);
  RETURN_IF_ERROR(check(block != nullptr && *block >= 1, "BLOCK needs a block size of at least 1"));
  ASSIGN_OR_RETURN(int real_axis, RealAxis(opt.op, opt.axis));
  const UOp rng = rngs()[real_axis];
  const std::vector<UOp> loops = GlobalizableRngs();
  RETURN_IF_ERROR(check(std::find(loops.begin(), loops.end(), rng) != loops.end(),
                        absl::StrCat("BLOCK is for output loops, axis ", *opt.axis, " is not one")));
  const SInt size = full_shape()[real_axis];
  RETURN_IF_ERROR(check(size.is_int(), absl::StrCat("BLOCK needs a constant size, axis ", *opt.axis, " is symbolic")));
  RETURN_IF_ERROR(check(size.value() % *block == 0, absl::StrCat("BLOCK ", *block, " does not divide axis ", *opt.axis,
                                                                 " of size ", size.value())));
  RETURN_IF_ERROR(check(size.value() / *block >= 2, absl::StrCat("BLOCK ", *block, " of axis ", *opt.axis, " of size ",
                                                                 size.value(), " is a single block")));

  // An id below every range's: the loop over blocks nests outside all others.
  int64_t outer_id = 0;
  for (const UOp& u : ast_.backward_slice())
    if (u.op() == Ops::RANGE) outer_id = std::min(outer_id, u.arg()[0].int64());
  --outer_id;
  const int64_t blocks = size.value() / *block;
  if (*block == 1) {
    UOp moved = rng.replace_arg(Arg::Tuple({Arg(outer_id), Arg(AxisType::LOOP)}));
    ast_ = Substitute(ast_, {{rng, moved}});
    return std::vector<UOp>{rng, moved};
  }
  UOp outer = UOp::Range(blocks, outer_id, AxisType::LOOP);
  ASSIGN_OR_RETURN(auto split, ShiftTo(rng, blocks, AxisType::LOOP, /*top=*/true, outer));
  return std::vector<UOp>{split.first, split.second};
}

}  // namespace tg
