// File: tinygrad/nn/conv.h
// nn.Conv2d and nn.ConvTranspose2d (tinygrad/nn/__init__.py), for any number of spatial dims
// (a kernel_size of one value per dim: {k} is the reference's Conv1d). Weights and bias drawn
// from uniform(-s, s), s = 1/sqrt(in_channels * prod(kernel_size)), in the reference's order.
// Bad options (groups that don't divide, padding "same" with a stride) give a module whose
// weight is errored, so its output is an errored tensor naming the problem.
#ifndef TINYGRAD_NN_CONV_H_
#define TINYGRAD_NN_CONV_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {

struct ConvOptions {
  std::vector<int64_t> stride = {1};    // one value for every spatial dim, or one per dim
  std::vector<int64_t> padding = {0};   // as Conv2dOpts::padding
  bool padding_same = false;            // the reference's padding="same" (stride 1 only)
  std::vector<int64_t> dilation = {1};
  int64_t groups = 1;
  bool bias = true;
  std::vector<int64_t> output_padding = {0};  // ConvTranspose2d only
};

class Conv2d : public Module {
 public:
  // kernel_size: one value per spatial dim.
  Conv2d(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
         const ConvOptions& o = {})
      : Conv2d("Conv2d", in_channels, out_channels, std::move(kernel_size), o) {}
  // A square (k, k) kernel.
  Conv2d(int64_t in_channels, int64_t out_channels, int64_t kernel_size, const ConvOptions& o = {})
      : Conv2d(in_channels, out_channels, std::vector<int64_t>{kernel_size, kernel_size}, o) {}
  Tensor operator()(const Tensor& x) const;
  void VisitState(StateVisitor& v) override;

  Tensor weight;  // (out, in/groups, *kernel_size); ConvTranspose2d: (in, out/groups, ...)
  std::optional<Tensor> bias;
  std::vector<int64_t> kernel_size;
  ConvOptions options;  // padding resolved when padding_same

 protected:
  // `module` names the module in errors.
  Conv2d(const char* module, int64_t in_channels, int64_t out_channels,
         std::vector<int64_t> kernel_size, const ConvOptions& o);
};

// A Conv2d whose weight is (in, out/groups, *kernel_size), applied as a transposed convolution
// (as the reference's subclass; state, options and bias are Conv2d's).
class ConvTranspose2d : public Conv2d {
 public:
  ConvTranspose2d(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
                  const ConvOptions& o = {});
  ConvTranspose2d(int64_t in_channels, int64_t out_channels, int64_t kernel_size,
                  const ConvOptions& o = {})
      : ConvTranspose2d(in_channels, out_channels, std::vector<int64_t>{kernel_size, kernel_size}, o) {}
  Tensor operator()(const Tensor& x) const;
};

}  // namespace tg::nn

#endif  // TINYGRAD_NN_CONV_H_
