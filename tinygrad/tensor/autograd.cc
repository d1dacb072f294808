// File: tinygrad/tensor/autograd.cc
// Tensor-level autograd: requires_grad propagation (_apply_uop), gradient(), backward(), .grad
// and NoGradScope. Port of tinygrad/tensor.py (tinygrad 35900290); the rules are in
// tinygrad/gradient.
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/gradient/gradient.h"
#include "tinygrad/tensor/autograd.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Access;

namespace {
thread_local int no_grad_depth = 0;
}  // namespace

NoGradScope::NoGradScope() { ++no_grad_depth; }
NoGradScope::~NoGradScope() { --no_grad_depth; }
bool NoGradScope::active() { return no_grad_depth > 0; }

namespace tensor_internal {

Tensor Derived(UOp u, std::initializer_list<const Tensor*> inputs) {
  bool any_true = false, any_none = false;
  for (const Tensor* t : inputs) {
    const std::optional<bool>& rg = Access::state(*t)->requires_grad;
    any_true = any_true || rg == true;
    any_none = any_none || !rg.has_value();
  }
  std::optional<bool> rg = any_true ? std::optional<bool>(true)
                           : any_none ? std::nullopt
                                      : std::optional<bool>(false);
  if (NoGradScope::active()) {
    if (rg != false) u = UOp::Make(Ops::DETACH, u.dtype(), {u});
    rg = false;
  }
  Tensor out(std::move(u));
  Access::state(out)->requires_grad = rg;
  return out;
}

Tensor NoGradLeaf(Tensor t) {
  Access::state(t)->requires_grad = false;
  return t;
}

}  // namespace tensor_internal

// ** requires_grad and .grad **

std::optional<bool> Tensor::requires_grad() const { return s_->requires_grad; }

Tensor Tensor::requires_grad_(std::optional<bool> requires_grad) const {
  s_->requires_grad = requires_grad;
  return *this;
}

std::optional<Tensor> Tensor::grad() const { return s_->grad; }

absl::Status Tensor::set_grad(const Tensor& grad) const {
  if (!ok()) return status();
  if (!grad.ok()) return grad.status();
  if (grad.sshape() != sshape() || grad.dtype() != dtype() || grad.device() != device())
    return absl::InvalidArgumentError(absl::StrCat("set_grad: a gradient ", grad.repr(),
                                                   " for tensor ", repr(),
                                                   " must have its shape, dtype and device"));
  s_->grad = grad;
  return absl::OkStatus();
}

void Tensor::clear_grad() const { s_->grad.reset(); }

// ** gradient and backward **

namespace {

absl::Status GradError(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("gradient: ", msg));
}

// The checks of tinygrad's gradient() and the seed gradient: 1 for a scalar, else grad_output.
absl::StatusOr<UOp> RootGradient(const Tensor& root, const std::vector<Tensor>& targets,
                                 const std::optional<Tensor>& grad_output) {
  if (!root.ok()) return root.status();
  for (const Tensor& t : targets)
    if (!t.ok()) return t.status();
  if (grad_output && !grad_output->ok()) return grad_output->status();
  if (!grad_output && root.ndim() != 0)
    return GradError(absl::StrCat("without a gradient, backward must be called on a scalar tensor, not ",
                                  root.repr()));
  if (!dtypes::is_float(root.dtype())) return GradError("only float Tensors have gradient, not " + root.repr());
  for (const Tensor& t : targets)
    if (!dtypes::is_float(t.dtype())) return GradError("only float Tensors have gradient, not " + t.repr());
  if (!grad_output) return UOp::ConstOn(root.dtype(), 1.0, root.device());
  const Tensor& g = *grad_output;
  if (g.sshape() != root.sshape() || g.dtype() != root.dtype() || g.device() != root.device())
    return GradError(absl::StrCat("the output gradient ", g.repr(), " must have the shape, dtype and device of ",
                                  root.repr()));
  return g.uop();
}

}  // namespace

std::vector<Tensor> Tensor::gradient(const std::vector<Tensor>& targets,
                                     const std::optional<Tensor>& grad_output,
                                     bool materialize_grads) const {
  auto all_errored = [&](const absl::Status& s) { return std::vector<Tensor>(targets.size(), Error(s)); };
  absl::StatusOr<UOp> seed = RootGradient(*this, targets, grad_output);
  if (!seed.ok()) return all_errored(seed.status());
  absl::flat_hash_set<UOp> target_uops;
  for (const Tensor& t : targets) target_uops.insert(t.uop());
  absl::StatusOr<GradientMap> grads = ComputeGradient(uop(), *seed, target_uops);
  if (!grads.ok()) return all_errored(grads.status());
  std::vector<Tensor> out;
  out.reserve(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor& t = targets[i];
    auto g = grads->find(t.uop());
    if (g != grads->end()) {
      out.emplace_back(g->second);
    } else if (materialize_grads) {
      out.emplace_back(UOp::ConstOn(t.dtype(), 0, t.device(), &t.sshape()));
    } else {
      out.push_back(Error(GradError(absl::StrCat("target ", i, " ", t.repr(), " is not in the graph of ",
                                                 repr()))));
    }
  }
  return out;
}

absl::Status Tensor::backward(const std::optional<Tensor>& grad_output) const {
  if (!ok()) return status();
  absl::flat_hash_set<UOp> in_graph;
  for (const UOp& u : uop().toposort()) in_graph.insert(u);
  std::vector<Tensor> need_grad;
  for (Tensor& t : tensor_internal::LiveTensors())
    if (t.requires_grad() == true && in_graph.contains(t.uop())) need_grad.push_back(std::move(t));
  std::vector<Tensor> grads = gradient(need_grad, grad_output, /*materialize_grads=*/true);
  if (need_grad.empty()) {  // still report what gradient() checks (a non-scalar, an int loss)
    absl::StatusOr<UOp> seed = RootGradient(*this, {}, grad_output);
    if (!seed.ok()) return seed.status();
  }
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].ok()) return grads[i].status();
    if (grads[i].sshape() != need_grad[i].sshape())
      return absl::InternalError(absl::StrCat("backward: gradient ", grads[i].repr(), " for ",
                                              need_grad[i].repr(), " has another shape"));
  }
  for (size_t i = 0; i < grads.size(); ++i) {
    std::optional<Tensor>& acc = Access::state(need_grad[i])->grad;
    if (!acc) {
      acc = grads[i];
    } else {
      // tinygrad's t.grad.assign(t.grad + g): a realized grad is updated in its own buffer.
      Tensor sum = acc->assign(*acc + grads[i]);
      if (!sum.ok()) return sum.status();
    }
  }
  return absl::OkStatus();
}

}  // namespace tg
