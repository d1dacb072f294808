// File: tinygrad/nn/init.h
// Weight initializers: tinygrad's Tensor.normal, scaled_uniform, glorot_uniform,
// kaiming_uniform and kaiming_normal (tensor.py), as functions next to Tensor::Uniform and
// Tensor::Randn. They draw from the same generator in the same order as the reference, so after
// Tensor::ManualSeed(s) they give the reference's values bit for bit.
//
// Example:
//   Tensor::ManualSeed(0);
//   Tensor w = KaimingUniform({64, 3, 3, 3});   // the reference's Tensor.kaiming_uniform(64, 3, 3, 3)
//
// A shape these can't use (glorot/kaiming of a 0-d shape, fan-in or fan-out of 0, a negative
// std) gives an errored tensor naming the function.
#ifndef TINYGRAD_NN_INIT_H_
#define TINYGRAD_NN_INIT_H_

#include <cstdint>
#include <vector>

#include "tinygrad/tensor/tensor.h"

namespace tg {

// std * randn(shape) + mean.
Tensor Normal(const std::vector<int64_t>& shape, double mean = 0.0, double std = 1.0,
              const TensorOpts& o = {});
// uniform(-1, 1) scaled by prod(shape)^-0.5.
Tensor ScaledUniform(const std::vector<int64_t>& shape, const TensorOpts& o = {});
// uniform(-1, 1) scaled by sqrt(6 / (shape[0] + prod(shape[1:]))).
Tensor GlorotUniform(const std::vector<int64_t>& shape, const TensorOpts& o = {});
// uniform(-b, b) with b = sqrt(3) * sqrt(2 / (1 + a^2)) / sqrt(prod(shape[1:])) (torch's
// kaiming_uniform_ with leaky-relu slope a; the fan-in is every dim but the first).
Tensor KaimingUniform(const std::vector<int64_t>& shape, double a = 0.01,
                      const TensorOpts& o = {});
// Normal(0, sqrt(2 / (1 + a^2)) / sqrt(prod(shape[1:]))).
Tensor KaimingNormal(const std::vector<int64_t>& shape, double a = 0.01,
                     const TensorOpts& o = {});

}  // namespace tg

#endif  // TINYGRAD_NN_INIT_H_
