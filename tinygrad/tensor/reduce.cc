// File: tinygrad/tensor/reduce.cc
// Reductions: sum/prod/max/min/any/all/mean/var/std, argmax/argmin, softmax family, cumsum.
// Port of tinygrad/tensor.py: _reduce, sum (sum_acc_dtype), mean, var, argmax, _softmax,
// logsumexp, _cumalu/_split_cumalu (the pool-based cumulative ops).
#include <algorithm>
#include <string>
#include <vector>

#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;
using tensor_internal::Reduce;
using tensor_internal::ResolveAxes;
using tensor_internal::ResolveDim;

namespace tensor_internal {

Tensor Reduce(const std::string& name, const Tensor& t, Ops op, const Axes& axis, bool keepdim) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  absl::StatusOr<std::vector<int64_t>> ax = ResolveAxes(name, axis, t.ndim());
  if (!ax.ok()) return Tensor::Error(ax.status());
  if (t.ndim() == 0) ax->clear();
  Tensor ret = Derived(t.uop().r(op, *ax), {&t});
  if (keepdim) return ret;
  const Shape& s = t.sshape();
  Shape out;
  for (size_t i = 0; i < s.size(); ++i)
    if (std::find(ax->begin(), ax->end(), static_cast<int64_t>(i)) == ax->end()) out.push_back(s[i]);
  return ret.reshape(out);
}

Tensor Inverse(const Tensor& t) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  if (dtypes::is_float(t.dtype())) return -t;
  if (dtypes::is_int(t.dtype())) return ~t;
  return t.logical_not();
}

ConstValue IdentityElement(Ops op, DType dt) {
  if (op == Ops::ADD) return dtypes::as_const(0, dt);
  if (op == Ops::MUL) return dtypes::as_const(1, dt);
  return dtypes::min(dt);  // MAX
}

Tensor CumAlu(const Tensor& t, int64_t axis, Ops op, bool include_initial) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  int64_t n = t.shape()[axis];
  int64_t pl = n - (include_initial ? 0 : 1);
  Tensor pooled = PadFlat(t.transpose(axis, -1), {pl, include_initial ? -1 : 0},
                          IdentityElement(op, t.dtype()))
                      .pool({n}, {1}, {1});
  Tensor r = op == Ops::ADD ? pooled.sum(-1) : op == Ops::MAX ? pooled.max(-1) : pooled.prod(-1);
  return r.transpose(axis, -1);
}

Tensor SplitCumAlu(const std::string& name, const Tensor& t, int64_t axis_in, Ops op) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  if (absl::Status st = NeedsIntShape(name, t); !st.ok()) return Tensor::Error(st);
  absl::StatusOr<int64_t> axis = ResolveDim(name, axis_in, t.ndim());
  if (!axis.ok()) return Tensor::Error(axis.status());
  std::vector<int64_t> s = t.shape();
  if (s.empty() || Prod(s) == 0) return t;
  constexpr int64_t kSplit = 256;
  int64_t n = s[*axis];
  if (n <= kSplit * 2) return CumAlu(t, *axis, op);
  // Two stages: cumulative op inside blocks of kSplit, then over the block totals.
  int64_t padded = CeilDiv(n, kSplit) * kSplit;
  Tensor ret = PadFlat(t.transpose(*axis, -1), {padded - n, 0}, IdentityElement(op, t.dtype()))
                   .unflatten(-1, {-1, kSplit});
  ret = CumAlu(ret, ret.ndim() - 1, op);
  Tensor base = ret.slice({Ellipsis{}, Index{-1}});
  base = CumAlu(base, base.ndim() - 1, op, true);
  std::vector<int64_t> bs = base.shape();
  bs.push_back(ret.shape().back());
  base = base.unsqueeze(-1).expand(bs);
  auto fix = [&](const Tensor& x) {
    return x.flatten(-2).slice({Ellipsis{}, Slice(-n, std::nullopt)}).transpose(*axis, -1);
  };
  if (op == Ops::ADD) return fix(ret) + fix(base);
  if (op == Ops::MAX) return fix(ret).maximum(fix(base));
  return fix(ret) * fix(base);
}

}  // namespace tensor_internal

Tensor Tensor::sum(const Axes& axis, bool keepdim, std::optional<DType> acc) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  Tensor ret = Reduce("sum", cast(acc.value_or(dtypes::sum_acc_dtype(dtype()))), Ops::ADD, axis,
                      keepdim);
  DType d = dtype();
  bool low = d == dtypes::float16 || d == dtypes::bfloat16 || d == dtypes::fp8e4m3 ||
             d == dtypes::fp8e5m2;
  return !acc && low ? ret.cast(d) : ret;
}

