// File: tinygrad/gradient/gradient.h
// Reverse-mode differentiation of tensor graphs: the gradient rules as a pattern matcher over
// UOps, and compute_gradient. Port of tinygrad/gradient.py (tinygrad 35900290).
//
// Example (the Tensor API's backward() and gradient() are built on this):
//   UOp loss = ...;                          // a scalar tensor-graph node
//   UOp one = UOp::ConstOn(loss.dtype(), 1.0, "CPU");
//   absl::StatusOr<GradientMap> g = ComputeGradient(loss, one, {w.uop(), b.uop()});
//   UOp dw = g->at(w.uop());                 // same shape and dtype as w
//
// What flows where (as tinygrad):
// - gradients flow only along paths from the root to a target; DETACH and ASSIGN stop them;
// - a node reached by several paths gets the ADD of its contributions, in tinygrad's order
//   (reverse toposort), so the graphs equal the reference's and schedule to the same kernels;
// - comparisons and BITCAST pass no gradient; integer ops (IDIV, MOD, AND, ...) have no rule,
//   and a path through one is an error naming the op, never an abort.
#ifndef TINYGRAD_GRADIENT_GRADIENT_H_
#define TINYGRAD_GRADIENT_GRADIENT_H_

#include <initializer_list>
#include <span>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// node -> d(root)/d(node), for the root, the targets reached and every node on the way.
using GradientMap = absl::flat_hash_map<UOp, UOp>;

// tinygrad's pm_gradient. A rule matches a node whose output gradient is `m.ctx<GradCtx>()`
// and returns GradientTuple(...): one gradient per source of the node, in order.
struct GradCtx {
  UOp grad;  // the gradient of the matched node's output (same shape)
};
const PatternMatcher& GradientRules();

// A rule's answer packed into one node (rules return one UOp): a SINK whose sources are the
// sources' gradients, with NoGradient() where a source gets none (tinygrad's None).
UOp GradientTuple(std::initializer_list<UOp> grads);
// The same from a list where a null UOp is NoGradient() (a custom kernel's grad function).
UOp GradientTuple(std::span<const UOp> grads);
UOp NoGradient();

// tinygrad's compute_gradient: the gradients of `root` (whose own gradient is `root_grad`,
// of root's shape) with respect to every node on a path to a target. Targets not reached are
// absent from the map. Errors: a node on a path has no rule ("gradient: no gradient rule for
// IDIV"), or a rule gives the wrong number of gradients (a bug in the rules).
absl::StatusOr<GradientMap> ComputeGradient(const UOp& root, const UOp& root_grad,
                                            const absl::flat_hash_set<UOp>& targets);

}  // namespace tg

#endif  // TINYGRAD_GRADIENT_GRADIENT_H_
