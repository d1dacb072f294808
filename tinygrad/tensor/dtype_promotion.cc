// File: tinygrad/tensor/dtype_promotion.cc
// Broadcasting and dtype promotion for elementwise ops.
// Port of tinygrad/tensor.py _broadcasted / _broadcast_shape and mixin/movement.py
// _broadcast_to: Python scalars adopt the tensor's dtype (unless a float scalar meets an int
// tensor), two tensors meet at least_upper_dtype, shapes align left and expand.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg::tensor_internal {

DType PromoteTypes(DType a, DType b) {
  DType r = dtypes::least_upper_dtype({a, b});
  auto fp8 = [](DType d) { return d == dtypes::fp8e4m3 || d == dtypes::fp8e5m2; };
  return fp8(r) && !fp8(a) && !fp8(b) ? dtypes::default_float : r;
}

absl::StatusOr<Shape> BroadcastShape(const std::string& op, const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    SInt x = i + a.size() >= n ? a[i + a.size() - n] : 1;
    SInt y = i + b.size() >= n ? b[i + b.size() - n] : 1;
    if (x != y && x != SInt(1) && y != SInt(1))
      return absl::InvalidArgumentError(absl::StrCat(op, ": shapes ", ShapeStr(a), " and ",
                                                     ShapeStr(b), " cannot be broadcast"));
    out[i] = x == SInt(1) ? y : x;
  }
  return out;
}

Tensor BroadcastTo(const Tensor& t, const Shape& shape) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  if (absl::Status st = CheckSInts("expand", shape); !st.ok()) return Tensor::Error(st);
  const Shape& s = t.sshape();
  if (s == shape) return t;
  if (s.size() > shape.size())
    return Err("expand", absl::StrCat("cannot broadcast ", ShapeStr(s), " to fewer dimensions ",
                                      ShapeStr(shape)));
  Shape aligned(shape.size() - s.size(), 1);
  aligned.insert(aligned.end(), s.begin(), s.end());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (aligned[i] != shape[i] && aligned[i] != SInt(1))
      return Err("expand", absl::StrCat("cannot broadcast ", ShapeStr(s), " to ", ShapeStr(shape)));
    if (shape[i].is_int() && shape[i].value() < 0)
      return Err("expand", absl::StrCat("negative dimension in ", ShapeStr(shape)));
  }
  if (absl::Status st = CheckNumel("expand", shape); !st.ok()) return Tensor::Error(st);
  UOp r = t.uop().reshape(aligned);
  return Derived(r.expand(shape), {&t});
}

absl::StatusOr<std::pair<Tensor, Tensor>> Broadcasted(const std::string& op, const Tensor& x,
                                                      const Operand& y_in, bool reverse,
                                                      bool match_dtype) {
  if (!x.ok()) return x.status();
  Tensor y = x;
  if (const Tensor* yt = std::get_if<Tensor>(&y_in)) {
    if (!yt->ok()) return yt->status();
    if (yt->device() != x.device())
      return absl::InvalidArgumentError(absl::StrCat(op, ": tensors on different devices ",
                                                     x.device(), " and ", yt->device()));
    y = *yt;
  } else {
    const ConstValue& c = std::get<ConstValue>(y_in);
    // A Python int (or bool, an int subclass) adopts an int tensor's dtype; any scalar adopts
    // a float tensor's dtype; otherwise the scalar's own default dtype.
    DType xd = x.dtype();
    DType yd = dtypes::is_float(xd) || (dtypes::is_int(xd) && (c.is_int() || c.is_bool()))
                   ? xd
                   : DTypeFromPy(c);
    // A Python number never requires a gradient (tinygrad's Tensor(y, requires_grad=False)).
    y = NoGradLeaf(ConstTensor(dtypes::as_const(c, yd), yd, x.device()));
  }
  Tensor a = x, b = y;
  if (match_dtype && a.dtype() != b.dtype()) {
    DType out = PromoteTypes(a.dtype(), b.dtype());
    a = a.cast(out);
    b = b.cast(out);
  }
  if (reverse) std::swap(a, b);
  absl::StatusOr<Shape> out_shape = BroadcastShape(op, a.sshape(), b.sshape());
  if (!out_shape.ok()) return out_shape.status();
  // The cast to sum_acc_dtype and back is a no-op forward; tinygrad keeps it for the backward
  // pass, and we keep it so the graph (and thus the kernels) match.
  auto bcast = [&](const Tensor& t) {
    return BroadcastTo(t.cast(dtypes::sum_acc_dtype(t.dtype())), *out_shape).cast(t.dtype());
  };
  return std::make_pair(bcast(a), bcast(b));
}

Tensor Alu(Ops op, const Tensor& a, const Tensor& b) {
  TG_TENSOR_RETURN_IF_ERROR(&a, &b);
  TG_CHECK(*a.uop().shape() == *b.uop().shape()) << "Alu on unbroadcast shapes";
  return Derived(a.uop().alu(op, {b.uop()}), {&a, &b});
}

Tensor Alu(Ops op, const Tensor& a) {
  TG_TENSOR_RETURN_IF_ERROR(&a);
  return Derived(a.uop().alu(op), {&a});
}

Tensor BroadcastedAlu(const std::string& name, Ops op, const Tensor& x, const Operand& y,
                      bool reverse) {
  absl::StatusOr<std::pair<Tensor, Tensor>> ab = Broadcasted(name, x, y, reverse);
  if (!ab.ok()) return Tensor::Error(ab.status());
  return Alu(op, ab->first, ab->second);
}

}  // namespace tg::tensor_internal
