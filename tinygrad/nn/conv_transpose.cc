// File: tinygrad/nn/conv_transpose.cc
#include "tinygrad/nn/conv_transpose.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tg {
namespace {

Tensor Err(const std::string& what) {
  return Tensor::Error(absl::InvalidArgumentError("conv_transpose2d: " + what));
}

// make_tuple: one value for every dim, or one per dim; nullopt for another length.
std::optional<std::vector<int64_t>> PerDim(const std::vector<int64_t>& v, size_t n) {
  if (v.size() == 1) return std::vector<int64_t>(n, v[0]);
  if (v.size() == n) return v;
  return std::nullopt;
}

}  // namespace

Tensor ConvTranspose2dOp(const Tensor& x_in, const Tensor& weight, const std::optional<Tensor>& bias,
                         const ConvTranspose2dOpts& o) {
  if (!x_in.ok()) return x_in;
  if (!weight.ok()) return weight;
  std::vector<int64_t> ws = weight.shape();
  if (ws.size() < 3) return Err("the weight needs at least 3 dims (in, out/groups, *kernel)");
  if (o.groups < 1 || ws[0] % o.groups != 0)
    return Err(absl::StrCat("groups=", o.groups, " does not divide the weight's ", ws[0], " input channels"));
  if (x_in.ndim() != static_cast<int64_t>(ws.size()))
    return Err(absl::StrCat("the input has ", x_in.ndim(), " dims, the weight ", ws.size()));
  size_t n = ws.size() - 2;
  std::vector<int64_t> hw(ws.begin() + 2, ws.end());
  std::optional<std::vector<int64_t>> stride = PerDim(o.stride, n), dilation = PerDim(o.dilation, n),
                                      out_pad = PerDim(o.output_padding, n);
  if (!stride || !dilation || !out_pad)
    return Err(absl::StrCat("stride, dilation and output_padding need 1 or ", n, " values"));
  // _resolve_pool_pads then _flat_to_grouped: the (before, after) padding of each dim in order.
  std::vector<int64_t> flat;
  if (o.padding.size() == 1) flat.assign(2 * n, o.padding[0]);
  else if (o.padding.size() == 2 * n) flat = o.padding;
  else if (o.padding.size() == n)
    for (auto it = o.padding.rbegin(); it != o.padding.rend(); ++it) flat.insert(flat.end(), {*it, *it});
  else return Err(absl::StrCat("padding needs 1, ", n, " or ", 2 * n, " values, got ", o.padding.size()));
  std::vector<int64_t> pad_b(n), pad_a(n);
  for (size_t j = 0; j < n; ++j) {
    pad_b[j] = flat[2 * (n - 1 - j)];
    pad_a[j] = flat[2 * (n - 1 - j) + 1];
  }

  std::vector<int64_t> flip_axes;
  for (size_t i = 3; i < ws.size() + 1; ++i) flip_axes.push_back(static_cast<int64_t>(i));
  Tensor w = weight.unflatten(0, {o.groups, -1}).transpose(1, 2).flip(flip_axes);
  Tensor x = x_in;
  bool strided = false;
  for (int64_t s : *stride) strided |= s > 1;
  if (strided) {
    // Dilate the input by the stride: (k) -> (k,1) -> pad to (k,s) -> (k*s) -> shrink to k*s-(s-1).
    std::vector<int64_t> xs = x.shape();
    std::vector<int64_t> split{xs[0], xs[1]}, joined{xs[0], xs[1]};
    std::vector<std::pair<int64_t, int64_t>> zero_pad{{0, 0}, {0, 0}}, keep{{0, xs[0]}, {0, xs[1]}};
    for (size_t j = 0; j < n; ++j) {
      int64_t k = xs[2 + j], s = (*stride)[j];
      split.insert(split.end(), {k, 1});
      zero_pad.insert(zero_pad.end(), {{0, 0}, {0, s - 1}});
      joined.push_back(k * s);
      keep.push_back({0, k * s - (s - 1)});
    }
    x = x.reshape(split).pad(zero_pad).reshape(joined).shrink(keep);
  }
  std::vector<int64_t> conv_pad;  // torch's flat order: the last dim first
  for (size_t r = 0; r < n; ++r) {
    size_t j = n - 1 - r;
    int64_t span = (hw[j] - 1) * (*dilation)[j];
    conv_pad.insert(conv_pad.end(), {span - pad_b[j], span - pad_a[j] + (*out_pad)[j]});
  }
  return x.conv2d(w.flatten(0, 1), bias, {.groups = o.groups, .dilation = *dilation, .padding = conv_pad});
}

}  // namespace tg
