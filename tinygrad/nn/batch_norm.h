// File: tinygrad/nn/batch_norm.h
// nn.BatchNorm (BatchNorm2d/3d; tinygrad/nn/__init__.py) over dim 1 of an (N, C, ...) input.
//
// Eval with running stats normalizes by running_mean/running_var. Training, or a module without
// running stats, normalizes by the batch's mean and biased variance (the variance's gradient
// does not flow through the mean, as the reference's detach), and in training updates the
// running stats with momentum (running_var from the unbiased variance) and counts the batch in
// num_batches_tracked. The updates are assigns, as the reference's: realized with the next
// realize that includes them (an optimizer step given GetParameters(model) realizes them).
//
// Training or eval is Tensor::training() (a Tensor::Train scope), as the reference's
// Tensor.training, unless the call says which.
#ifndef TINYGRAD_NN_BATCH_NORM_H_
#define TINYGRAD_NN_BATCH_NORM_H_

#include <cstdint>
#include <optional>
#include <utility>

#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

struct BatchNormOptions {
  double eps = 1e-5;
  bool affine = true;               // weight (ones) and bias (zeros)
  bool track_running_stats = true;  // running_mean (zeros) and running_var (ones)
  double momentum = 0.1;
};

class BatchNorm : public Module {
 public:
  explicit BatchNorm(int64_t size, const BatchNormOptions& o = {});
  // An input of fewer than 2 dims, or with one value per channel in training, gives an errored
  // tensor (and updates nothing).
  Tensor operator()(const Tensor& x, std::optional<bool> training = std::nullopt);
  void VisitState(StateVisitor& v) override;

  std::optional<Tensor> weight, bias;
  Tensor num_batches_tracked;  // int64 scalar
  std::optional<Tensor> running_mean, running_var;
  BatchNormOptions options;

 private:
  // (mean, var) to normalize by: the running stats in eval, else the batch's.
  std::pair<Tensor, Tensor> Stats(const Tensor& x, bool training) const;
  void UpdateRunningStats(const Tensor& x, const Tensor& batch_mean, const Tensor& batch_var) const;
};

}  // namespace tg::nn

#endif  // TINYGRAD_NN_BATCH_NORM_H_
