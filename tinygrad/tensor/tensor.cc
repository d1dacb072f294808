// File: tinygrad/tensor/tensor.cc
// Tensor state, the live-tensor registry, accessors, creation ops, cast/bitcast/contiguous.
// Port of tinygrad/tensor.py: Tensor.__init__, all_tensors/_apply_map_to_tensors, empty,
// full/zeros/ones, arange, eye, linspace, cast, bitcast, contiguous.
#include "tinygrad/tensor/tensor.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/tensor/tensor_internal.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/multi.h"

namespace tg {

using tensor_internal::Access;
using tensor_internal::Err;
using tensor_internal::ShapeStr;

// ** registry of live tensor states **

namespace {
struct Registry {
  std::mutex mu;
  absl::flat_hash_set<Tensor::State*> live;
};
Registry& Reg() {
  static Registry* r = new Registry();  // never destroyed: states may die during exit
  return *r;
}
}  // namespace

Tensor::State::State(UOp u, absl::Status s) : uop(std::move(u)), status(std::move(s)) {
  if (!uop) return;
  std::lock_guard<std::mutex> l(Reg().mu);
  Reg().live.insert(this);
}

Tensor::State::~State() {
  if (!uop) return;
  std::lock_guard<std::mutex> l(Reg().mu);
  Reg().live.erase(this);
}

namespace tensor_internal {

void ApplyBecomesMap(const absl::flat_hash_map<UOp, UOp>& becomes) {
  if (becomes.empty()) return;
  std::lock_guard<std::mutex> l(Reg().mu);
  std::vector<Tensor::State*> states(Reg().live.begin(), Reg().live.end());
  std::vector<UOp> roots;
  roots.reserve(states.size());
  for (Tensor::State* s : states) roots.push_back(s->uop);
  // One substitute over all live graphs shares the rebuilt nodes between tensors.
  UOp sink = UOp::Sink(roots);
  UOp new_sink = Substitute(sink, becomes);
  if (new_sink == sink) return;
  for (size_t i = 0; i < states.size(); ++i) states[i]->uop = new_sink.src(i);
}

std::vector<Tensor> LiveTensors() {
  std::vector<std::shared_ptr<Tensor::State>> held;
  {
    std::lock_guard<std::mutex> l(Reg().mu);
    held.reserve(Reg().live.size());
    // A state whose last handle is going away (its destructor waits for this lock) is skipped.
    for (Tensor::State* s : Reg().live)
      if (std::shared_ptr<Tensor::State> h = s->weak_from_this().lock()) held.push_back(std::move(h));
  }
  // Handles are made (and later dropped) outside the lock: dropping one may destroy a state.
  std::vector<Tensor> out;
  out.reserve(held.size());
  for (std::shared_ptr<Tensor::State>& h : held) out.push_back(Access::handle(std::move(h)));
  return out;
}

void ReplaceUOp(const Tensor& t, UOp u) {
  TG_CHECK(t.ok() && u) << "ReplaceUOp needs an ok tensor and a node";
  std::lock_guard<std::mutex> l(Reg().mu);
  Access::state(t)->uop = std::move(u);
}

Tensor Err(const std::string& op, const std::string& msg) {
  return Tensor::Error(absl::InvalidArgumentError(absl::StrCat(op, ": ", msg)));
}

std::string ShapeStr(const std::vector<int64_t>& s) {
  if (s.size() == 1) return absl::StrCat("(", s[0], ",)");
  return absl::StrCat("(", absl::StrJoin(s, ", "), ")");
}

Shape ToShape(const std::vector<int64_t>& s) { return Shape(s.begin(), s.end()); }

absl::StatusOr<int64_t> ResolveDim(const std::string& op, int64_t dim, int64_t ndim, bool extra) {
  int64_t total = ndim + (extra ? 1 : 0);
  int64_t hi = std::max<int64_t>(1, total);
  if (dim < -hi || dim > hi - 1)
    return absl::InvalidArgumentError(absl::StrCat(op, ": dim ", dim, " out of range [", -hi,
                                                   ", ", hi - 1, "]"));
  return dim < 0 ? dim + total : dim;
}

absl::StatusOr<std::vector<int64_t>> ResolveAxes(const std::string& op, const Axes& axis,
                                                 int64_t ndim) {
  std::vector<int64_t> out;
  if (axis.all()) {
    for (int64_t i = 0; i < ndim; ++i) out.push_back(i);
    return out;
  }
  for (int64_t a : axis.list()) {
    absl::StatusOr<int64_t> d = ResolveDim(op, a, ndim);
    if (!d.ok()) return d.status();
    if (std::find(out.begin(), out.end(), *d) == out.end()) out.push_back(*d);
  }
  return out;
}

Tensor ConstTensor(ConstValue v, DType dt, const std::string& device) {
  return Tensor(UOp::ConstOn(dt, v, CanonicalDeviceName(device)));
}

DType DTypeFromPy(const ConstValue& v) {
  if (v.is_float()) return dtypes::default_float;
  if (v.is_bool()) return dtypes::bool_;
  return dtypes::default_int;
}

ConstValue DTypeMin(DType dt) { return dtypes::min(dt); }

}  // namespace tensor_internal

// ** handle and accessors **

Tensor::Tensor(UOp u) {
  TG_CHECK(u && u.shape() != nullptr) << "Tensor needs a tensor-graph node with a shape";
  s_ = std::make_shared<State>(std::move(u), absl::OkStatus());
}

Tensor Tensor::Error(absl::Status s) {
  TG_CHECK(!s.ok()) << "Tensor::Error with an ok status";
  return Tensor(std::make_shared<State>(UOp(), std::move(s)));
}

bool Tensor::ok() const { return s_->status.ok(); }
const absl::Status& Tensor::status() const { return s_->status; }
const UOp& Tensor::uop() const {
  TG_CHECK(ok()) << "uop() of an errored tensor: " << s_->status.message();
  return s_->uop;
}
const Shape& Tensor::sshape() const { return *uop().shape(); }
std::vector<int64_t> Tensor::shape() const {
  const Shape& s = sshape();
  return AllInt(s) ? ToInts(s) : tensor_internal::BoundDims(s);
}
bool Tensor::is_symbolic() const { return !AllInt(sshape()); }
int64_t Tensor::ndim() const { return static_cast<int64_t>(uop().shape()->size()); }
int64_t Tensor::numel() const {
  std::vector<int64_t> s = shape();
  if (std::find(s.begin(), s.end(), -1) != s.end()) return -1;
  return tensor_internal::Prod(s);
}
DType Tensor::dtype() const { return uop().dtype(); }
std::string Tensor::device() const { return DeviceNameOf(uop().device()); }
std::vector<std::string> Tensor::devices() const { return DeviceNames(device()); }
std::string Tensor::repr() const {
  if (!ok()) return absl::StrCat("<Tensor error: ", s_->status.message(), ">");
  return absl::StrCat("<Tensor ", ShapeStr(sshape()), " ", dtype().repr(), " ", device(), ">");
}

// ** creation **

namespace {
absl::Status CheckShape(const std::string& op, const Shape& shape) {
  for (const SInt& s : shape)
    if (s.is_int() && s.value() < 0)
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": negative dimension in shape ", ShapeStr(shape)));
  if (absl::Status s = tensor_internal::CheckSInts(op, shape); !s.ok()) return s;
  return tensor_internal::CheckNumel(op, shape);
}
}  // namespace

