// File: tinygrad/tensor/nn.cc
// Linear algebra and NN ops: dot/matmul, linear, conv2d, max/avg pooling, layernorm,
// batchnorm, scaled dot-product attention.
// Port of tinygrad/tensor.py: dot/matmul (broadcast multiply + sum, which the scheduler fuses
// into one kernel), conv2d as _pool + multiply + sum (no winograd: WINO is off by default),
// _resolve_pool_pads, _apply_ceil_mode, max_pool2d, avg_pool2d, layernorm, batchnorm,
// scaled_dot_product_attention.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::CeilDiv;
using tensor_internal::Err;
using tensor_internal::PadFlat;
using tensor_internal::ShapeStr;

namespace {

Tensor Dot(const std::string& name, const Tensor& x_in, const Tensor& w_in, std::optional<DType> acc) {
  TG_TENSOR_RETURN_IF_ERROR(&x_in, &w_in);
  int64_t dx = x_in.ndim(), dw = w_in.ndim();
  const Shape &xs = x_in.sshape(), &ws = w_in.sshape();
  if (dx == 0 || dw == 0)
    return Err(name, absl::StrCat("both tensors need to be at least 1D, got ", dx, "D and ", dw, "D"));
  int64_t axis_w = dw - std::min<int64_t>(dw, 2);
  if (xs.back() != ws[axis_w])
    return Err(name, absl::StrCat("shapes ", ShapeStr(xs), " and ", ShapeStr(ws),
                                  " cannot be multiplied (", xs.back().repr(), " != ", ws[axis_w].repr(), ")"));
  int64_t ones = std::min<int64_t>({dx - 1, dw - 1, 1});
  Shape xr(xs.begin(), xs.end() - 1), wr(ws.begin(), ws.begin() + axis_w);
  for (int64_t i = 0; i < ones; ++i) {
    xr.push_back(1);
    wr.push_back(1);
  }
  xr.push_back(xs.back());
  wr.insert(wr.end(), ws.begin() + axis_w, ws.end());
  Tensor x = x_in.reshape(xr);
  Tensor w = w_in.reshape(wr).transpose(-1, axis_w - dw);
  TG_TENSOR_RETURN_IF_ERROR(&x, &w);
  // Batch dims must broadcast; say so in matmul's words rather than mul's.
  if (!tensor_internal::BroadcastShape(name, x.sshape(), w.sshape()).ok())
    return Err(name, absl::StrCat("shapes ", ShapeStr(xs), " and ", ShapeStr(ws),
                                  " have batch dims that cannot be broadcast"));
  DType out = acc.value_or(tensor_internal::PromoteTypes(x.dtype(), w.dtype()));
  return (x * w).sum(-1, false, acc).cast(out);
}

std::vector<int64_t> Tuple(const std::vector<int64_t>& v, size_t n) {
  return v.size() == 1 ? std::vector<int64_t>(n, v[0]) : v;
}

// _apply_ceil_mode: extra end padding so the last window that starts inside the input counts.
// In 128 bits (the reference's ints are unbounded): a pad past int64 is an error.
absl::StatusOr<std::vector<int64_t>> ApplyCeilMode(const std::string& name, const std::vector<int64_t>& shape,
                                                   std::vector<int64_t> pads, const std::vector<int64_t>& k,
                                                   const std::vector<int64_t>& s, const std::vector<int64_t>& d) {
  size_t n = k.size();
  std::vector<int64_t> i_(shape.end() - n, shape.end());
  std::vector<i128> grouped_b(n), grouped_a(n);
  for (size_t j = 0; j < n; ++j) {  // _flat_to_grouped: dim j is pads[2(n-1-j)], pads[2(n-1-j)+1]
    grouped_b[j] = pads[2 * (n - 1 - j)];
    grouped_a[j] = pads[2 * (n - 1 - j) + 1];
  }
  auto ceil_div = [](i128 a, i128 b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); };  // b > 0
  for (size_t j = 0; j < n; ++j) {
    const i128 pB = grouped_b[j], pA = grouped_a[j], in = i_[j] + pB + pA;
    const i128 window = i128{d[j]} * (k[j] - 1) + 1;  // < 2**126: each factor is an int64
    // (o - 1) * s is within s of in - window, so nothing below passes 2**127
    const i128 o = ceil_div(in - window, s[j]) + 1;
    const i128 pad = pads[pads.size() - 1 - j * 2] + s[j] * (o - 1) + window - in -
                     std::max<i128>(s[j] * (o - 1) - (pB + i_[j] - 1), 0);
    if (pad > std::numeric_limits<int64_t>::max() || pad < std::numeric_limits<int64_t>::min())
      return absl::InvalidArgumentError(absl::StrCat(name, ": ceil mode's padding of spatial dim ", j,
                                                     " passes an int64 (kernel ", ShapeStr(k), ", dilation ",
                                                     ShapeStr(d), ")"));
    pads[pads.size() - 1 - j * 2] = static_cast<int64_t>(pad);
  }
  return pads;
}

