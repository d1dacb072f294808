// File: tinygrad/uop/graph_rewrite.h
// Port of tinygrad/uop/ops.py graph_rewrite / graph_rewrite_map: rewrite a graph to a fixed
// point with a PatternMatcher.
//
// Top-down (default): sources are rewritten first, then the node is matched; a replacement is
// itself rewritten until nothing applies. Bottom-up: a node is rewritten to a fixed point
// *before* its sources are visited. Both memoize per node and use an explicit stack, so graph
// depth is not limited by the C++ stack.
//
// Example:
//   UOp s = GraphRewrite(sink, Symbolic(), {.name = "simplify"});
//   UOp t = GraphRewrite(sink, MyPass(), {.ctx = RewriteCtx::Of(my_state)});
//
// A rule set that never reaches a fixed point is a bug in the rules: the rewrite stops with a
// CHECK failure that names the rules that fired last.
//
// Debug settings (set by the entry points, see spec.h and pattern_matcher.h): at
// SpecCheckLevel() >= 2 every node a rule makes, and every node rebuilt on rewritten sources,
// is checked with full_spec as it appears, and a bad one is a CHECK failure naming the pass, the
// node and the rule that made it. At TrackMatchStats() >= 2 each call is recorded in the
// rewrite trace (rewrite_trace.h).
#ifndef TINYGRAD_UOP_GRAPH_REWRITE_H_
#define TINYGRAD_UOP_GRAPH_REWRITE_H_

#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/pattern_matcher.h"

namespace tg {

struct RewriteOptions {
  std::string_view name;                // for errors and tracing
  bool bottom_up = false;               // `pm` runs bottom-up instead of top-down
  const PatternMatcher* bpm = nullptr;  // an extra bottom-up matcher (top-down `pm` runs too)
  RewriteCtx ctx;                       // what rules read through m.ctx<T>()
  // false: left out of TRACK_MATCH_STATS and its trace, rules run inside included (tinygrad
  // untracks UOp.simplify and an unnamed substitute).
  bool track = true;
};

UOp GraphRewrite(const UOp& sink, const PatternMatcher& pm, const RewriteOptions& opts = {});

// Rewrites every node of `sink`'s graph and returns node -> rewritten node
// (tinygrad's graph_rewrite_map, without metadata).
absl::flat_hash_map<UOp, UOp> GraphRewriteMap(const UOp& sink, const PatternMatcher& pm,
                                              const RewriteOptions& opts = {});

// Replaces nodes by the map, bottom-up, and rebuilds what depends on them.
UOp Substitute(const UOp& u, const absl::flat_hash_map<UOp, UOp>& replacements);

}  // namespace tg

#endif  // TINYGRAD_UOP_GRAPH_REWRITE_H_
