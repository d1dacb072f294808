// File: tinygrad/uop/movement/movement.h
// Port of tinygrad/schedule/indexing.py: movement ops as index math (apply_movement_op), and
// pm_mops (from rangeify.py).
//
// A movement op maps the index expressions of its output dims to index expressions of its
// input dims. The scheduler's rangeify and the code generator's first pass both rewrite
// movement ops into this index math, so it lives below both.
//
// Example:
//   UOp r0 = UOp::Range(6, 0);
//   std::vector<UOp> in = ApplyMovementOp(Ops::RESHAPE, {2, 3}, MovementArg{.shape = {6}}, {&r0, 1});
//   Render(in[0]), Render(in[1])    // "(r0//3)", "(r0%3)"
//   // or from a movement node: ApplyMovementOp(x.reshape({6}), rngs)
#ifndef TINYGRAD_UOP_MOVEMENT_MOVEMENT_H_
#define TINYGRAD_UOP_MOVEMENT_MOVEMENT_H_

#include <cstdint>
#include <span>
#include <vector>

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

}  // namespace tg

#endif  // TINYGRAD_UOP_MOVEMENT_MOVEMENT_H_