struct PoolSetup {
  std::vector<int64_t> k, s, d, pads, ceil_pads;  // ceil_pads with ceil_mode only
  std::vector<int64_t> axes;
};

absl::StatusOr<PoolSetup> SetupPool(const std::string& name, const Tensor& t, const PoolOpts& o) {
  PoolSetup p;
  p.k = o.kernel.size() == 1 ? std::vector<int64_t>(2, o.kernel[0]) : o.kernel;
  size_t n = p.k.size();
  if (n == 0 || static_cast<int64_t>(n) > t.ndim())
    return absl::InvalidArgumentError(absl::StrCat(name, ": can't pool ", ShapeStr(t.shape()),
                                                   " with kernel ", ShapeStr(p.k)));
  p.s = o.stride.empty() ? p.k : Tuple(o.stride, n);
  p.d = Tuple(o.dilation, n);
  if (p.s.size() != n || p.d.size() != n)
    return absl::InvalidArgumentError(absl::StrCat(name, ": stride/dilation length mismatch"));
  for (size_t j = 0; j < n; ++j)
    if (p.k[j] < 1 || p.s[j] < 1 || p.d[j] < 1)
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": kernel, stride and dilation must be positive, got kernel ",
                       ShapeStr(p.k), " stride ", ShapeStr(p.s), " dilation ", ShapeStr(p.d)));
  absl::StatusOr<std::vector<int64_t>> pads = tensor_internal::ResolvePoolPads(name, o.padding, n, t.shape());
  if (!pads.ok()) return pads.status();
  p.pads = *pads;
  if (o.ceil_mode) {
    absl::StatusOr<std::vector<int64_t>> ceil_pads = ApplyCeilMode(name, t.shape(), p.pads, p.k, p.s, p.d);
    if (!ceil_pads.ok()) return ceil_pads.status();
    p.ceil_pads = *std::move(ceil_pads);
  }
  for (int64_t j = -static_cast<int64_t>(n); j < 0; ++j) p.axes.push_back(j);
  return p;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> tensor_internal::ResolvePoolPads(const std::string& name,
                                                     const std::vector<int64_t>& p, size_t dims,
                                                     const std::vector<int64_t>& shape) {
  if (p.size() == 1) return std::vector<int64_t>(2 * dims, p[0]);
  if (p.size() == 2 * dims) return p;
  if (p.size() == dims) {
    std::vector<int64_t> out;
    for (auto it = p.rbegin(); it != p.rend(); ++it) out.insert(out.end(), {*it, *it});
    return out;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      name, ": padding must be an int or a sequence of length ", dims, " or ", 2 * dims,
      ", but got ", ShapeStr(p), " for ", ShapeStr(shape)));
}

