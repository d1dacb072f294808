// File: tinygrad/nn/init.cc
#include "tinygrad/nn/init.h"

#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tg {
namespace {

int64_t Prod(std::vector<int64_t>::const_iterator b, std::vector<int64_t>::const_iterator e) {
  int64_t p = 1;
  for (; b != e; ++b) p *= *b;
  return p;
}

Tensor InitError(const std::string& fn, const std::string& what) {
  return Tensor::Error(absl::InvalidArgumentError(absl::StrCat(fn, ": ", what)));
}

// prod(shape[1:]), the fan-in of a weight whose first dim is its outputs.
absl::StatusOr<int64_t> FanIn(const std::string& fn, const std::vector<int64_t>& shape) {
  if (shape.empty()) return absl::InvalidArgumentError(fn + ": needs a shape with at least one dim");
  int64_t fan_in = Prod(shape.begin() + 1, shape.end());
  if (fan_in <= 0) return absl::InvalidArgumentError(fn + ": the fan-in (product of the dims after the first) is 0");
  return fan_in;
}

}  // namespace

Tensor Normal(const std::vector<int64_t>& shape, double mean, double std, const TensorOpts& o) {
  return std * Tensor::Randn(shape, o) + mean;
}

Tensor ScaledUniform(const std::vector<int64_t>& shape, const TensorOpts& o) {
  int64_t n = Prod(shape.begin(), shape.end());
  if (n <= 0) return InitError("scaled_uniform", "the shape has no elements");
  return Tensor::Uniform(shape, -1.0, 1.0, o).mul(std::pow(static_cast<double>(n), -0.5));
}

Tensor GlorotUniform(const std::vector<int64_t>& shape, const TensorOpts& o) {
  absl::StatusOr<int64_t> fan_in = FanIn("glorot_uniform", shape);
  if (!fan_in.ok()) return Tensor::Error(fan_in.status());
  double scale = std::pow(6.0 / static_cast<double>(shape[0] + *fan_in), 0.5);
  return Tensor::Uniform(shape, -1.0, 1.0, o).mul(scale);
}

Tensor KaimingUniform(const std::vector<int64_t>& shape, double a, const TensorOpts& o) {
  absl::StatusOr<int64_t> fan_in = FanIn("kaiming_uniform", shape);
  if (!fan_in.ok()) return Tensor::Error(fan_in.status());
  double bound = std::sqrt(3.0) * std::sqrt(2.0 / (1 + a * a)) / std::sqrt(static_cast<double>(*fan_in));
  return Tensor::Uniform(shape, -bound, bound, o);
}

Tensor KaimingNormal(const std::vector<int64_t>& shape, double a, const TensorOpts& o) {
  absl::StatusOr<int64_t> fan_in = FanIn("kaiming_normal", shape);
  if (!fan_in.ok()) return Tensor::Error(fan_in.status());
  double std = std::sqrt(2.0 / (1 + a * a)) / std::sqrt(static_cast<double>(*fan_in));
  return Normal(shape, 0.0, std, o);
}

}  // namespace tg
