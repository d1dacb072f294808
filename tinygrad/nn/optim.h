// File: tinygrad/nn/optim.h
// Optimizers: SGD (momentum, nesterov, weight decay), LARS, Muon, Adam, AdamW and LAMB, with
// tinygrad's update rules and defaults. Port of tinygrad/nn/optim.py (tinygrad 35900290):
// SGD and Muon are LARS with a trust coefficient of 0; Adam and AdamW are LAMB with a trust
// ratio of 1.
//
// Example (one training step is one schedule: the loss, the gradients, the optimizer state
// and the new weights are realized together):
//   Tensor w = Tensor::Randn({784, 10}), b = Tensor::Zeros({10});   // requires_grad None
//   absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam({w, b}, {.lr = 1e-3});
//   Tensor::Train train;                                   // optimizers need training mode
//   for (...) {
//     (*opt)->zero_grad();
//     Tensor loss = x.matmul(w).add(b).sparse_categorical_crossentropy(y);
//     RETURN_IF_ERROR(loss.backward());
//     ASSIGN_OR_RETURN(std::vector<Tensor> step, (*opt)->schedule_step());
//     step.push_back(loss);
//     RETURN_IF_ERROR(Realize(step));                      // or (*opt)->step() without the loss
//   }
//
// Parameters are Tensor handles: a Tensor is a shared handle, so the optimizer's copy and the
// caller's (a module's field) are the same tensor, and step() updates it in place (assign:
// the parameter keeps its buffer). As in tinygrad, a parameter whose requires_grad is None is
// switched to true; one whose requires_grad is false is a buffer: not updated, but realized
// with each step (a BatchNorm's running statistics).
//
// With `fused` (tinygrad's FUSE_OPTIM), a step concatenates all parameters and gradients into
// one flat tensor, updates it with the same rule (LARS/LAMB trust ratios are then over all
// parameters together, as in tinygrad) and splits it back: fewer, larger kernels.
// Several optimizers over parts of a model (tinygrad's OptimizerGroup): realize the
// concatenation of their schedule_step() results.
//
// Errors are statuses, never aborts: creating an optimizer with no parameter that requires a
// gradient (or an errored one), a fused one over symbolic shapes; a step outside training mode,
// or with a parameter that has no gradient (backward() not called, or zero_grad() since).
#ifndef TINYGRAD_NN_OPTIM_H_
#define TINYGRAD_NN_OPTIM_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // The tensors it updates (requires_grad true, deduplicated, in the given order).
  const std::vector<Tensor>& params() const { return params_; }
  // The tensors given with requires_grad false: realized by each step, never updated.
  const std::vector<Tensor>& buffers() const { return buffers_; }
  // The learning rate: a realized float32 tensor of shape (1,), so assigning it a new value
  // changes the rate without compiling new kernels (tinygrad's opt.lr).
  const Tensor& lr() const { return lr_; }
  std::string device() const { return params_[0].device(); }
  // The optimizer's own state (Adam's moments and step counters, SGD's momentum), as handles:
  // lazy zeros (or ones) until something realizes them. Realizing them before the first step
  // makes that step run the kernels of every later one (tinygrad/train's
  // RealizeTrainingState).
  virtual std::vector<Tensor> state() const = 0;

  // Drops every parameter's gradient (tinygrad's zero_grad: grad = None).
  void zero_grad();
  // One step, realized now: Realize(schedule_step()).
  absl::Status step();
  // Assigns each parameter its updated value (lazily) and returns what must be realized for
  // the step: the optimizer's state, the parameters and the buffers. Realize them together
  // with the loss to make the whole training step one schedule.
  absl::StatusOr<std::vector<Tensor>> schedule_step();

 protected:
  // Checks params (see above) and sets lr; the factories return the error.
  static absl::Status Init(Optimizer& opt, const std::vector<Tensor>& params, double lr, bool fused);
  Optimizer() = default;
  // tinygrad's _new_optim_param: zeros like each parameter (float32, contiguous, no grad), or
  // one flat tensor of all their elements when fused.
  std::vector<Tensor> NewOptimParam() const;
  // The updated parameters (same order as params) and the state tensors to realize.
  virtual std::pair<std::vector<Tensor>, std::vector<Tensor>> Step(const std::vector<Tensor>& params,
                                                                    const std::vector<Tensor>& grads) = 0;

 private:
  std::vector<Tensor> params_, buffers_;
  // fused: Step sees one flat tensor of all parameters; param i is [offsets_[i], offsets_[i+1]).
  bool fused_ = false;
  std::vector<int64_t> offsets_;
  Tensor lr_ = Tensor::Error(absl::FailedPreconditionError("optimizer not initialized"));
};

