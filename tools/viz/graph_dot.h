// File: tools/viz/graph_dot.h
// One step's UOp graph as Graphviz DOT text and as SVG laid out by Graphviz's "dot", the way
// tinygrad's viewer draws it (viz/serve.py uop_to_json + viz/js/worker.js): left to right,
// sources before their users, a node's label its op, arg and dtype, coloured by op; constants
// and devices are not drawn as nodes but listed in their users' labels ("CONST1 2.0").
// Nodes the step's match made carry the SVG class "changed" (and a red outline), the node the
// next match rewrites "matched" (a double outline); every node's SVG id is "n<id>", its id in
// the VizGraph.
//
// Example:
//   ASSIGN_OR_RETURN(VizGraph g, GraphAtStep(trace, rewrite, step));
//   GraphDot dot = GraphToDot(g);          // dot.text, dot.drawn (the nodes drawn)
//   ASSIGN_OR_RETURN(std::string svg, RenderDotToSvg(dot.text));
#ifndef TOOLS_VIZ_GRAPH_DOT_H_
#define TOOLS_VIZ_GRAPH_DOT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/viz/viz_graph.h"

namespace tg::viz {

struct GraphDot {
  std::string text;    // the DOT graph
  size_t drawn = 0;    // nodes drawn (constants folded into labels are not)
  size_t changed = 0;  // of those, the ones the step's match made
};

// The label text of a DOT quoted string: backslashes and quotes escaped, newlines as "\n",
// other control characters and bytes that are not UTF-8 replaced, at most `max_chars` bytes
// (then "..."). Graphviz reads every escape in a label, so nothing of the trace gets through
// unescaped.
std::string DotQuoted(std::string_view text, size_t max_chars = 160);

// The DOT text of `graph` (nodes in its topological order).
GraphDot GraphToDot(const VizGraph& graph);

// Lays `dot` out with Graphviz's "dot" engine and renders SVG. Serialised: Graphviz's context
// is not thread-safe. Errors: the text is not DOT, or layout or rendering failed.
absl::StatusOr<std::string> RenderDotToSvg(const std::string& dot);

}  // namespace tg::viz

#endif  // TOOLS_VIZ_GRAPH_DOT_H_
