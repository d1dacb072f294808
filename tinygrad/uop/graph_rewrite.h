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
