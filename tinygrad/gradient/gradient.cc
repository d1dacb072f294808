// File: tinygrad/gradient/gradient.cc
// tinygrad/gradient.py's _deepwalk and compute_gradient.
#include "tinygrad/gradient/gradient.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/shape.h"

namespace tg {
namespace {

// The nodes that lie on a path from `root` to a target, children first; DETACH and ASSIGN
// are not entered, so nothing flows through them (tinygrad's _deepwalk).
std::vector<UOp> DeepWalk(const UOp& root, const absl::flat_hash_set<UOp>& targets) {
  absl::flat_hash_map<UOp, bool> in_target_path;
  for (const UOp& u : root.toposort()) {
    bool on = false;
    for (const UOp& s : u.src()) on = on || targets.contains(s) || in_target_path.at(s);
    in_target_path[u] = on;
  }
  return Toposort(root, [&](const UOp& u) {
    return u.op() != Ops::DETACH && u.op() != Ops::ASSIGN && in_target_path.at(u);
  });
}

}  // namespace

absl::StatusOr<GradientMap> ComputeGradient(const UOp& root, const UOp& root_grad,
                                            const absl::flat_hash_set<UOp>& targets) {
  const Shape *rs = root.shape(), *gs = root_grad.shape();
  if ((rs == nullptr) != (gs == nullptr) || (rs && *rs != *gs) || root.dtype() != root_grad.dtype())
    return absl::InvalidArgumentError(
        absl::StrCat("gradient: the root's gradient must have the root's shape and dtype, got ",
                     gs ? ShapeRepr(*gs) : "no shape", " ", root_grad.dtype().repr(), " for ",
                     rs ? ShapeRepr(*rs) : "no shape", " ", root.dtype().repr()));
  GradientMap grads{{root, root_grad}};
  std::vector<UOp> walk = DeepWalk(root, targets);
  for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
    const UOp& t0 = *it;
    auto g = grads.find(t0);
    if (g == grads.end()) continue;
    GradCtx ctx{g->second};
    UOp local = GradientRules().Rewrite(t0, RewriteCtx::Of(ctx));
    if (!local && t0.op() == Ops::CUSTOM_KERNEL)
      return absl::InvalidArgumentError(
          "gradient: a custom kernel without a grad function is on the path to a target");
    if (!local)
      return absl::InvalidArgumentError(absl::StrCat("gradient: no gradient rule for ",
                                                     std::string(OpName(t0.op())),
                                                     " on the path to a target"));
    if (local.src().size() != t0.src().size() && t0.op() == Ops::CUSTOM_KERNEL)
      return absl::InvalidArgumentError(
          absl::StrCat("gradient: a custom kernel's grad function gave ", local.src().size(),
                       " gradients for its ", t0.src().size(), " sources"));
    if (local.src().size() != t0.src().size())
      return absl::InternalError(absl::StrCat("gradient: the rule for ", std::string(OpName(t0.op())),
                                              " gave ", local.src().size(), " gradients for ",
                                              t0.src().size(), " sources"));
    for (size_t i = 0; i < t0.src().size(); ++i) {
      const UOp& v = local.src(i);
      if (v.op() == Ops::NOOP) continue;  // no gradient for this source
      auto [k, inserted] = grads.try_emplace(t0.src(i), v);
      if (!inserted) k->second = k->second + v;
    }
  }
  // TODO(parity): tinygrad closes any RANGEs left in a gradient with a REDUCE here; only custom
  // kernels put RANGEs in tensor graphs, and this port has none.
  return grads;
}

}  // namespace tg