// ** LARS and the optimizers built on it **

// Layer-wise Adaptive Rate Scaling (https://arxiv.org/abs/1708.03888v3). Defaults are
// tinygrad's LARS defaults.
struct LARSOpts {
  double lr = 0.001;
  double momentum = 0.9;
  double weight_decay = 1e-4;
  int64_t ns_steps = 0;                 // Newton-Schulz iterations on the update (Muon)
  std::vector<double> ns_coefficients;  // empty: no Newton-Schulz
  bool nesterov = false;
  bool classic = true;  // momentum after the learning rate (classic) or before (popular)
  bool pre_wd = true;   // weight decay on the gradient (true) or on the weights after momentum
  double tcoef = 0.001; // trust coefficient; 0 turns the trust ratio off
  bool fused = false;  // tinygrad's FUSE_OPTIM: one update over all parameters concatenated
};
absl::StatusOr<std::unique_ptr<Optimizer>> LARS(const std::vector<Tensor>& params, const LARSOpts& o = {});

// SGD with optional momentum (popular momentum unless classic), nesterov and weight decay.
struct SGDOpts {
  double lr = 0.001;
  double momentum = 0.0;
  double weight_decay = 0.0;
  bool nesterov = false;
  bool classic = false;
  bool fused = false;  // tinygrad's FUSE_OPTIM: one update over all parameters concatenated
};
absl::StatusOr<std::unique_ptr<Optimizer>> SGD(const std::vector<Tensor>& params, const SGDOpts& o = {});

// Muon (https://kellerjordan.github.io/posts/muon/): momentum, Newton-Schulz orthogonalization
// of the update (parameters of two or more dims), weight decay after momentum.
struct MuonOpts {
  double lr = 0.001;
  double momentum = 0.95;
  double weight_decay = 0.1;
  int64_t ns_steps = 5;
  std::vector<double> ns_coefficients = {3.4445, -4.775, 2.0315};
  bool nesterov = true;
};
absl::StatusOr<std::unique_ptr<Optimizer>> Muon(const std::vector<Tensor>& params, const MuonOpts& o = {});

// ** LAMB and the optimizers built on it **

// LAMB (https://arxiv.org/abs/1904.00962); with adam, the trust ratio is 1 (Adam/AdamW).
struct LAMBOpts {
  double lr = 0.001;
  double b1 = 0.9;
  double b2 = 0.999;
  double eps = 1e-6;
  double weight_decay = 0.0;
  bool adam = false;
  bool fused = false;  // tinygrad's FUSE_OPTIM: one update over all parameters concatenated
};
absl::StatusOr<std::unique_ptr<Optimizer>> LAMB(const std::vector<Tensor>& params, const LAMBOpts& o = {});

struct AdamOpts {
  double lr = 0.001;
  double b1 = 0.9;
  double b2 = 0.999;
  double eps = 1e-8;
  bool fused = false;  // tinygrad's FUSE_OPTIM: one update over all parameters concatenated
};
absl::StatusOr<std::unique_ptr<Optimizer>> Adam(const std::vector<Tensor>& params, const AdamOpts& o = {});

// AdamW (https://arxiv.org/abs/1711.05101v3): decoupled weight decay, as tinygrad's LAMB
// with adam=true.
struct AdamWOpts {
  double lr = 0.001;
  double b1 = 0.9;
  double b2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;
  bool fused = false;  // tinygrad's FUSE_OPTIM: one update over all parameters concatenated
};
absl::StatusOr<std::unique_ptr<Optimizer>> AdamW(const std::vector<Tensor>& params, const AdamWOpts& o = {});

}  // namespace tg

#endif  // TINYGRAD_NN_OPTIM_H_
