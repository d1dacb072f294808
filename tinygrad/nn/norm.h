// File: tinygrad/nn/norm.h
// The normalizations without running state (tinygrad/nn/__init__.py): LayerNorm over the last
// dims, LayerNorm2d over the channels of (N, C, H, W) images, RMSNorm over the last dim, GroupNorm
// over groups of channels, InstanceNorm over each channel of each sample. Affine weights start at
// ones and biases at zeros, as the reference's. An input of the wrong shape gives an errored tensor
// naming the module.
#ifndef TINYGRAD_NN_NORM_H_
#define TINYGRAD_NN_NORM_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

class LayerNorm : public Module {
 public:
  explicit LayerNorm(std::vector<int64_t> normalized_shape, double eps = 1e-5,
                     bool elementwise_affine = true);
  explicit LayerNorm(int64_t normalized_size, double eps = 1e-5, bool elementwise_affine = true)
      : LayerNorm(std::vector<int64_t>{normalized_size}, eps, elementwise_affine) {}
  Tensor operator()(const Tensor& x) const;
  void VisitState(StateVisitor& v) override;

  std::optional<Tensor> weight, bias;  // normalized_shape
  std::vector<int64_t> normalized_shape;
  double eps;
};

// LayerNorm over the channels of an (N, C, H, W) input: each pixel's C values normalized
// (ConvNeXt's norm; the reference permutes to channels-last and back).
class LayerNorm2d : public LayerNorm {
 public:
  explicit LayerNorm2d(int64_t channels, double eps = 1e-5, bool elementwise_affine = true)
      : LayerNorm(channels, eps, elementwise_affine) {}
  Tensor operator()(const Tensor& x) const;
};

class RMSNorm : public Module {
 public:
  explicit RMSNorm(int64_t dim, double eps = 1e-6, bool elementwise_affine = true);
  // Normalized in float32, then cast back to x's dtype before the weight.
  Tensor operator()(const Tensor& x) const;
  void VisitState(StateVisitor& v) override;

  std::optional<Tensor> weight;
  double eps;
};

class GroupNorm : public Module {
 public:
  GroupNorm(int64_t num_groups, int64_t num_channels, double eps = 1e-5, bool affine = true);
  Tensor operator()(const Tensor& x) const;  // x: (N, num_channels, ...)
  void VisitState(StateVisitor& v) override;

  std::optional<Tensor> weight, bias;  // (num_channels)
  int64_t num_groups, num_channels;
  double eps;
};

class InstanceNorm : public Module {
 public:
  explicit InstanceNorm(int64_t num_features, double eps = 1e-5, bool affine = true);
  Tensor operator()(const Tensor& x) const;  // x: (N, num_features, ...)
  void VisitState(StateVisitor& v) override;

  std::optional<Tensor> weight, bias;  // (num_features)
  int64_t num_features;
  double eps;
};

}  // namespace tg::nn

#endif  // TINYGRAD_NN_NORM_H_
