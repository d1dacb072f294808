// File: tinygrad/uop/symbolic/range_simplify.h
// Port of tinygrad/codegen/simplify.py: range flattening, splitting and merging, reduce
// simplification (arange folding, reduce over one-hot loads) and the CPU store-range cut.
// tinygrad's scheduler imports pm_flatten_range and pm_reduce_simplify from codegen; here the
// rule sets live below both, so the scheduler never depends on the code generator.
//
// Example:
//   SplitRangesContext ctx;
//   sink = GraphRewrite(sink, PmSplitRanges() + PmFlattenRange(),
//                       {.name = "split ranges", .ctx = RewriteCtx::Of(ctx)});
//   sink = GraphRewrite(sink, PmSimplifyRanges(), {.name = "simplify ranges"});
//   const std::string device = "CPU";
//   sink = GraphRewrite(sink, PmSplitStore(), {.name = "cut store ranges",
//                                              .ctx = RewriteCtx::Of(device)});
#ifndef TINYGRAD_UOP_SYMBOLIC_RANGE_SIMPLIFY_H_
#define TINYGRAD_UOP_SYMBOLIC_RANGE_SIMPLIFY_H_

#include <string>
#include <utility>
#include <vector>

#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// REDUCE/STORE/END list the RANGEs of their range sources' graphs (in toposort order) instead
// of arbitrary index expressions.
const PatternMatcher& PmFlattenRange();

// Merges pairs of ranges of an END (adjacent) or REDUCE (any order) into one range when that
// does not add IDIV/MOD nodes.
const PatternMatcher& PmSimplifyRanges();

// The ctx of PmSplitRanges(): RANGE -> the constant it is taken modulo (null: never split),
// in insertion order.
struct SplitRangesContext {
  std::vector<std::pair<UOp, UOp>> marks;
};
// r % c with c dividing r's size splits r into RANGE(size/c)*c + RANGE(c) (at the SINK).
const PatternMatcher& PmSplitRanges();

// REDUCE drops ranges its source does not use (ADD: times the size, MUL: to the power).
const PatternMatcher& PmReduceUnparented();
// pm_reduce_unparented + the range-folding rules + symbolic (what reduce_collapse rewrites with).
const PatternMatcher& PmReduceCollapse();
// PmReduceCollapse() + the rules that fold a reduce over a one-hot compare of a loaded index.
const PatternMatcher& PmReduceLoadCollapse();
// Removes ADD REDUCEs whose body can be folded in closed form (arange, indexing).
const PatternMatcher& PmReduceSimplify();
// Removes ADD REDUCEs over loads that compare the range to a loaded index (gather).
const PatternMatcher& PmLoadCollapse();

// ctx: the device name (a const std::string). On "CPU", a store's range compared with constants is cut
// into consecutive loops, one END per piece. Includes PmFlattenRange().
const PatternMatcher& PmSplitStore();

}  // namespace tg

#endif  // TINYGRAD_UOP_SYMBOLIC_RANGE_SIMPLIFY_H_
