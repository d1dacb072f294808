// File: tinygrad/codegen/linearizer.h
// Port of tinygrad/codegen/late/linearizer.py (linearize, CFGContext, pm_add_control_flow,
// pm_split_ends) and of codegen/__init__.py's pm_linearize_cleanups / line_rewrite.
//
// Example:
//   sink = GraphRewrite(sink, PmSplitEnds(), {.name = "split ends"});
//   CFGContext cfg(sink);
//   sink = GraphRewrite(sink, PmAddControlFlow(),
//                       {.name = "add control flow", .bottom_up = true, .ctx = RewriteCtx::Of(cfg)});
//   std::vector<UOp> program = LinearizeCleanups(Linearize(sink));
#ifndef TINYGRAD_CODEGEN_LINEARIZER_H_
#define TINYGRAD_CODEGEN_LINEARIZER_H_

#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// A priority toposort of `sink`'s graph, ending with the sink: loop-invariant nodes first
// (run count), then defines, consts, loads early and stores, ENDs late, ties broken by
// tinygrad's tuplize order.
std::vector<UOp> Linearize(const UOp& sink);

// The loop nesting of a graph whose ENDs each close one RANGE: for each RANGE that must run
// after a sibling loop, the END it has to wait for.
class CFGContext {
 public:
  explicit CFGContext(const UOp& sink);
  // RANGE -> the END (or enclosing RANGE) it gets as an extra source.
  const absl::flat_hash_map<UOp, UOp>& edges() const { return edges_; }

 private:
  absl::flat_hash_map<UOp, UOp> edges_;
};

// ctx: CFGContext. RANGE gets its predecessor sibling END as an extra source (bottom-up).
const PatternMatcher& PmAddControlFlow();

// An END of several ranges becomes nested single-range ENDs, innermost the largest range arg.
const PatternMatcher& PmSplitEnds();

// tinygrad's line_rewrite(lst, pm_linearize_cleanups): a STORE through a gated INDEX becomes
// IF(gate, idx), STORE, ENDIF. `lst` must be toposorted. IF/ENDIF in `lst` are a bug.
std::vector<UOp> LinearizeCleanups(std::span<const UOp> lst);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_LINEARIZER_H_
