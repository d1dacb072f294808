// File: tinygrad/tensor/assign.cc
// In-place assignment: Tensor::assign and the in-place arithmetic built on it.
// Port of tinygrad/tensor.py's assign (tinygrad 35900290; the DISK hack is not ported: there is
// no DISK device here).
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;

Tensor Tensor::assign(const Tensor& x) const {
  if (!ok()) return *this;
  if (!x.ok()) return x;
  if (uop() == x.uop()) return *this;  // a self assign is a no-op
  Tensor v = x;
  // Like tinygrad: broadcast and cast x only when its dtype promotes to ours, so assigning a
  // float to an int tensor is a dtype error rather than a silent truncation.
  if (tensor_internal::PromoteTypes(dtype(), v.dtype()) == dtype()) {
    Tensor b = tensor_internal::BroadcastTo(v, sshape());
    if (!b.ok())
      return Err("assign", absl::StrCat("shape mismatch ", ShapeRepr(sshape()), " != ", ShapeRepr(v.sshape())));
    v = b.cast(dtype());
    if (!v.ok()) return v;
  }
  if (v.sshape() != sshape())
    return Err("assign", absl::StrCat("shape mismatch ", ShapeRepr(sshape()), " != ", ShapeRepr(v.sshape())));
  if (v.device() != device())
    return Err("assign", absl::StrCat("device mismatch ", device(), " != ", v.device()));
  if (v.dtype() != dtype())
    return Err("assign", absl::StrCat("dtype mismatch ", dtype().repr(), " != ", v.dtype().repr()));
  if (uop().device().is_tuple() && shard_axis() != v.shard_axis()) {
    auto split = [](std::optional<int64_t> a) { return a ? absl::StrCat("axis ", *a) : std::string("none"); };
    return Err("assign", "multi-device split mismatch: " + split(shard_axis()) + " != " + split(v.shard_axis()));
  }
  // tinygrad's self.replace(self._apply_uop(UOp.assign, x)): only the node changes; this
  // tensor's requires_grad and .grad stay as they are. Every handle (and every later op on
  // this tensor) sees the ASSIGN; realizing it writes into the target's buffer, and from then
  // on the tensor is that buffer again.
  tensor_internal::ReplaceUOp(*this, UOp::Make(Ops::ASSIGN, dtype(), {uop(), v.uop()}));
  return *this;
}

Tensor Tensor::assign(ConstValue x) const {
  if (!ok()) return *this;
  return assign(tensor_internal::ConstTensor(x, dtype(), device()));
}

}  // namespace tg