Tensor Tensor::prod(const Axes& axis, bool keepdim, std::optional<DType> acc) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  return Reduce("prod", cast(acc.value_or(dtype())), Ops::MUL, axis, keepdim);
}

Tensor Tensor::max(const Axes& axis, bool keepdim) const {
  return Reduce("max", *this, Ops::MAX, axis, keepdim);
}
Tensor Tensor::min(const Axes& axis, bool keepdim) const {
  return tensor_internal::Inverse(tensor_internal::Inverse(*this).max(axis, keepdim));
}
Tensor Tensor::any(const Axes& axis, bool keepdim) const {
  return cast(dtypes::bool_).max(axis, keepdim);
}
Tensor Tensor::all(const Axes& axis, bool keepdim) const {
  return logical_not().any(axis, keepdim).logical_not();
}

// The number of elements a reduction over `axis` combines (tinygrad compares the shape with
// the keepdim sum's shape).
static SInt ReducedCount(const Tensor& t, const Tensor& kept) {
  const Shape &a = t.sshape(), &b = kept.sshape();
  SInt n = 1;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) n = n * a[i];
  return n;
}

Tensor Tensor::mean(const Axes& axis, bool keepdim) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  DType out = dtypes::is_float(dtype()) ? dtype() : dtypes::float32;
  Tensor num = cast(dtypes::sum_acc_dtype(dtype())).sum(axis, keepdim);
  Tensor kept = sum(axis, true);
  TG_TENSOR_RETURN_IF_ERROR(&num, &kept);
  SInt n = ReducedCount(*this, kept);
  if (!n.is_int()) return num.div(FromSInt(n, {.device = device()})).cast(out);  // symbolic count
  return num.div(n.value()).cast(out);
}

Tensor Tensor::var(const Axes& axis, bool keepdim, double correction) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  Tensor squares = (*this - mean(axis, true)).square();
  Tensor kept = squares.sum(axis, true);
  TG_TENSOR_RETURN_IF_ERROR(&squares, &kept);
  SInt count = ReducedCount(squares, kept);
  if (!count.is_int()) {  // symbolic count: max(0, n - correction) as a tensor
    Tensor n = FromSInt(count, {.device = device()}).cast(dtypes::default_float);
    return squares.sum(axis, keepdim).div((n - correction).maximum(0.0));
  }
  double n = static_cast<double>(count.value());
  return squares.sum(axis, keepdim).div(std::max(0.0, n - correction));
}

Tensor Tensor::stddev(const Axes& axis, bool keepdim, double correction) const {
  return var(axis, keepdim, correction).sqrt();
}

Tensor Tensor::argmax(std::optional<int64_t> axis_in, bool keepdim) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (!axis_in) return flatten().argmax(0);
  absl::StatusOr<int64_t> axis = ResolveDim("argmax", *axis_in, ndim());
  if (!axis.ok()) return Error(axis.status());
  if (ndim() == 0) return Err("argmax", "a 0-d tensor has no axis; use argmax() without one");
  if (!sshape()[*axis].is_int())
    return Err("argmax", "does not support symbolic shape in the argmax axis, " + ShapeRepr(sshape()));
  int64_t n = shape()[*axis];
  Tensor m = eq(max(*axis, true));
  std::vector<int64_t> rs{n};
  for (int64_t i = *axis + 1; i < ndim(); ++i) rs.push_back(1);
  Tensor idx = m * Arange(n, 0, -1, {.device = device()}).reshape(rs);
  return (n - idx.max(*axis, keepdim)).cast(dtypes::int32);
}

Tensor Tensor::argmin(std::optional<int64_t> axis, bool keepdim) const {
  return tensor_internal::Inverse(*this).argmax(axis, keepdim);
}

Tensor Tensor::softmax(int64_t axis) const {
  Tensor m = *this - max(axis, true).detach();
  Tensor e = m.exp();
  return e.div(e.sum(axis, true));
}

Tensor Tensor::log_softmax(int64_t axis) const {
  Tensor m = *this - max(axis, true).detach();
  return m - m.exp().sum(axis, true).log();
}

Tensor Tensor::logsumexp(const Axes& axis, bool keepdim) const {
  Tensor m = max(axis, true);
  Tensor s = (*this - m).exp().sum(axis, keepdim).log();
  TG_TENSOR_RETURN_IF_ERROR(&s);
  return s + (keepdim ? m : m.reshape(s.shape()));
}

Tensor Tensor::cumsum(int64_t axis) const {
  return tensor_internal::SplitCumAlu("cumsum", *this, axis, Ops::ADD);
}
Tensor Tensor::cummax(int64_t axis) const {
  return tensor_internal::SplitCumAlu("cummax", *this, axis, Ops::MAX);
}

}  // namespace tg