Tensor Tensor::dot(const Tensor& w, std::optional<DType> acc) const { return Dot("dot", *this, w, acc); }
Tensor Tensor::matmul(const Tensor& w, std::optional<DType> acc) const {
  return Dot("matmul", *this, w, acc);
}

Tensor Tensor::linear(const Tensor& weight, const std::optional<Tensor>& bias) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &weight);
  Tensor x = weight.ndim() == 1 ? mul(weight) : Dot("linear", *this, weight, std::nullopt);
  return bias ? x + *bias : x;
}

Tensor Tensor::conv2d(const Tensor& weight, const std::optional<Tensor>& bias,
                      const Conv2dOpts& o) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &weight);
  if (bias) TG_TENSOR_RETURN_IF_ERROR(&*bias);
  std::vector<int64_t> xs = shape(), ws = weight.shape();
  if (xs.size() < 3 || xs.size() != ws.size())
    return Err("conv2d", "input " + ShapeStr(xs) + " and weight " + ShapeStr(ws) +
                             " need the same rank (at least 3)");
  int64_t bs = xs[0], cin_ = xs[1], cout = ws[0], cin = ws[1], g = o.groups;
  std::vector<int64_t> hw(ws.begin() + 2, ws.end());
  if (g < 1 || g * cin != cin_ || cout % g != 0)
    return Err("conv2d", absl::StrCat("input ", ShapeStr(xs), " does not match weight ",
                                      ShapeStr(ws), " with groups=", g, " (", g * cin, " vs. ",
                                      cin_, " channels)"));
  if (bias && (bias->ndim() != 1 || bias->shape()[0] != cout))
    return Err("conv2d", "bias " + ShapeStr(bias->shape()) + " does not match " +
                             std::to_string(cout) + " output channels");
  absl::StatusOr<std::vector<int64_t>> pads = tensor_internal::ResolvePoolPads("conv2d", o.padding, hw.size(), xs);
  if (!pads.ok()) return Error(pads.status());
  Tensor x = PadFlat(*this, *pads).pool(hw, o.stride, o.dilation);  // (bs, cin_, *oyx, *HW)
  TG_TENSOR_RETURN_IF_ERROR(&x);
  int64_t rcout = cout / g, nd = static_cast<int64_t>(hw.size());
  std::vector<int64_t> xsh = x.shape();
  std::vector<int64_t> oyx(xsh.begin() + 2, xsh.end() - nd);
  std::vector<int64_t> r1{bs, g, cin, 1}, e1{bs, g, cin, rcout}, perm{0, 1, 3};
  r1.insert(r1.end(), oyx.begin(), oyx.end());
  e1.insert(e1.end(), oyx.begin(), oyx.end());
  r1.insert(r1.end(), hw.begin(), hw.end());
  e1.insert(e1.end(), hw.begin(), hw.end());
  for (int64_t i = 0; i < nd; ++i) perm.push_back(4 + i);
  perm.push_back(2);
  for (int64_t i = 0; i < nd; ++i) perm.push_back(4 + nd + i);
  x = x.reshape(r1).expand(e1).permute(perm);  // (bs, groups, rcout, *oyx, cin, *HW)
  std::vector<int64_t> wr{1, g, rcout};
  for (int64_t i = 0; i < nd; ++i) wr.push_back(1);
  wr.push_back(cin);
  wr.insert(wr.end(), hw.begin(), hw.end());
  std::vector<int64_t> red, out{bs, cout};
  for (int64_t i = 0; i < 1 + nd; ++i) red.push_back(-1 - i);
  out.insert(out.end(), oyx.begin(), oyx.end());
  Tensor ret = (x * weight.reshape(wr)).sum(red, true, o.acc_dtype).reshape(out);
  if (!bias) return ret;
  std::vector<int64_t> br{1, -1};
  for (int64_t i = 0; i < nd; ++i) br.push_back(1);
  return ret + bias->reshape(br);
}

