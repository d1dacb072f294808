// File: tinygrad/tensor/scatter.cc
// Scatter and mask ops: scatter (plain, and with 'add' / 'multiply'), scatter_reduce,
// masked_fill, masked_select and max_unpool2d.
// Port of tinygrad/tensor.py: _pre_scatter, scatter, scatter_reduce, _masked_setitem (as
// scatter uses it), masked_fill, masked_select and max_unpool2d. As in the reference, a
// scatter is one-hot masks of the index along a new last axis, reduced over that axis: index
// values out of range match no position and write nothing.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;
using tensor_internal::Prod;
using tensor_internal::ShapeStr;

namespace {

// `t`, with an error raised by an op inside `op` reported as op's: "op: <inner message>".
Tensor Named(const std::string& op, Tensor t) {
  if (t.ok() || absl::StartsWith(t.status().message(), op + ":")) return t;
  return Err(op, std::string(t.status().message()));
}

// _pre_scatter: src and the one-hot mask of index, both laid out as (*self.shape, n) with n =
// index.shape[dim] (the positions along dim moved to the new last axis) and padded with
// no-op values (mask false) to self's shape.
struct PreScatter {
  Tensor src, mask;
};
absl::StatusOr<PreScatter> Prepare(const std::string& op, const Tensor& self, int64_t dim_in,
                                   const Tensor& index_in, const Tensor& src_in) {
  for (const Tensor* t : {&self, &index_in, &src_in}) {
    if (!t->ok()) return t->status();
    if (absl::Status st = tensor_internal::NeedsIntShape(op, *t); !st.ok()) return st;
  }
  const int64_t nd = self.ndim();
  if (index_in.ndim() != nd || src_in.ndim() != nd)
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": self, index and src must have the same rank, got ", nd, ", ",
                     index_in.ndim(), " and ", src_in.ndim()));
  absl::StatusOr<int64_t> dim_or = tensor_internal::ResolveDim(op, dim_in, nd);
  if (!dim_or.ok()) return dim_or.status();
  const int64_t dim = *dim_or;
  if (nd == 0) return absl::InvalidArgumentError(op + ": a 0-d tensor has no dim to scatter along");
  if (!dtypes::is_int(index_in.dtype()))
    return absl::InvalidArgumentError(op + ": index must be an int tensor, got " +
                                      index_in.dtype().repr());
  const std::vector<int64_t> s = self.shape(), is = index_in.shape(), ss = src_in.shape();
  for (int64_t d = 0; d < nd; ++d)
    if ((d != dim && s[d] < is[d]) || ss[d] < is[d])
      return absl::InvalidArgumentError(absl::StrCat(
          op, ": index ", ShapeStr(is), " must be no larger than src ", ShapeStr(ss),
          " in every dim and than self ", ShapeStr(s), " in every dim except dim ", dim));
  if (self.dtype() != src_in.dtype())
    return absl::InvalidArgumentError(op + ": src dtype " + src_in.dtype().repr() +
                                      " must equal self dtype " + self.dtype().repr());
  Tensor index = index_in.to(self.device());
  PadArg to_index;
  for (int64_t v : is) to_index.emplace_back(0, v);
  Tensor src = src_in.shrink(to_index);
  std::vector<int64_t> expanded = is;
  expanded.push_back(s[dim]);
  src = src.unsqueeze(-1).expand(expanded).transpose(-1, dim);
  Tensor mask = tensor_internal::OneHotAlongDim(index.unsqueeze(-1), s[dim], -1).transpose(-1, dim);
  PadArg to_self;
  for (int64_t d = 0; d < nd; ++d) to_self.emplace_back(0, d == dim ? 0 : s[d] - is[d]);
  to_self.emplace_back(0, 0);
  src = src.pad(to_self);
  mask = mask.pad(to_self);
  for (const Tensor* t : {&src, &mask})
    if (!t->ok()) return absl::InvalidArgumentError(absl::StrCat(op, ": ", t->status().message()));
  return PreScatter{src, mask};
}

