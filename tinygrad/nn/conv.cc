// File: tinygrad/nn/conv.cc
#include "tinygrad/nn/conv.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/nn/conv_transpose.h"

namespace tg::nn {
namespace {

Tensor ConvError(const std::string& module, const std::string& what) {
  return Tensor::Error(absl::InvalidArgumentError(absl::StrCat(module, ": ", what)));
}

// Why these options can't build the module, or "" (checked before drawing any weight, so a
// refused module consumes no random numbers).
std::string OptionsProblem(int64_t in_channels, int64_t out_channels,
                           const std::vector<int64_t>& kernel_size, const ConvOptions& o) {
  if (kernel_size.empty()) return "kernel_size needs at least one dim";
  for (int64_t k : kernel_size)
    if (k <= 0) return "kernel sizes must be positive";
  if (in_channels <= 0 || out_channels <= 0) return "channel counts must be positive";
  if (o.groups < 1 || in_channels % o.groups != 0 || out_channels % o.groups != 0)
    return absl::StrCat("groups=", o.groups, " must divide in_channels=", in_channels,
                        " and out_channels=", out_channels);
  if (o.padding_same) {
    for (int64_t s : o.stride)
      if (s != 1) return "padding='same' is not supported for strided convolutions";
    if (o.dilation.size() != 1 && o.dilation.size() != kernel_size.size())
      return "dilation needs 1 value or one per kernel dim";
  }
  return "";
}

// padding="same": (d*(k-1)//2, d*(k-1) - d*(k-1)//2) per dim, the kernel dims taken last first
// (torch's flat order) while the dilations are taken in order, as the reference does.
std::vector<int64_t> SamePadding(const std::vector<int64_t>& kernel_size,
                                 const std::vector<int64_t>& dilation) {
  std::vector<int64_t> pad;
  size_t n = kernel_size.size();
  for (size_t i = 0; i < n; ++i) {
    int64_t d = dilation.size() == 1 ? dilation[0] : dilation[i];
    int64_t span = d * (kernel_size[n - 1 - i] - 1);
    pad.insert(pad.end(), {span / 2, span - span / 2});
  }
  return pad;
}

double InitScale(int64_t in_channels, const std::vector<int64_t>& kernel_size) {
  double fan_in = static_cast<double>(in_channels);
  for (int64_t k : kernel_size) fan_in *= static_cast<double>(k);
  return 1 / std::sqrt(fan_in);
}

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

Conv2d::Conv2d(const char* module, int64_t in_channels, int64_t out_channels,
               std::vector<int64_t> ks, const ConvOptions& o)
    : weight(Tensor::Error(absl::UnknownError("unset"))), kernel_size(std::move(ks)), options(o) {
  std::string problem = OptionsProblem(in_channels, out_channels, kernel_size, o);
  if (!problem.empty()) {
    weight = ConvError(module, problem);
    return;
  }
  if (o.padding_same) options.padding = SamePadding(kernel_size, o.dilation);
  double scale = InitScale(in_channels, kernel_size);
  weight = Tensor::Uniform(Concat({out_channels, in_channels / o.groups}, kernel_size), -scale, scale);
  if (o.bias) bias = Tensor::Uniform({out_channels}, -scale, scale);
}

Tensor Conv2d::operator()(const Tensor& x) const {
  return x.conv2d(weight, bias, {.groups = options.groups, .stride = options.stride,
                                 .dilation = options.dilation, .padding = options.padding});
}

void Conv2d::VisitState(StateVisitor& v) {
  v.Parameter("weight", weight);
  v.Parameter("bias", bias);
}

// The base Conv2d draws its weight and bias first, as the reference's super().__init__, and
// then the transposed weight is drawn: the same draws in the same order, so the reference's
// weights. A refused base leaves its errored weight.
ConvTranspose2d::ConvTranspose2d(int64_t in_channels, int64_t out_channels, std::vector<int64_t> ks,
                                 const ConvOptions& o)
    : Conv2d("ConvTranspose2d", in_channels, out_channels, std::move(ks), o) {
  if (!weight.ok()) return;
  double scale = InitScale(in_channels, kernel_size);
  weight = Tensor::Uniform(Concat({in_channels, out_channels / o.groups}, kernel_size), -scale, scale);
}

Tensor ConvTranspose2d::operator()(const Tensor& x) const {
  return ConvTranspose2dOp(x, weight, bias,
                           {.groups = options.groups, .stride = options.stride,
                            .dilation = options.dilation, .padding = options.padding,
                            .output_padding = options.output_padding});
}

}  // namespace tg::nn
