// File: tinygrad/tensor/sort.cc
// Sorting and sampling: sort, argsort, topk, randperm, multinomial.
// Port of tinygrad/tensor.py sort (a bitonic sorting network built from tensor ops: pad to a
// power of two, unflatten the dim into one size-2 dim per bit, compare-and-swap halves with
// maximum/minimum), argsort, topk, randperm (argsort of rand) and multinomial (inverse-cdf
// sampling from rand). The indices come from matching each sorted value with the original
// element that has the same value and the same count of equal elements before it, so equal
// elements keep their original order (a stable sort) in both directions.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;
using tensor_internal::ResolveDim;
using tensor_internal::ShapeStr;

namespace {

std::pair<Tensor, Tensor> Both(const Tensor& t) { return {t, t}; }

// The resolved dim of `op` on `t`, or the errored tensor saying why there is none.
absl::StatusOr<int64_t> SortDim(const std::string& op, const Tensor& t, int64_t dim) {
  if (!t.ok()) return t.status();
  if (absl::Status st = tensor_internal::NeedsIntShape(op, t); !st.ok()) return st;
  absl::StatusOr<int64_t> d = ResolveDim(op, dim, t.ndim());
  if (!d.ok()) return d.status();
  if (t.ndim() == 0)
    return absl::InvalidArgumentError(op + ": a 0-d tensor has no dim to sort along");
  return *d;
}

// Python's int.bit_length for n >= 0.
int64_t BitLength(int64_t n) { return n <= 0 ? 0 : 64 - __builtin_clzll(static_cast<uint64_t>(n)); }

// Within each group of equal values along `dim`, the 1-based rank of each element (how many
// equal elements sit at or before it). `mask` is the (n, n, 1...) lower-triangular bool mask.
Tensor EqualCounts(const Tensor& t, const Tensor& mask, int64_t dim) {
  return (mask & t.unsqueeze(dim).eq(t.unsqueeze(dim + 1))).sum(dim + 1);
}

}  // namespace

std::pair<Tensor, Tensor> Tensor::sort(int64_t dim_in, bool descending) const {
  absl::StatusOr<int64_t> dim_or = SortDim("sort", *this, dim_in);
  if (!dim_or.ok()) return Both(Error(dim_or.status()));
  const int64_t dim = *dim_or, nd = ndim();
  const int64_t n = shape()[dim];
  if (n <= 1) return {*this, full_like(0).cast(dtypes::default_int)};

  // Pad the dim to 2**n_stages with the value that sorts last, then give each bit its own dim.
  const int64_t n_stages = BitLength(n - 1);
  PadArg pads(nd, {SInt(0), SInt(0)});
  pads[dim] = {SInt(0), SInt((int64_t{1} << n_stages) - n)};
  Tensor x = pad(pads, descending ? dtypes::min(dtype()) : dtypes::max(dtype()))
                 .unflatten(dim, std::vector<int64_t>(n_stages, 2));
  for (int64_t stage = 1; stage <= n_stages; ++stage) {
    const int64_t crossover = dim + n_stages - stage - 1;
    std::vector<int64_t> flip_dims;
    if (stage != n_stages) {
      // Flip the second box so its comparators point the way the first box's do.
      for (int64_t i = 1; i < stage + 1 + (nd - dim); ++i) flip_dims.push_back(-i);
      std::vector<Tensor> boxes = x.split(1, crossover);
      if (boxes.size() != 2) return Both(boxes[0]);
      x = Cat({boxes[0], boxes[1].flip(flip_dims)}, crossover).contiguous();
    }
    for (int64_t substage = stage - 1; substage >= 0; --substage) {
      const int64_t partner = dim + n_stages - substage - 1;
      std::vector<Tensor> halves = x.split(1, partner);
      if (halves.size() != 2) return Both(halves[0]);
      Tensor larger = halves[0].maximum(halves[1]), smaller = halves[0].minimum(halves[1]);
      x = (descending ? Cat({larger, smaller}, partner) : Cat({smaller, larger}, partner))
              .contiguous();
    }
    if (stage != n_stages) {  // flip back, undoing the crossover
      std::vector<Tensor> boxes = x.split(1, crossover);
      if (boxes.size() != 2) return Both(boxes[0]);
      x = Cat({boxes[0], boxes[1].flip(flip_dims)}, crossover);
    }
  }
  PadArg keep;
  for (int64_t s : shape()) keep.emplace_back(SInt(0), SInt(s));
  x = x.flatten(dim, dim + n_stages - 1).shrink(keep);

  // Original position of each sorted value: the element with that value and that rank among
  // its equals.
  std::vector<int64_t> mask_shape{n, n};
  mask_shape.resize(mask_shape.size() + (nd - dim - 1), 1);
  Tensor mask =
      Ones({n, n}, {.dtype = dtypes::bool_, .device = device()}).tril().reshape(mask_shape);
  Tensor count_orig = EqualCounts(*this, mask, dim), count_sorted = EqualCounts(x, mask, dim);
  Tensor cond = unsqueeze(dim + 1).eq(x.unsqueeze(dim)) &
                count_orig.unsqueeze(dim + 1).eq(count_sorted.unsqueeze(dim));
  std::vector<int64_t> idx_shape(nd, 1);
  idx_shape[dim] = n;
  Tensor idx = Arange(n, {.device = device()}).reshape(idx_shape);
  idx = (cond * idx.unsqueeze(dim + 1)).sum(dim);
  if (!x.ok()) return Both(x);
  if (!idx.ok()) return Both(idx);
  return {x, idx};
}