// scatter_reduce, its errors named `op` (scatter with a reduce is one too).
Tensor ScatterReduceAs(const std::string& op, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& src_in, Tensor::ScatterReduce reduce, bool include_self) {
  using ScatterReduce = Tensor::ScatterReduce;
  absl::StatusOr<PreScatter> p = Prepare(op, self, dim, index, src_in);
  if (!p.ok()) return Tensor::Error(p.status());
  const Tensor &src = p->src, &mask = p->mask;
  // Where no index reaches: a, else b (the reference's _inv_mask).
  Tensor untouched = mask.any(-1).logical_not();
  const DType dt = src.dtype();
  switch (reduce) {
    case ScatterReduce::kSum:
      return Named(op,
                   mask.where(src, 0).sum(-1).add(include_self ? self : untouched.where(self, 0)));
    case ScatterReduce::kProd:
      return Named(op,
                   mask.where(src, 1).prod(-1).mul(include_self ? self : untouched.where(self, 1)));
    case ScatterReduce::kAmax: {
      ConstValue m = dtypes::min(dt);
      return Named(
          op, mask.where(src, m).max(-1).maximum(include_self ? self : untouched.where(self, m)));
    }
    case ScatterReduce::kAmin: {
      ConstValue m = dtypes::max(dt);
      return Named(
          op, mask.where(src, m).min(-1).minimum(include_self ? self : untouched.where(self, m)));
    }
    case ScatterReduce::kMean: {
      Tensor count = mask.where(1, 0).sum(-1);
      count = include_self ? count.add(1) : count.add(untouched.where(1, 0));
      Tensor total = mask.where(src, 0).sum(-1).add(include_self ? self : untouched.where(self, 0));
      return Named(op, total.div(count));
    }
  }
  return Err(op, "unknown reduce");
}

}  // namespace

Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  absl::StatusOr<PreScatter> p = Prepare("scatter", *this, dim, index, src);
  if (!p.ok()) return Error(p.status());
  return Named("scatter", tensor_internal::MaskedSetitem(*this, p->src, p->mask, {-1}));
}

Tensor Tensor::scatter(int64_t dim, const Tensor& index, ConstValue src) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &index);
  return scatter(dim, index, Full(index.sshape(), src, {.dtype = dtype(), .device = device()}));
}

Tensor Tensor::scatter(int64_t dim, const Tensor& index, ConstValue src, ScatterMode reduce) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &index);
  Tensor s = Full(index.sshape(), src, {.dtype = dtype(), .device = device()});
  return ScatterReduceAs("scatter", *this, dim, index, s,
                         reduce == ScatterMode::kAdd ? ScatterReduce::kSum : ScatterReduce::kProd,
                         true);
}

Tensor Tensor::scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                              ScatterReduce reduce, bool include_self) const {
  return ScatterReduceAs("scatter_reduce", *this, dim, index, src, reduce, include_self);
}

Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& value) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &mask, &value);
  return Named("masked_fill", mask.where(value, *this));
}

Tensor Tensor::masked_fill(const Tensor& mask, ConstValue value) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &mask);
  return Named("masked_fill", mask.where(value, *this));
}

Tensor Tensor::masked_select(const Tensor& mask_in) const {
  const std::string op = "masked_select";
  TG_TENSOR_RETURN_IF_ERROR(this, &mask_in);
  if (!dtypes::is_bool(mask_in.dtype()))
    return Err(op, "expects a bool mask tensor, got " + mask_in.dtype().repr());
  if (absl::Status st = tensor_internal::NeedsIntShape(op, *this); !st.ok()) return Error(st);
  if (absl::Status st = tensor_internal::NeedsIntShape(op, mask_in); !st.ok()) return Error(st);
  if (numel() == 0) return Err(op, "cannot select from an empty tensor " + ShapeStr(shape()));
  Tensor x = flatten();
  Tensor mask = Named(op, tensor_internal::BroadcastTo(mask_in, sshape())).flatten();
  TG_TENSOR_RETURN_IF_ERROR(&mask);
  Tensor mask_cumsum = mask.cumsum();
  // The number of selected elements decides the result's shape: read it now.
  absl::StatusOr<int32_t> count = mask_cumsum[-1].item<int32_t>();
  if (!count.ok())
    return Err(op, absl::StrCat("reading the count failed: ", count.status().message()));
  // counts[k] = #positions whose running count is k; its cumsum is the k-th selected position.
  Tensor counts = Zeros(std::vector<int64_t>{*count}, {.dtype = dtypes::int32, .device = device()});
  Tensor idxs = counts.scatter(0, mask_cumsum, 1, ScatterMode::kAdd).cumsum();
  return Named(op, x[idxs]);
}

