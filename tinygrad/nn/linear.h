// File: tinygrad/nn/linear.h
// nn.Linear (tinygrad/nn/__init__.py): y = x @ weight.T + bias, weight (out, in) and bias (out)
// drawn from uniform(-1/sqrt(in), 1/sqrt(in)) as the reference draws them.
#ifndef TINYGRAD_NN_LINEAR_H_
#define TINYGRAD_NN_LINEAR_H_

#include <cstdint>
#include <optional>

#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true);
  Tensor operator()(const Tensor& x) const;
  void VisitState(StateVisitor& v) override;

  Tensor weight;
  std::optional<Tensor> bias;
};

}  // namespace tg::nn

#endif  // TINYGRAD_NN_LINEAR_H_
