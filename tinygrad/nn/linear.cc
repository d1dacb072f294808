// File: tinygrad/nn/linear.cc
#include "tinygrad/nn/linear.h"

#include <cmath>

namespace tg::nn {

Linear::Linear(int64_t in_features, int64_t out_features, bool has_bias)
    : weight(Tensor::Error(absl::InvalidArgumentError("Linear: in_features must be positive"))) {
  if (in_features <= 0) return;
  double bound = 1 / std::sqrt(static_cast<double>(in_features));
  weight = Tensor::Uniform({out_features, in_features}, -bound, bound);
  if (has_bias) bias = Tensor::Uniform({out_features}, -bound, bound);
}

Tensor Linear::operator()(const Tensor& x) const { return x.linear(weight.transpose(), bias); }

void Linear::VisitState(StateVisitor& v) {
  v.Parameter("weight", weight);
  v.Parameter("bias", bias);
}

}  // namespace tg::nn
