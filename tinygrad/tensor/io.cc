// File: tinygrad/tensor/io.cc
// Host IO and realization: tensors from host bytes, realize, reading results back.
// Port of tinygrad/tensor.py: _frompy (buffer filled at creation), realize /
// schedule_with_vars (+ _apply_map_to_tensors), _buffer / data / item.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tinygrad/base/device_name.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;
using tensor_internal::ShapeStr;

Tensor Tensor::FromBytes(std::span<const std::byte> data, DType dtype,
                         const std::vector<int64_t>& shape, const std::string& device) {
  for (int64_t s : shape)
    if (s < 0) return Err("from_data", "negative dimension in shape " + ShapeStr(shape));
  int64_t n = tensor_internal::Prod(shape);
  if (static_cast<int64_t>(data.size()) != n * dtype.itemsize())
    return Err("from_data", absl::StrCat(data.size(), " bytes do not fill shape ", ShapeStr(shape),
                                         " of ", dtype.repr()));
  if (n == 0) return Empty(shape, {.dtype = dtype, .device = device});
  // For several devices the data goes to the first and is copied from there to the others
  // (tinygrad's Tensor(data, device=tuple): made on one device, then shard).
  if (IsMultiDeviceName(device)) {
    const std::vector<std::string> devices = DeviceNames(CanonicalDeviceName(device));
    return FromBytes(data, dtype, shape, devices[0]).shard(devices);
  }
  absl::StatusOr<UOp> buf = BufferFromHost(device, dtype, data);
  if (!buf.ok()) return Error(buf.status());
  return Tensor(buf->reshape(tensor_internal::ToShape(shape)));
}

namespace {
// tinygrad's is_contiguous: a BUFFER, maybe reshaped, needs no kernel.
bool IsRealized(const UOp& u) {
  UOp b = u;
  while (b.op() == Ops::RESHAPE) b = b.src(0);
  return b.op() == Ops::BUFFER;
}
}  // namespace

absl::Status Realize(const std::vector<Tensor>& ts) {
  std::vector<UOp> roots;
  for (const Tensor& t : ts) {
    if (!t.ok()) return t.status();
    if (!IsRealized(t.uop())) {
      roots.push_back(t.uop());
    } else if (absl::Status s = EnsureOnDevice(t.uop().base()); !s.ok()) {
      return s;  // a buffer over host data (nn/state.h's SafeLoad) is copied onto its device now
    }
  }
  if (roots.empty()) return absl::OkStatus();
  // Kernels take every variable's value from a BIND; say which one is missing up front.
  if (absl::Status s = tensor_internal::CheckAllBound("realize", UOp::Sink(roots)); !s.ok()) return s;
  absl::StatusOr<absl::flat_hash_map<UOp, UOp>> becomes = Realize(std::span<const UOp>(roots));
  if (!becomes.ok()) return becomes.status();
  tensor_internal::ApplyBecomesMap(*becomes);
  return absl::OkStatus();
}

absl::Status Tensor::realize() const { return Realize(std::vector<Tensor>{*this}); }

absl::Status Tensor::setitem(const std::vector<TensorIndex>& indices, const Tensor& v) const {
  if (!ok()) return status();
  if (!v.ok()) return v.status();
  if (requires_grad() == true || v.requires_grad() == true)
    return absl::InvalidArgumentError("setitem: not supported on tensors that require a gradient");
  if (absl::Status s = realize(); !s.ok()) return s;
  if (!IsRealized(uop()))
    return absl::InvalidArgumentError("setitem: the target needs to be contiguous (a whole buffer), got a view");
  Tensor res = tensor_internal::GetItem(*this, indices, &v);
  if (!res.ok()) return res.status();
  // tensor indices give the whole tensor with v written in: assign it; else write into the view
  if (res.sshape() == sshape() && res.uop() != uop()) return assign(res).realize();
  absl::StatusOr<Shape> shape = tensor_internal::BroadcastShape("setitem", res.sshape(), v.sshape());
  if (!shape.ok()) return shape.status();
  Tensor value = tensor_internal::BroadcastTo(v.cast(res.dtype()), *shape).contiguous();
  if (!value.ok()) return value.status();
  return res.assign(value).realize();
}

absl::StatusOr<bool> Tensor::allclose(const Tensor& other, double rtol, double atol,
                                      bool equal_nan) const {
  return isclose(other, rtol, atol, equal_nan).all().item<bool>();
}

absl::Status Tensor::setitem(const std::vector<TensorIndex>& indices, ConstValue v) const {
  if (!ok()) return status();
  return setitem(indices, tensor_internal::ConstTensor(v, dtype(), device()));
}

absl::StatusOr<std::vector<std::byte>> Tensor::ReadAs(DType dt) const {
  if (!ok()) return status();
  Tensor x = cast(dt);
  if (!x.ok()) return x.status();
  // A symbolic shape reads at its variables' bound values.
  absl::StatusOr<std::vector<int64_t>> shape = tensor_internal::EvalShape(x.sshape());
  if (!shape.ok()) return absl::InvalidArgumentError(absl::StrCat("read: ", shape.status().message()));
  int64_t n = tensor_internal::Prod(*shape);
  if (n == 0) return std::vector<std::byte>();
  x = x.contiguous();
  // a multi-device tensor is read from one copy gathered on the CPU (tinygrad's _buffer)
  if (x.uop().device().is_tuple()) x = x.to("CPU");
  if (absl::Status s = x.realize(); !s.ok()) return s;
  const UOp& u = x.uop();
  UOp buf = u.base();
  if (buf.op() != Ops::BUFFER)
    return absl::InternalError("realize left " + std::string(OpName(u.op())) + " unrealized");
  int64_t size = buf.arg().int64(), item = dt.itemsize();
  std::vector<std::byte> all(size * item);
  if (IsRealized(u) && size == n) {
    if (absl::Status s = CopyOut(buf, all); !s.ok()) return s;
    return all;
  }
  // A view of a bigger buffer (a symbolic result is stored for the variables' maxima): pick
  // the elements the view shows.
  absl::StatusOr<std::vector<int64_t>> offsets = tensor_internal::ViewOffsets(u);
  if (!offsets.ok()) return offsets.status();
  if (static_cast<int64_t>(offsets->size()) != n)
    return absl::InternalError(absl::StrCat("realized view has ", offsets->size(),
                                            " elements, expected ", n));
  if (absl::Status s = CopyOut(buf, all); !s.ok()) return s;
  std::vector<std::byte> out(n * item);
  for (int64_t i = 0; i < n; ++i) {
    int64_t o = (*offsets)[i];
    if (o < 0 || o >= size) return absl::InternalError("realized view reads outside its buffer");
    std::memcpy(out.data() + i * item, all.data() + o * item, item);
  }
  return out;
}

absl::StatusOr<std::vector<std::byte>> Tensor::to_bytes() const {
  if (!ok()) return status();
  return ReadAs(dtype());
}

}  // namespace tg