Tensor Tensor::Empty(const Shape& shape, const TensorOpts& o) {
  if (absl::Status s = CheckShape("empty", shape); !s.ok()) return Error(s);
  DType dt = o.dtype.value_or(dtypes::default_float);
  SInt n = Prod(shape);
  const std::string device = CanonicalDeviceName(o.device);
  if (n.is_int()) return Tensor(UOp::NewBuffer(device, n.value(), dt).reshape(shape));
  // Symbolic: a buffer for the variables' maxima, of which the tensor uses a prefix.
  int64_t size = 1;
  for (const SInt& d : shape) size *= d.vmax();
  UOp buf = UOp::NewBuffer(device, size, dt);
  return Tensor(buf.shrink({{SInt(0), n}}).reshape(shape));
}

Tensor Tensor::Full(const Shape& shape, ConstValue v, const TensorOpts& o) {
  if (absl::Status s = CheckShape("full", shape); !s.ok()) return Error(s);
  DType dt = o.dtype.value_or(tensor_internal::DTypeFromPy(v));
  // tinygrad's unique_const: full tensors are distinct nodes even for equal values.
  UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, DeviceArg(CanonicalDeviceName(o.device)));
  UOp c = UOp::Make(Ops::CONST, dt, {dev, UOp::Unique()}, dtypes::as_const(v, dt));
  Shape ones(shape.size(), SInt(1));
  return Tensor(c.reshape(ones).expand(shape));
}

Tensor Tensor::Zeros(const Shape& shape, const TensorOpts& o) { return Full(shape, 0.0, o); }
Tensor Tensor::Ones(const Shape& shape, const TensorOpts& o) { return Full(shape, 1.0, o); }

Tensor Tensor::Scalar(ConstValue v, const TensorOpts& o) {
  return tensor_internal::ConstTensor(v, o.dtype.value_or(tensor_internal::DTypeFromPy(v)),
                                      o.device);
}

