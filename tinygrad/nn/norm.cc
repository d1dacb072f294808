// File: tinygrad/nn/norm.cc
#include "tinygrad/nn/norm.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tg::nn {
namespace {

Tensor NormError(const std::string& module, const std::string& what) {
  return Tensor::Error(absl::InvalidArgumentError(absl::StrCat(module, ": ", what)));
}

// x normalized over groups of `groups` x (rest) per sample, then scaled per channel (dim 1):
// GroupNorm, and InstanceNorm with one group per channel.
Tensor NormalizeGroups(const std::string& module, const Tensor& x, int64_t groups, int64_t channels,
                       double eps, const std::optional<Tensor>& weight,
                       const std::optional<Tensor>& bias) {
  if (!x.ok()) return x;
  if (x.ndim() < 2 || x.shape()[1] != channels)
    return NormError(module, absl::StrCat("expected an input (N, ", channels, ", ...), got (",
                                          absl::StrJoin(x.shape(), ", "), ")"));
  Tensor y = x.reshape({x.shape()[0], groups, int64_t{-1}}).layernorm(-1, eps).reshape(x.sshape());
  if (!weight || !bias) return y;
  std::vector<int64_t> channel_shape(x.ndim(), 1);
  channel_shape[1] = -1;
  return y * weight->reshape(channel_shape) + bias->reshape(channel_shape);
}

}  // namespace

LayerNorm::LayerNorm(std::vector<int64_t> shape, double eps_in, bool elementwise_affine)
    : normalized_shape(std::move(shape)), eps(eps_in) {
  if (elementwise_affine) {
    weight = Tensor::Ones(normalized_shape);
    bias = Tensor::Zeros(normalized_shape);
  }
}

Tensor LayerNorm::operator()(const Tensor& x) const {
  if (!x.ok()) return x;
  std::vector<int64_t> xs = x.shape();
  size_t n = normalized_shape.size();
  if (xs.size() < n || !std::equal(normalized_shape.begin(), normalized_shape.end(), xs.end() - n))
    return NormError("LayerNorm", absl::StrCat("the last dims of (", absl::StrJoin(xs, ", "),
                                               ") must be (", absl::StrJoin(normalized_shape, ", "), ")"));
  std::vector<int64_t> axes;
  for (size_t i = 0; i < n; ++i) axes.push_back(-1 - static_cast<int64_t>(i));
  Tensor y = x.layernorm(axes, eps);
  if (!weight || !bias) return y;
  return y * *weight + *bias;
}

void LayerNorm::VisitState(StateVisitor& v) {
  v.Parameter("weight", weight);
  v.Parameter("bias", bias);
}

Tensor LayerNorm2d::operator()(const Tensor& x) const {
  if (!x.ok()) return x;
  if (x.ndim() != 4)
    return NormError("LayerNorm2d", absl::StrCat("expects (N, C, H, W), got (",
                                                 absl::StrJoin(x.shape(), ", "), ")"));
  return LayerNorm::operator()(x.permute({0, 2, 3, 1})).permute({0, 3, 1, 2});
}

RMSNorm::RMSNorm(int64_t dim, double eps_in, bool elementwise_affine) : eps(eps_in) {
  if (elementwise_affine) weight = Tensor::Ones(Shape{dim});
}

Tensor RMSNorm::operator()(const Tensor& x) const {
  if (!x.ok()) return x;
  Tensor xf = x.cast(dtypes::float32);
  Tensor y = (xf * (xf.square().mean(-1, true) + eps).rsqrt()).cast(x.dtype());
  return weight ? y * *weight : y;
}

void RMSNorm::VisitState(StateVisitor& v) { v.Parameter("weight", weight); }

GroupNorm::GroupNorm(int64_t groups, int64_t channels, double eps_in, bool affine)
    : num_groups(groups), num_channels(channels), eps(eps_in) {
  if (affine) {
    weight = Tensor::Ones(Shape{channels});
    bias = Tensor::Zeros(Shape{channels});
  }
}

Tensor GroupNorm::operator()(const Tensor& x) const {
  if (num_groups <= 0 || num_channels % num_groups != 0)
    return NormError("GroupNorm", absl::StrCat("num_groups=", num_groups,
                                               " must divide num_channels=", num_channels));
  return NormalizeGroups("GroupNorm", x, num_groups, num_channels, eps, weight, bias);
}

void GroupNorm::VisitState(StateVisitor& v) {
  v.Parameter("weight", weight);
  v.Parameter("bias", bias);
}

InstanceNorm::InstanceNorm(int64_t features, double eps_in, bool affine)
    : num_features(features), eps(eps_in) {
  if (affine) {
    weight = Tensor::Ones(Shape{features});
    bias = Tensor::Zeros(Shape{features});
  }
}

Tensor InstanceNorm::operator()(const Tensor& x) const {
  return NormalizeGroups("InstanceNorm", x, num_features, num_features, eps, weight, bias);
}

void InstanceNorm::VisitState(StateVisitor& v) {
  v.Parameter("weight", weight);
  v.Parameter("bias", bias);
}

}  // namespace tg::nn
