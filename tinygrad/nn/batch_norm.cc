// File: tinygrad/nn/batch_norm.cc
#include "tinygrad/nn/batch_norm.h"

#include <vector>

#include "absl/status/status.h"

namespace tg::nn {
namespace {

Tensor BnError(const std::string& what) {
  return Tensor::Error(absl::InvalidArgumentError("BatchNorm: " + what));
}

}  // namespace

BatchNorm::BatchNorm(int64_t size, const BatchNormOptions& o)
    : num_batches_tracked(Tensor::Zeros(Shape{}, {.dtype = dtypes::int64}).requires_grad_(false)),
      options(o) {
  if (o.affine) {
    weight = Tensor::Ones(Shape{size});
    bias = Tensor::Zeros(Shape{size});
  }
  if (o.track_running_stats) {
    running_mean = Tensor::Zeros(Shape{size}).requires_grad_(false);
    running_var = Tensor::Ones(Shape{size}).requires_grad_(false);
  }
}

std::pair<Tensor, Tensor> BatchNorm::Stats(const Tensor& x, bool training) const {
  std::vector<int64_t> channel_shape(x.ndim(), 1);
  channel_shape[1] = -1;
  if (options.track_running_stats && !training)
    return {*running_mean, running_var->reshape(channel_shape).expand(x.sshape())};
  std::vector<int64_t> reduce_axes;
  for (int64_t i = 0; i < x.ndim(); ++i)
    if (i != 1) reduce_axes.push_back(i);
  Tensor batch_mean = x.mean(reduce_axes);
  Tensor y = x - batch_mean.detach().reshape(channel_shape);  // d(var)/d(mean) = 0
  return {batch_mean, (y * y).mean(reduce_axes)};
}

void BatchNorm::UpdateRunningStats(const Tensor& x, const Tensor& batch_mean,
                                   const Tensor& batch_var) const {
  double n = static_cast<double>(x.numel()), c = static_cast<double>(x.shape()[1]);
  double var_scale = options.momentum * n / (n - c);  // the unbiased variance's correction
  running_mean->assign((1 - options.momentum) * *running_mean + options.momentum * batch_mean.detach());
  running_var->assign((1 - options.momentum) * *running_var + var_scale * batch_var.detach());
  num_batches_tracked.assign(num_batches_tracked + 1);
}

Tensor BatchNorm::operator()(const Tensor& x, std::optional<bool> training_arg) {
  if (!x.ok()) return x;
  bool training = training_arg.value_or(Tensor::training());
  if (x.ndim() < 2) return BnError("the input needs at least 2 dims (N, C, ...)");
  bool update = options.track_running_stats && training;
  if (update && x.numel() == x.shape()[1])
    return BnError("training needs more than one value per channel");
  auto [mean, var] = Stats(x, training);
  if (update) UpdateRunningStats(x, mean, var);
  return x.batchnorm(weight, bias, mean, var.add(options.eps).rsqrt());
}

void BatchNorm::VisitState(StateVisitor& v) {
  v.Parameter("weight", weight);
  v.Parameter("bias", bias);
  v.Buffer("num_batches_tracked", num_batches_tracked);
  v.Buffer("running_mean", running_mean);
  v.Buffer("running_var", running_var);
}

}  // namespace tg::nn