Tensor Tensor::full_like(ConstValue v) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (!uop().device().is_tuple()) return Full(sshape(), v, {.dtype = dtype(), .device = device()});
  return tensor_internal::MultiLike(*this, [&](const Shape& shape, const std::string& d) {
    return Full(shape, v, {.dtype = dtype(), .device = d});
  });
}

Tensor tensor_internal::MultiLike(const Tensor& like, const MakeOnDevice& make) {
  const std::vector<std::string> devices = like.devices();
  const std::optional<int64_t> axis = like.shard_axis();
  if (!axis.has_value()) return make(like.sshape(), DefaultDevice()).shard(devices);
  Shape part = like.sshape();
  const SInt& whole = part[*axis];
  if (!whole.is_int())
    return Err("multi_like", "the split axis " + std::to_string(*axis) + " is symbolic");
  part[*axis] = SInt(whole.value() / static_cast<int64_t>(devices.size()));
  std::vector<UOp> parts;
  for (const std::string& d : devices) {
    Tensor p = make(part, d);
    if (!p.ok()) return p;
    parts.push_back(p.uop());
  }
  const DType dt = parts[0].dtype();
  return Tensor(Multi(Mstack(dt, std::move(parts)), *axis));
}

Tensor Tensor::Arange(ConstValue start, ConstValue stop, ConstValue step, const TensorOpts& o) {
  bool any_float = start.is_float() || stop.is_float() || step.is_float();
  DType dt = o.dtype.value_or(any_float ? dtypes::default_float : dtypes::default_int);
  if (step.to_float() == 0) return Err("arange", "step must not be 0");
  if (NumLess(start, dtypes::min(dt)) || NumLess(dtypes::max(dt), stop - step))
    return Err("arange", absl::StrCat("[", start.repr(), ", ", stop.repr(),
                                      ") is not representable in dtype ", dt.repr()));
  int64_t len;
  if (!any_float) {
    len = tensor_internal::CeilDiv(stop.to_int64() - start.to_int64(), step.to_int64());
  } else {
    len = static_cast<int64_t>(std::ceil((stop.to_float() - start.to_float()) / step.to_float()));
  }
  if (len <= 0) return Empty({0}, {.dtype = dt, .device = o.device});
  Tensor steps = Full({len}, step, {.dtype = dt, .device = o.device});
  return (tensor_internal::CumAlu(steps, 0, Ops::ADD) + (start - step)).cast(dt);
}

Tensor Tensor::Eye(int64_t n, std::optional<int64_t> m_opt, const TensorOpts& o) {
  int64_t m = m_opt.value_or(n);
  if (n < 0 || m < 0) return Err("eye", absl::StrCat("cannot have negative n=", n, ", m=", m));
  TensorOpts io{.device = o.device};
  Tensor t = Arange(n, io).unsqueeze(-1).eq(Arange(m, io));
  return t.cast(o.dtype.value_or(dtypes::default_float));
}

Tensor Tensor::Linspace(double start, double stop, int64_t steps, const TensorOpts& o) {
  if (steps < 0) return Err("linspace", "number of steps must be non-negative");
  DType dt = o.dtype.value_or(dtypes::default_float);
  if (dt == dtypes::bool_) return Err("linspace", "bool dtype is not supported");
  if (steps == 1) return Full({1}, start, {.dtype = dt, .device = o.device});
  Tensor r = start + Arange(steps, {.device = o.device}) * ((stop - start) / (steps - 1));
  return r.cast(dt);
}

// ** cast, bitcast, contiguous **

Tensor Tensor::to(const std::string& device) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  const std::string d = CanonicalDeviceName(device);
  if (d == this->device()) return *this;
  if (IsMultiDeviceName(d)) return shard(DeviceNames(d));
  UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, d);
  Tensor ret = tensor_internal::Derived(UOp::Make(Ops::COPY, dtype(), {uop(), dev}), {this});
  // The gradient moves along (tinygrad's to).
  if (std::optional<Tensor> g = grad()) tensor_internal::Access::state(ret)->grad = g->to(d);
  return ret;
}

Tensor Tensor::shard(const std::vector<std::string>& devices, std::optional<int64_t> axis) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (uop().device().is_tuple()) return Err("shard", "can't shard a multi-device tensor");
  if (devices.empty()) return Err("shard", "no devices");
  if (devices.size() == 1) return to(devices[0]);
  const Arg targets = DeviceArg(MultiDeviceName(devices));
  if (!axis.has_value()) return tensor_internal::Derived(CopyToDevice(uop(), targets), {this});
  absl::StatusOr<int64_t> a = tensor_internal::ResolveDim("shard", *axis, ndim());
  if (!a.ok()) return Error(a.status());
  absl::StatusOr<UOp> split = ShardOnDevices(uop(), targets, *a);
  if (!split.ok()) return Err("shard", std::string(split.status().message()));
  return tensor_internal::Derived(*split, {this});
}