Tensor Tensor::argsort(int64_t dim, bool descending) const {
  absl::StatusOr<int64_t> d = SortDim("argsort", *this, dim);
  if (!d.ok()) return Error(d.status());
  return sort(*d, descending).second;
}

std::pair<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim_in, bool largest, bool sorted) const {
  absl::StatusOr<int64_t> dim_or = SortDim("topk", *this, dim_in);
  if (!dim_or.ok()) return Both(Error(dim_or.status()));
  const int64_t dim = *dim_or;
  if (!sorted) return Both(Err("topk", "sorted=false is not supported"));
  const int64_t n = shape()[dim];
  if (k < 0 || k > n)
    return Both(Err("topk", absl::StrCat("k=", k, " is out of range for dim ", dim, " of size ", n,
                                         " (shape ", ShapeStr(shape()), ")")));
  auto [x, idx] = sort(dim, /*descending=*/largest);
  PadArg to_k;
  for (int64_t i = 0; i < ndim(); ++i) to_k.emplace_back(SInt(0), SInt(i == dim ? k : shape()[i]));
  return {x.shrink(to_k), idx.shrink(to_k)};
}

Tensor Tensor::Randperm(int64_t n, const TensorOpts& o) {
  if (n < 0) return Err("randperm", absl::StrCat("n must be non-negative, got ", n));
  // float32 random keys (the default float), argsorted; o.dtype only sets the result's dtype.
  return Rand({n}, {.device = o.device}).argsort().cast(o.dtype.value_or(dtypes::int32));
}

Tensor Tensor::multinomial(int64_t num_samples, bool replacement) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (ndim() < 1 || ndim() > 2)
    return Err("multinomial", "weights must be 1-d or 2-d, got shape " + ShapeStr(sshape()));
  if (num_samples <= 0)
    return Err("multinomial", absl::StrCat("num_samples must be positive, got ", num_samples));
  if (!replacement && num_samples != 1)
    return Err(
        "multinomial",
        absl::StrCat("without replacement only num_samples=1 is supported, got ", num_samples));
  if (absl::Status st = tensor_internal::NeedsIntShape("multinomial", *this); !st.ok())
    return Error(st);
  if (shape().back() == 0)
    return Err("multinomial", "needs at least one weight, got shape " + ShapeStr(shape()));
  // Inverse-cdf sampling: the index of a sample is how many cdf values it reaches.
  Tensor weight = ndim() == 1 ? unsqueeze(0) : *this;
  Tensor cw = weight.cumsum(1).cast(dtypes::default_float);
  Tensor cdf = cw / cw.slice({Slice::All(), Index{-1}}).unsqueeze(1);
  TG_TENSOR_RETURN_IF_ERROR(&cdf);
  const int64_t batch = cdf.shape()[0], classes = cdf.shape()[1];
  // Drawn on the default device, as the reference's Tensor.rand(...).to(self.device).
  Tensor unif = Rand({num_samples, batch, 1}).to(device());
  Tensor indices = (unif.expand({int64_t{-1}, int64_t{-1}, classes}) >= cdf).sum(2).permute({1, 0});
  return (ndim() == 1 ? indices.squeeze(0) : indices).cast(dtypes::int32);
}

}  // namespace tg
