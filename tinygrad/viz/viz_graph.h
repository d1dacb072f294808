// File: tinygrad/viz/viz_graph.h
// Port of tinygrad/viz/serve.py get_full_rewrite: the graph of one rewrite after each of its
// matches, rebuilt from the trace alone. As the reference does, step k applies the first k
// matches as substitutions (before -> after): for a top-down rewrite each step substitutes into
// the previous step's graph, for a bottom-up one all k into the input graph. Step 0 is the
// input; the last step is normally the rewrite's output (a rule whose result depends on more
// than its match, such as a counter in its context, can make them differ, as in the reference).
//
// Example:
//   ASSIGN_OR_RETURN(VizGraph g, GraphAtStep(trace, /*rewrite=*/3, /*step=*/1));
//   for (const VizGraphNode& n : g.nodes) if (n.changed) std::cout << n.op << "\n";
#ifndef TINYGRAD_VIZ_VIZ_GRAPH_H_
#define TINYGRAD_VIZ_VIZ_GRAPH_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/viz/viz_trace.h"

namespace tg {

struct VizGraphNode {
  // Into VizTrace::nodes; a node the replay had to build (a parent rebuilt on substituted
  // sources that the real rewrite never made) gets an id from trace.nodes.size() up.
  size_t id = 0;
  std::string op, dtype, arg, tag;
  std::vector<size_t> src;  // ids of nodes of this graph
  bool changed = false;  // made by this step's match: in the graph of its `after` (step >= 1)
  bool matched = false;  // the node the next match rewrites (matches[step].before), if any
};

struct VizGraph {
  std::vector<VizGraphNode> nodes;  // sources first, the sink last
};

// The graph of rewrite `rewrite` after its first `step` matches (0 .. matches.size()). When
// the substitutions loop, the graph is one NOOP node whose arg says so (the reference's
// error node). Errors: `rewrite` or `step` out of range.
// A top-down step k costs k substitutions of the whole graph; to walk many steps of one
// rewrite, use a VizReplay.
absl::StatusOr<VizGraph> GraphAtStep(const VizTrace& trace, size_t rewrite, size_t step);

// One rewrite's replay that keeps the steps it computed, as the reference's get_full_rewrite
// generator does: asking for steps 0..n in any order costs n substitutions in all, not n^2/2.
// Holds a reference to `trace`, which must outlive it. Not thread-safe.
class VizReplay {
 public:
  static absl::StatusOr<VizReplay> Create(const VizTrace& trace, size_t rewrite);
  ~VizReplay();
  VizReplay(VizReplay&&) noexcept;
  // As GraphAtStep(trace, rewrite, step).
  absl::StatusOr<VizGraph> GraphAt(size_t step);

 private:
  struct State;
  VizReplay(const VizTrace& trace, size_t rewrite);
  const VizTrace& trace_;
  size_t rewrite_;
  std::unique_ptr<State> state_;
};

}  // namespace tg

#endif  // TINYGRAD_VIZ_VIZ_GRAPH_H_