Tensor Tensor::max_pool2d(const PoolOpts& o) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  absl::StatusOr<PoolSetup> p = SetupPool("max_pool2d", *this, o);
  if (!p.ok()) return Error(p.status());
  const std::vector<int64_t>& pads = o.ceil_mode ? p->ceil_pads : p->pads;
  return PadFlat(*this, pads, tensor_internal::DTypeMin(dtype()))
      .pool(p->k, p->s, p->d)
      .max(p->axes);
}

Tensor Tensor::avg_pool2d(const PoolOpts& o) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  absl::StatusOr<PoolSetup> p = SetupPool("avg_pool2d", *this, o);
  if (!p.ok()) return Error(p.status());
  auto pool_of = [&](const Tensor& x, const std::vector<int64_t>& pads) {
    return PadFlat(x, pads).pool(p->k, p->s, p->d);
  };
  if (!o.count_include_pad) {
    const std::vector<int64_t>& pads = o.ceil_mode ? p->ceil_pads : p->pads;
    return pool_of(*this, pads).sum(p->axes) / pool_of(ones_like(), pads).sum(p->axes);
  }
  if (!o.ceil_mode) return pool_of(*this, p->pads).mean(p->axes);
  std::vector<int64_t> extra;
  for (size_t i = 0; i < p->pads.size(); ++i) extra.push_back(p->ceil_pads[i] - p->pads[i]);
  return pool_of(*this, p->ceil_pads).sum(p->axes) /
         pool_of(PadFlat(*this, p->pads).ones_like(), extra).sum(p->axes);
}

Tensor Tensor::layernorm(const Axes& axis, double eps) const {
  Tensor y = *this - mean(axis, true);
  return y.mul((y * y).mean(axis, true).add(eps).rsqrt());
}

Tensor Tensor::batchnorm(const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                         const Tensor& mean_t, const Tensor& invstd, const Axes& axis) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &mean_t, &invstd);
  absl::StatusOr<std::vector<int64_t>> ax = tensor_internal::ResolveAxes("batchnorm", axis, ndim());
  if (!ax.ok()) return Error(ax.status());
  std::vector<int64_t> s = shape(), bshape;
  for (int64_t i = 0; i < ndim(); ++i)
    bshape.push_back(std::find(ax->begin(), ax->end(), i) != ax->end() ? s[i] : 1);
  Tensor x = *this - mean_t.reshape(bshape);
  if (weight) x = x * weight->reshape(bshape);
  Tensor ret = x.mul(invstd.ndim() == static_cast<int64_t>(ax->size()) ? invstd.reshape(bshape) : invstd);
  return bias ? ret + bias->reshape(bshape) : ret;
}

Tensor Tensor::scaled_dot_product_attention(const Tensor& key, const Tensor& value,
                                            const std::optional<Tensor>& attn_mask,
                                            bool is_causal) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &key, &value);
  if (ndim() < 2 || key.ndim() < 2 || value.ndim() < 2)
    return Err("scaled_dot_product_attention", "query, key and value need at least 2 dims");
  DType acc = tensor_internal::PromoteTypes(tensor_internal::PromoteTypes(dtype(), key.dtype()), dtypes::float32);
  Tensor qk = Dot("scaled_dot_product_attention", *this, key.transpose(-2, -1), acc) /
              std::sqrt(static_cast<double>(shape().back()));
  TG_TENSOR_RETURN_IF_ERROR(&qk);
  std::optional<Tensor> mask = attn_mask;
  if (is_causal) {
    if (mask) return Err("scaled_dot_product_attention", "cannot set attn_mask when is_causal=true");
    mask = Full(qk.shape(), 1.0, {.dtype = dtypes::bool_, .device = device()}).tril();
  }
  if (mask) {
    Tensor m = mask->dtype() == dtypes::bool_ ? mask->where(0, -INFINITY) : *mask;
    qk = qk + m;
  }
  return Dot("scaled_dot_product_attention", qk.cast(dtype()).softmax(-1), value, std::nullopt);
}

}  // namespace tg