Tensor Tensor::max_unpool2d(const Tensor& indices, const std::vector<int64_t>& kernel_size,
                            const std::vector<int64_t>& stride,
                            const std::vector<int64_t>& dilation,
                            const std::vector<int64_t>& padding,
                            const std::optional<std::vector<int64_t>>& output_size) const {
  const std::string op = "max_unpool2d";
  TG_TENSOR_RETURN_IF_ERROR(this, &indices);
  if (absl::Status st = tensor_internal::NeedsIntShape(op, *this); !st.ok()) return Error(st);
  if (ndim() < 2)
    return Err(op, "expects (batch, channel, *spatial), got shape " + ShapeStr(shape()));
  if (!dtypes::is_int(indices.dtype()))
    return Err(op, "indices must be an int tensor, got " + indices.dtype().repr());
  const std::vector<int64_t> s = shape();
  const int64_t bs = s[0], c = s[1];
  const std::vector<int64_t> spatial(s.begin() + 2, s.end());
  const size_t n = spatial.size();
  std::vector<int64_t> out;
  if (!output_size) {
    // make_tuple: one value for every dim, else the values in order (zip keeps the first n).
    auto per_dim = [&](const std::string& what,
                       const std::vector<int64_t>& v) -> absl::StatusOr<std::vector<int64_t>> {
      if (v.size() == 1) return std::vector<int64_t>(n, v[0]);
      if (v.size() < n)
        return absl::InvalidArgumentError(absl::StrCat(op, ": ", what, " ", ShapeStr(v),
                                                       " has fewer entries than the ", n,
                                                       " spatial dims of ", ShapeStr(s)));
      return std::vector<int64_t>(v.begin(), v.begin() + static_cast<int64_t>(n));
    };
    absl::StatusOr<std::vector<int64_t>> k = per_dim("kernel_size", kernel_size);
    absl::StatusOr<std::vector<int64_t>> d = per_dim("dilation", dilation);
    absl::StatusOr<std::vector<int64_t>> st =
        per_dim("stride", stride.empty() ? kernel_size : stride);
    absl::StatusOr<std::vector<int64_t>> pads =
        tensor_internal::ResolvePoolPads("max_unpool2d", padding, n, s);
    for (const absl::Status& e : {k.status(), d.status(), st.status(), pads.status()})
      if (!e.ok()) return Error(e);
    for (size_t j = 0; j < n; ++j) {
      // the inverse of relationship 15 in arxiv.org/pdf/1603.07285, section 5.1
      const int64_t pad_sum = (*pads)[2 * (n - 1 - j)] + (*pads)[2 * (n - 1 - j) + 1];
      out.push_back((spatial[j] - 1) * (*st)[j] - pad_sum + ((*d)[j] * ((*k)[j] - 1) + 1));
    }
  } else {
    if (output_size->size() < n)
      return Err(
          op, absl::StrCat("output_size ", ShapeStr(*output_size), " has fewer entries than the ",
                           n, " spatial dims of ", ShapeStr(s)));
    out.assign(output_size->end() - static_cast<int64_t>(n), output_size->end());
  }
  for (int64_t v : out)
    if (v < 0) return Err(op, "negative output size " + ShapeStr(out));
  const int64_t positions = Prod(out);
  Tensor idx = indices.reshape(std::vector<int64_t>{bs, c, 1, -1});
  Tensor vals = reshape(std::vector<int64_t>{bs, c, 1, -1});
  TG_TENSOR_RETURN_IF_ERROR(&idx, &vals);
  // _one_hot_along_dim(prod(output_size), dim=2): (bs, c, positions, values)
  DType dt = positions > INT32_MAX ? dtypes::int64 : dtypes::int32;
  Tensor hot = idx.eq(Arange(positions, {.dtype = dt, .device = idx.device()})
                          .reshape(std::vector<int64_t>{positions, 1}));
  std::vector<int64_t> final_shape{bs, c};
  final_shape.insert(final_shape.end(), out.begin(), out.end());
  return Named(op, hot.where(vals, 0).sum(3).reshape(final_shape));
}

}  // namespace tg
