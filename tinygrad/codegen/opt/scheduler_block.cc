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
// BLOCK on a reduce axis blocks the reduction (as BLAS's kc): axis `axis` (a REDUCE loop of
// size s) splits into s/n blocks of n, and the loop over the blocks becomes an output-side loop
// outside every other, around the store:
//   for k-block: for i-tile: for j-tile: acc = 0; for k in block: acc += A * B;
//                                         C[tile] = (k-block == 0 ? 0 : C[tile]) + acc
// so the K-block's slices of A and B (a packed kc x nr panel with PACK) stay in cache while the
// output tiles sweep them. The output is read back between blocks (a gated load: block 0 reads
// nothing), so the sums are C = ((P0 + P1) + P2) ..., each block's partial sum P added to the
// stored value: another summation order than the unblocked kernel's (as BLAS's), exact where
// the products and sums are. Preconditions: one store whose value is the ADD-REDUCE itself (no
// epilogue, the accumulator's dtype is the output's), the kernel reads nothing of its output,
// one REDUCE, once per kernel. The loop over K blocks is no axis for the other opts (it runs
// the reduction in order: splitting it among threads or lanes would race on the output).
#include <algorithm>
#include <optional>
#include <span>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {

absl::StatusOr<std::vector<UOp>> Scheduler::ApplyBlockOpt(const Opt& opt) {
  auto check = [](bool cond, std::string_view msg) { return cond ? absl::OkStatus() : KernelOptError(msg); };
  RETURN_IF_ERROR(check(!ren_->has_local,
                        "BLOCK is for CPU loops: this renderer launches the output axes as a grid"));
  RETURN_IF_ERROR(check(opt.axis.has_value(), "BLOCK needs an axis"));
  const int64_t* block = std::get_if<int64_t>(&opt.arg);
  RETURN_IF_ERROR(check(block != nullptr && *block >= 1, "BLOCK needs a block size of at least 1"));
  ASSIGN_OR_RETURN(int real_axis, RealAxis(opt.op, opt.axis));
  const UOp rng = rngs()[real_axis];
  const std::vector<UOp> loops = GlobalizableRngs();
  const bool reduce = RangeAxisType(rng) == AxisType::REDUCE;
  RETURN_IF_ERROR(check(reduce || std::find(loops.begin(), loops.end(), rng) != loops.end(),
                        absl::StrCat("BLOCK is for output and reduce loops, axis ", *opt.axis, " is neither")));
  RETURN_IF_ERROR(check(!(reduce ? ReduceBlockLoop().has_value() : OutputBlocked()),
                        reduce ? "BLOCK of the reduction applied twice" : "BLOCK applied twice"));
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
  if (reduce) return BlockReduction(rng, blocks, outer_id);
  if (*block == 1) {
    UOp moved = rng.replace_arg(Arg::Tuple({Arg(outer_id), Arg(AxisType::LOOP)}));
    ast_ = Substitute(ast_, {{rng, moved}});
    return std::vector<UOp>{rng, moved};
  }
  UOp outer = UOp::Range(blocks, outer_id, AxisType::LOOP);
  ASSIGN_OR_RETURN(auto split, ShiftTo(rng, blocks, AxisType::LOOP, /*top=*/true, outer));
  return std::vector<UOp>{split.first, split.second};
}

bool Scheduler::OutputBlocked() const {
  int64_t blocks = ReduceBlockLoop() ? -1 : 0;
  for (const Opt& o : applied_opts_) blocks += o.op == OptOps::BLOCK;
  return blocks > 0;
}

std::optional<UOp> Scheduler::ReduceBlockLoop() const {
  for (const UOp& end : ast_.src()) {
    if (end.op() != Ops::END || end.src(0).op() != Ops::STORE) continue;
    const UOp& target = end.src(0).src(0);
    for (const UOp& r : Ranges(UOp::Sink(end.src().subspan(1))))
      if (RangeAxisType(r) == AxisType::LOOP && !target.has_range(r)) return r;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<UOp>> Scheduler::BlockReduction(const UOp& rng, int64_t blocks, int64_t outer_id) {
  auto check = [](bool cond, std::string_view msg) { return cond ? absl::OkStatus() : KernelOptError(msg); };
  const std::vector<UOp> reduces = reduceops();
  RETURN_IF_ERROR(check(reduces.size() == 1, absl::StrCat("BLOCK of a reduction needs a kernel with one REDUCE, this one has ",
                                                          reduces.size())));
  const UOp red = reduces[0];
  RETURN_IF_ERROR(check(red.arg().ops() == Ops::ADD, "BLOCK of a reduction needs a sum (the blocks' partial sums are added)"));
  RETURN_IF_ERROR(check(ast_.src().size() == 1 && ast_.src(0).op() == Ops::END && ast_.src(0).src(0).op() == Ops::STORE,
                        "BLOCK of a reduction needs a kernel with one store"));
  const UOp end = ast_.src(0), store = end.src(0), target = store.src(0);
  RETURN_IF_ERROR(check(store.src(1) == red, "BLOCK of a reduction needs the REDUCE stored as it is (no epilogue)"));
  RETURN_IF_ERROR(check(target.op() == Ops::INDEX && target.src(0).op() == Ops::DEFINE_GLOBAL &&
                            target.src(0).dtype().base() == red.dtype(),
                        "BLOCK of a reduction needs an output of the accumulator's dtype"));
  const UOp buf = target.src(0);
  for (const UOp& u : ast_.toposort())
    RETURN_IF_ERROR(check(!(u.op() == Ops::INDEX && u.src(0) == buf && u != target),
                          "BLOCK of a reduction needs a kernel that does not read its output"));

  // k -> k_block * n + k, the loop over blocks outside every other and outside the REDUCE
  UOp outer = UOp::Range(blocks, outer_id, AxisType::LOOP);
  ASSIGN_OR_RETURN(auto split, ShiftTo(rng, blocks, AxisType::LOOP, /*top=*/true, outer));
  const UOp new_end = ast_.src(0), new_store = new_end.src(0), new_red = new_store.src(1);
  std::vector<UOp> red_src{new_red.src(0)};
  for (const UOp& r : new_red.src().subspan(1)) red_src.push_back(Substitute(r, {{outer, outer.const_like(0)}}));
  const UOp partial = new_red.replace_src(red_src);
  // what earlier blocks stored (nothing in block 0: a gated load reads 0)
  const UOp idx = target.src(1);
  const UOp valid = outer.ne(ConstValue(0)) & GetValid(idx);
  const UOp gated = valid.where(GetIdx(idx), UOp::Invalid());
  const UOp stored = buf.index(std::span<const UOp>(&gated, 1));
  std::vector<UOp> end_src{target.store(stored + partial)};
  for (const UOp& r : new_end.src().subspan(1)) end_src.push_back(r);
  end_src.push_back(outer);
  ast_ = ast_.replace_src({new_end.replace_src(end_src)});
  return std::vector<UOp>{split.first, split.second};
}

}  // namespace tg
