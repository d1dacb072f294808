// File: tinygrad/schedule/indexing.h
// Port of tinygrad/schedule/indexing.py: movement ops as index math (apply_movement_op), pm_mops
// (from rangeify.py), and run_rangeify, the fusion decision of the scheduler.
//
// A movement op maps the index expressions of its output dims to index expressions of its
// input dims. rangeify gives every tensor-graph node the ranges it is computed over and turns
// movement ops into this index math, so no view ever reaches a kernel.
//
// Example:
//   UOp r0 = UOp::Range(6, 0);
//   std::vector<UOp> in = ApplyMovementOp(Ops::RESHAPE, {2, 3}, MovementArg{.shape = {6}}, {&r0, 1});
//   Render(in[0]), Render(in[1])    // "(r0//3)", "(r0%3)"
//   // or from a movement node: ApplyMovementOp(x.reshape({6}), rngs)
#ifndef TINYGRAD_SCHEDULE_INDEXING_H_
#define TINYGRAD_SCHEDULE_INDEXING_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// The argument of a movement op (tinygrad's marg); only the field of the op is read.
struct MovementArg {
  Shape shape;                // RESHAPE, EXPAND: the output shape
  PadArg pairs;               // PAD: (before, after) amounts; SHRINK: (begin, end) per dim
  std::vector<int64_t> perm;  // PERMUTE
  std::vector<bool> flip;     // FLIP
  // The arg of a movement node `mop`.
  static MovementArg Of(const UOp& mop);
};

// tinygrad's apply_movement_op(op, in_shape, arg, rngs): the input index of every input dim,
// given the index expression `rngs[i]` of every output dim. PAD yields `where(valid, i-b,
// Invalid)`; RESHAPE is simplified with symbolic + pm_simplify_valid + pm_drop_and_clauses.
std::vector<UOp> ApplyMovementOp(Ops op, const Shape& in_shape, const MovementArg& arg,
                                 std::span<const UOp> rngs);
// The same for a movement node (in_shape = mop.src(0).shape(), arg = mop's).
std::vector<UOp> ApplyMovementOp(const UOp& mop, std::span<const UOp> rngs);

// tinygrad's pm_mops: INDEX of a movement op becomes an INDEX of its source with the index
// math applied; movement ops move after AFTER and out of END.
const PatternMatcher& PmMops();

// ** rangeify **

// Nodes whose value is always in memory already (tinygrad's ALWAYS_CONTIGUOUS).
bool AlwaysContiguous(Ops op);

// tinygrad's IndexingContext. realize_map: node -> the dims that are realized (nullopt while
// only marked "to realize"); range_map: node -> (input ranges, output ranges).
struct IndexingContext {
  absl::flat_hash_map<UOp, std::optional<std::vector<int>>> realize_map;
  absl::flat_hash_map<UOp, std::pair<std::vector<UOp>, std::vector<UOp>>> range_map;
  int64_t range_idx = 0;

  // A fresh range of size s (a CONST 0 for size 1; s itself when it is already a RANGE).
  UOp NewRange(const SInt& s, AxisType type = AxisType::LOOP);
};

// tinygrad's run_rangeify(tsink): decides what is realized (kernel boundaries: realize map,
// consumers' ranges, the ending-ranges rule) and rewrites the tensor graph into ranges, INDEX,
// REDUCE and BUFFERIZE (pm_apply_rangeify). `ctx` is filled in and stays valid for later passes.
UOp RunRangeify(const UOp& tsink, IndexingContext& ctx);

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_INDEXING_H_
