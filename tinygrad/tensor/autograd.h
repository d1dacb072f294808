// File: tinygrad/tensor/autograd.h
// Autograd on the lazy Tensor: requires_grad, backward(), gradient(), .grad, detach() and a
// no-grad scope. Port of tinygrad/tensor.py's backward/gradient/requires_grad handling (tinygrad
// 35900290); the rules themselves are tinygrad/gradient (gradient.py).
//
// Example (the tinygrad program `w = Tensor.randn(3, 4, requires_grad=True); ...`):
//   Tensor x = Tensor::Randn({8, 3});
//   Tensor w = Tensor::Randn({3, 4}).requires_grad_();   // a parameter
//   Tensor b = Tensor::Zeros({4}).requires_grad_();
//   Tensor loss = (x.matmul(w) + b).relu().mean();
//   absl::Status s = loss.backward();                   // builds d(loss)/dw, d(loss)/db lazily
//   Realize({*w.grad(), *b.grad()});                     // one schedule for both gradients
//   std::vector<float> dw = w.grad()->to_vector<float>().value();
//   loss.backward();                                     // a second backward adds to .grad
//   w.clear_grad();                                      // an optimizer's zero_grad
//
//   // The gradient of any float tensor with respect to others, without touching .grad:
//   std::vector<Tensor> g = loss.gradient({w, x});       // {dloss/dw, dloss/dx}
//
//   // An optimizer step (values computed in the scope never take part in a later gradient):
//   Tensor w_new = [&] { NoGradScope no_grad; return w - *w.grad() * 0.1; }();
//
// The model (tinygrad's):
// - The graph is the forward UOp graph itself: backward() walks the loss's graph and asks the
//   gradient rules for each node on a path to a tensor that requires a gradient. Nothing is
//   recorded while ops run, so the only cost of requires_grad is a flag on each tensor.
// - requires_grad is tri-state: nullopt (tinygrad's None, the default), true, false. The result
//   of an op is true if an input is true, else nullopt if an input is nullopt, else false; a
//   Python-number operand counts as false. tinygrad's optimizers set None parameters to true.
// - backward() gives a .grad to every live tensor in the graph with requires_grad() true, not
//   only the leaves: an intermediate `h = x.matmul(w)` kept alive gets one too, and so does the
//   loss itself (1.0) when it requires a gradient. A second backward() adds to .grad.
// - Realize the loss after backward() (or together with the grads): realizing it first
//   replaces its graph by a buffer, and no gradient reaches the parameters (as in tinygrad).
// - detach() cuts the graph (DETACH); its result has requires_grad false.
// - Errors are statuses or errored tensors, never aborts: backward() on a non-scalar without
//   an explicit gradient, non-float tensors, a target that is not in the graph (gradient()),
//   an op without a rule on a path (IDIV, MOD, bitwise ops), bitcast of a tensor that requires
//   a gradient.
#ifndef TINYGRAD_TENSOR_AUTOGRAD_H_
#define TINYGRAD_TENSOR_AUTOGRAD_H_

#include "tinygrad/tensor/tensor.h"

namespace tg {

// While one is alive on this thread, the results of Tensor ops have requires_grad false and
// are cut from gradients (DETACH) where an input could take part in one: no gradient ever
// flows through a value computed in the scope (like torch.no_grad and the older
// `Tensor.no_grad = True` of tinygrad; 35900290 has no such switch). Scopes nest.
class NoGradScope {
 public:
  NoGradScope();
  ~NoGradScope();
  NoGradScope(const NoGradScope&) = delete;
  NoGradScope& operator=(const NoGradScope&) = delete;
  // Whether a scope is alive on this thread.
  static bool active();
};

}  // namespace tg

#endif  // TINYGRAD_TENSOR_AUTOGRAD_H_
