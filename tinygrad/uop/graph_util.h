// File: tinygrad/uop/graph_util.h
// Graph helpers the scheduler's and the code generator's passes share: tinygrad's UOp
// properties and sugar that the uop library does not expose (range_start, ended_ranges, ranges
// of a whole graph at once, gated toposort, consumer map, end/after/group/reduce builders,
// substitute as a rule set).
//
// Port of tinygrad/uop/ops.py: toposort(gate), get_consumer_map, UOp.end/after/group/reduce/sink
// and _substitute (ranges and ended_ranges are UOp methods).
//
// Example:
//   store.ranges()                      // the RANGEs the store is inside of (uop.h)
//   UOp e = End(store, {r0, r1});       // END(store, r0, r1)
#ifndef TINYGRAD_UOP_GRAPH_UTIL_H_
#define TINYGRAD_UOP_GRAPH_UTIL_H_

#include <functional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {



// tinygrad's toposort(gate): a node's sources are visited only when gate(node) is true (the
// node itself is still listed).
std::vector<UOp> Toposort(const UOp& root, const std::function<bool(const UOp&)>& gate);

// tinygrad's get_consumer_map: node -> its consumers in the graph, in toposort order.
absl::flat_hash_map<UOp, std::vector<UOp>> ConsumerMap(const UOp& root);

// ** builders (tinygrad's UOp sugar) **
// x.end(*rngs): x itself when `rngs` is empty.
UOp End(const UOp& x, std::span<const UOp> rngs);
// x.after(*srcs).
UOp After(const UOp& x, std::span<const UOp> srcs);
// UOp.group(*srcs): the single source itself when there is one.
UOp Group(std::span<const UOp> srcs);
// x.reduce(*rngs, arg=op) with x's dtype.
UOp Reduce(const UOp& x, std::span<const UOp> rngs, Ops op);
// UOp.range(end, *arg) with an explicit arg tuple (axis ids..., axis type).
UOp RangeWithArg(const UOp& end, Arg arg);

// The axis type of a RANGE (its arg's last item).
AxisType RangeAxisType(const UOp& r);
// A RANGE's arg without the axis type (tinygrad's r.arg[0:-1]).
std::vector<Arg> RangeIds(const UOp& r);
// Python's `a < b` on RANGE args: ids compared as numbers, then the axis type by its order.
bool RangeArgLess(const Arg& a, const Arg& b);

// tinygrad's _substitute: any node found in the ctx map (SubstituteMap) is replaced.
using SubstituteMap = absl::flat_hash_map<UOp, UOp>;
const PatternMatcher& SubstituteRules();

// tinygrad's buf_target: the DEFINE_GLOBAL/LOCAL/REG a LOAD/STORE/INDEX/AFTER reaches
// through src[0] (CHECK-fails on anything else).
UOp BufTarget(const UOp& u);

// All nodes (with self) of `root` whose op is in `ops`, in toposort order.
std::vector<UOp> NodesWithOp(const UOp& root, OpSet ops);

}  // namespace tg

#endif  // TINYGRAD_UOP_GRAPH_UTIL_H_
