// File: tinygrad/tensor/io.cc
// Host IO and realization: tensors from host bytes, realize, reading results back.
// Port of tinygrad/tensor.py: _frompy (buffer filled at creation), realize /
// schedule_with_vars (+ _apply_map_to_tensors), _buffer / data / item.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

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
    if (!IsRealized(t.uop())) roots.push_back(t.uop());
  }
  if (roots.empty()) return absl::OkStatus();
  absl::StatusOr<absl::flat_hash_map<UOp, UOp>> becomes = Realize(std::span<const UOp>(roots));
  if (!becomes.ok()) return becomes.status();
  tensor_internal::ApplyBecomesMap(*becomes);
  return absl::OkStatus();
}

absl::Status Tensor::realize() const { return Realize(std::vector<Tensor>{*this}); }

absl::StatusOr<std::vector<std::byte>> Tensor::ReadAs(DType dt) const {
  if (!ok()) return status();
  Tensor x = cast(dt);
  if (!x.ok()) return x.status();
  int64_t n = x.numel();
  if (n == 0) return std::vector<std::byte>();
  x = x.contiguous();
  if (absl::Status s = x.realize(); !s.ok()) return s;
  const UOp& u = x.uop();
  if (!IsRealized(u))
    return absl::InternalError("realize left " + std::string(OpName(u.op())) + " unrealized");
  UOp buf = u.base();
  if (buf.arg().int64() != n)
    return absl::InternalError(absl::StrCat("realized buffer has ", buf.arg().int64(),
                                            " elements, expected ", n));
  std::vector<std::byte> out(n * dt.itemsize());
  if (absl::Status s = CopyOut(buf, out); !s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<std::byte>> Tensor::to_bytes() const {
  if (!ok()) return status();
  return ReadAs(dtype());
}

}  // namespace tg