Tensor Tensor::shard_like(const Tensor& like) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &like);
  if (!like.uop().device().is_tuple()) return to(like.device());
  if (device() == like.device() && shard_axis() == like.shard_axis()) return *this;
  return shard(like.devices(), like.shard_axis());
}

namespace {
// tinygrad's replace: every handle to `t` now holds `x` (of the same shape).
Tensor ReplaceWith(const Tensor& t, const Tensor& x) {
  if (!x.ok()) return x;
  tensor_internal::ReplaceUOp(t, x.uop());
  return t;
}
}  // namespace

Tensor Tensor::shard_(const std::vector<std::string>& devices, std::optional<int64_t> axis) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  return ReplaceWith(*this, shard(devices, axis));
}

Tensor Tensor::to_(const std::string& device) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  Tensor moved = to(device);
  if (!moved.ok()) return moved;
  std::optional<Tensor> g = grad(), moved_grad = moved.grad();
  if (g.has_value() && moved_grad.has_value()) ReplaceWith(*g, *moved_grad);
  return ReplaceWith(*this, moved);
}

std::optional<int64_t> Tensor::shard_axis() const {
  if (!ok()) return std::nullopt;
  return MultiAxis(uop());
}

Tensor Tensor::contiguous() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  UOp c = uop().contiguous();
  return c == uop() ? *this : tensor_internal::Derived(c, {this});
}

Tensor Tensor::detach() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  return tensor_internal::NoGradLeaf(Tensor(UOp::Make(Ops::DETACH, dtype(), {uop()})));
}

Tensor Tensor::cast(DType dt) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (dt.count() != 1 || dt.is_ptr() || dt == dtypes::void_ || dt == dtypes::index)
    return Err("cast", absl::StrCat("cannot cast to ", dt.repr()));
  // Floats to small unsigned ints go through int32, so out-of-range values wrap.
  if ((dt == dtypes::uint8 || dt == dtypes::uint16) && dtypes::is_float(dtype()))
    return cast(dtypes::int32).cast(dt);
  return dtype() == dt ? *this : tensor_internal::Derived(uop().cast(dt), {this});
}

namespace {
DType UIntOfSize(int bytes) {
  switch (bytes) {
    case 1: return dtypes::uint8;
    case 2: return dtypes::uint16;
    case 4: return dtypes::uint32;
    default: return dtypes::uint64;
  }
}
}  // namespace

Tensor Tensor::bitcast(DType dt) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (requires_grad() == true) return Err("bitcast", "can't backprop through bitcast");
  if (dt.count() != 1 || dt.is_ptr() || dt == dtypes::void_ || dt == dtypes::index)
    return Err("bitcast", absl::StrCat("cannot bitcast to ", dt.repr()));
  int ns = dt.itemsize(), os = dtype().itemsize();
  if (ns == os) return dtype() == dt ? *this : tensor_internal::Derived(uop().bitcast(dt), {this});
  std::vector<int64_t> s = shape();
  if (s.empty() || (s.back() * os) % ns != 0)
    return Err("bitcast", absl::StrCat("unsupported size in bitcast of ", ShapeStr(s), " ",
                                       dtype().repr(), " to ", dt.repr()));
  // Different sizes: combine or split unsigned words with shifts, as tinygrad does off DISK.
  DType new_uint = UIntOfSize(ns), old_uint = UIntOfSize(os);
  Tensor tmp = bitcast(old_uint);
  if (ns > os) {
    int64_t rate = ns / os;
    std::vector<int64_t> rs(s.begin(), s.end() - 1);
    rs.push_back(s.back() / rate);
    rs.push_back(rate);
    tmp = tmp.reshape(rs);
    std::vector<std::pair<int64_t, int64_t>> sh;
    for (size_t i = 0; i + 1 < rs.size(); ++i) sh.emplace_back(0, rs[i]);
    sh.emplace_back(0, 1);
    std::optional<Tensor> acc;
    for (int64_t i = 0; i < rate; ++i) {
      sh.back() = {i, i + 1};
      Tensor part = tmp.shrink(sh).cast(new_uint).lshift(8 * i * os);
      acc = acc ? *acc + part : part;
    }
    return acc->squeeze(-1).bitcast(dt);
  }
  std::vector<Tensor> parts;
  for (int64_t i = 0; i < os / ns; ++i) parts.push_back(tmp.rshift(8 * i * ns));
  return Stack(parts, -1).flatten(-2).cast(new_uint).bitcast(dt);
}

}  // namespace tg
