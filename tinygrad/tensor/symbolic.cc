// File: tinygrad/tensor/symbolic.cc
// Symbolic sizes in the Tensor API: Variable, checking bound values where ops take them, and
// evaluating symbolic dims under their bindings (shape(), reading results back).
// Port of tinygrad/uop/ops.py Variable / UOp.bind / unbind as the Tensor layer uses them, and
// of tinygrad/tensor.py's handling of sint shapes.
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/render.h"

namespace tg {

Variable::Variable(std::string name, int64_t min, int64_t max)
    : var_(UOp::Variable(std::move(name), min, max)) {}

SInt Variable::bind(int64_t value) const { return SInt(var_.bind(value)); }
SInt Variable::unbound() const { return SInt(var_); }
const std::string& Variable::name() const { return var_.arg()[0].str(); }
int64_t Variable::min() const { return var_.arg()[1].int64(); }
int64_t Variable::max() const { return var_.arg()[2].int64(); }

namespace tensor_internal {

namespace {
std::string VarName(const UOp& v) { return v.arg()[0].str(); }

// A BIND's value, checked against its variable's range.
absl::StatusOr<int64_t> BoundValue(const UOp& bind) {
  const UOp& var = bind.src(0);
  if (var.op() != Ops::DEFINE_VAR || bind.src(1).op() != Ops::CONST)
    return absl::InvalidArgumentError("a BIND must bind a variable to a constant");
  int64_t v = bind.src(1).arg().int64();
  int64_t lo = var.arg()[1].int64(), hi = var.arg()[2].int64();
  if (v < lo || v > hi)
    return absl::InvalidArgumentError(absl::StrCat("variable '", VarName(var), "' bound to ", v,
                                                   ", outside its range [", lo, ", ", hi, "]"));
  return v;
}
}  // namespace

absl::StatusOr<VarVals> CollectBindings(const UOp& u) {
  VarVals vals;
  for (const UOp& n : u.toposort()) {
    if (n.op() == Ops::DEFINE_VAR && n.arg()[1].int64() > n.arg()[2].int64())
      return absl::InvalidArgumentError(absl::StrCat("variable '", VarName(n), "' has an empty range [",
                                                     n.arg()[1].int64(), ", ", n.arg()[2].int64(), "]"));
    if (n.op() != Ops::BIND) continue;
    absl::StatusOr<int64_t> v = BoundValue(n);
    if (!v.ok()) return v.status();
    auto [it, fresh] = vals.try_emplace(VarName(n.src(0)), ConstValue(*v));
    if (!fresh && it->second.to_int64() != *v)
      return absl::InvalidArgumentError(absl::StrCat("variable '", it->first, "' bound to both ",
                                                     it->second.to_int64(), " and ", *v));
  }
  return vals;
}

absl::StatusOr<VarVals> Bindings(std::span<const SInt> s) {
  std::vector<UOp> syms;
  for (const SInt& x : s)
    if (!x.is_int()) syms.push_back(x.uop());
  if (syms.empty()) return VarVals();
  return CollectBindings(UOp::Sink(syms));
}

absl::Status CheckSInts(const std::string& op, std::span<const SInt> s) {
  absl::StatusOr<VarVals> v = Bindings(s);
  if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat(op, ": ", v.status().message()));
  return absl::OkStatus();
}

absl::Status CheckNumel(const std::string& op, std::span<const SInt> shape) {
  int64_t n = 1;
  bool overflow = false;
  for (const SInt& d : shape) {
    const int64_t v = d.is_int() ? d.value() : d.vmax();
    if (v == 0) return absl::OkStatus();
    overflow |= v < 0 || __builtin_mul_overflow(n, v, &n);
  }
  if (!overflow) return absl::OkStatus();
  for (const SInt& d : shape)
    if ((d.is_int() ? d.value() : d.vmin()) < 0)
      return absl::InvalidArgumentError(absl::StrCat(
          op, ": shape ", ShapeStr(std::vector<SInt>(shape.begin(), shape.end())), " has a negative dimension"));
  return absl::InvalidArgumentError(
      absl::StrCat(op, ": shape ", ShapeStr(std::vector<SInt>(shape.begin(), shape.end())),
                   " has more elements than an int64 counts"));
}

absl::Status CheckPads(const std::string& op, const PadArg& p) {
  Shape flat;
  for (const auto& [b, e] : p) flat.insert(flat.end(), {b, e});
  return CheckSInts(op, flat);
}

absl::StatusOr<int64_t> EvalSInt(const SInt& s, const VarVals& vals) {
  if (s.is_int()) return s.value();
  absl::StatusOr<ConstValue> v = SymInfer(s.uop(), vals);
  if (!v.ok()) return v.status();
  return v->to_int64();
}

absl::StatusOr<std::vector<int64_t>> EvalShape(const Shape& s) {
  absl::StatusOr<VarVals> vals = Bindings(s);
  if (!vals.ok()) return vals.status();
  std::vector<int64_t> out;
  for (const SInt& x : s) {
    absl::StatusOr<int64_t> v = EvalSInt(x, *vals);
    if (!v.ok())
      return absl::InvalidArgumentError(absl::StrCat("shape ", ShapeRepr(s), " has an unbound variable (",
                                                     v.status().message(), ")"));
    out.push_back(*v);
  }
  return out;
}

std::vector<int64_t> BoundDims(const Shape& s) {
  absl::StatusOr<VarVals> vals = Bindings(s);
  std::vector<int64_t> out;
  for (const SInt& x : s) {
    absl::StatusOr<int64_t> d = vals.ok() ? EvalSInt(x, *vals) : absl::StatusOr<int64_t>(-1);
    out.push_back(d.ok() ? *d : -1);
  }
  return out;
}

absl::Status NeedsIntShape(const std::string& op, const Tensor& t) {
  if (!t.ok() || !t.is_symbolic()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(op, ": does not support symbolic shape ", ShapeStr(t.sshape())));
}

// _device_num is the exception: each device's kernels fix it (uop/multi.h).
absl::Status CheckAllBound(const std::string& op, const UOp& root) {
  absl::flat_hash_map<std::string, bool> bound;  // variable name -> seen under a BIND
  std::vector<UOp> topo = root.toposort();
  for (const UOp& n : topo)
    if (n.op() == Ops::BIND && n.src(0).op() == Ops::DEFINE_VAR) bound[VarName(n.src(0))] = true;
  for (const UOp& n : topo)
    if (n.op() == Ops::DEFINE_VAR && !bound.contains(VarName(n)) && VarName(n) != kDeviceNumVar)
      return absl::InvalidArgumentError(absl::StrCat(
          op, ": variable '", VarName(n), "' is not bound; bind it to a value with bind()"));
  return absl::OkStatus();
}

// The realized form is a BUFFER under movement ops whose args may use bound variables
// (a symbolic result lives in a buffer sized for the variables' maxima). Walks the chain with
// the bound values to find each element's position in the buffer.
absl::StatusOr<std::vector<int64_t>> ViewOffsets(const UOp& view) {
  absl::StatusOr<VarVals> vals = CollectBindings(view);
  if (!vals.ok()) return vals.status();
  struct Step {
    Ops op;
    std::vector<int64_t> in, out;  // the source's and this node's shapes
    std::vector<int64_t> arg;      // SHRINK begins, PERMUTE order, FLIP flags
  };
  auto eval = [&](const Shape& s) -> absl::StatusOr<std::vector<int64_t>> {
    std::vector<int64_t> out;
    for (const SInt& x : s) {
      absl::StatusOr<int64_t> v = EvalSInt(x, *vals);
      if (!v.ok()) return v.status();
      out.push_back(*v);
    }
    return out;
  };
  std::vector<Step> steps;
  UOp u = view;
  while (u.op() != Ops::BUFFER) {
    Step st{u.op(), {}, {}, {}};
    if (u.src().empty() || !u.shape() || !u.src(0).shape())
      return absl::InternalError(absl::StrCat("cannot read a realized ", std::string(OpName(u.op()))));
    absl::StatusOr<std::vector<int64_t>> in = eval(*u.src(0).shape()), out = eval(*u.shape());
    if (!in.ok()) return in.status();
    if (!out.ok()) return out.status();
    st.in = *in;
    st.out = *out;
    switch (u.op()) {
      case Ops::RESHAPE:
      case Ops::EXPAND:
        break;
      case Ops::SHRINK:
        for (const auto& [b, e] : u.marg_pairs()) {
          absl::StatusOr<int64_t> v = EvalSInt(b, *vals);
          if (!v.ok()) return v.status();
          st.arg.push_back(*v);
        }
        break;
      case Ops::PERMUTE:
        for (const Arg& a : u.arg().tuple()) st.arg.push_back(a.int64());
        break;
      case Ops::FLIP:
        for (const Arg& a : u.arg().tuple()) st.arg.push_back(a.int64() != 0 ? 1 : 0);
        break;
      default:
        return absl::InternalError(absl::StrCat("cannot read a realized ", std::string(OpName(u.op()))));
    }
    steps.push_back(std::move(st));
    u = u.src(0);
  }
  std::vector<int64_t> shape = steps.empty() ? std::vector<int64_t>{u.arg().int64()} : steps[0].out;
  int64_t n = Prod(shape);
  std::vector<int64_t> offsets(n), idx(shape.size()), tmp;
  for (int64_t flat = 0; flat < n; ++flat) {
    // flat -> multi-index in the view's shape
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1, r = flat; d >= 0; --d) {
      idx[d] = r % shape[d];
      r /= shape[d];
    }
    std::vector<int64_t> cur = idx;
    for (const Step& st : steps) {
      switch (st.op) {
        case Ops::RESHAPE: {
          int64_t lin = 0;
          for (size_t d = 0; d < st.out.size(); ++d) lin = lin * st.out[d] + cur[d];
          cur.assign(st.in.size(), 0);
          for (int64_t d = static_cast<int64_t>(st.in.size()) - 1; d >= 0; --d) {
            cur[d] = lin % st.in[d];
            lin /= st.in[d];
          }
          break;
        }
        case Ops::EXPAND:
          for (size_t d = 0; d < cur.size(); ++d)
            if (st.in[d] == 1) cur[d] = 0;
          break;
        case Ops::SHRINK:
          for (size_t d = 0; d < cur.size(); ++d) cur[d] += st.arg[d];
          break;
        case Ops::PERMUTE:
          tmp.assign(cur.size(), 0);
          for (size_t d = 0; d < cur.size(); ++d) tmp[st.arg[d]] = cur[d];
          cur = tmp;
          break;
        case Ops::FLIP:
          for (size_t d = 0; d < cur.size(); ++d)
            if (st.arg[d]) cur[d] = st.in[d] - 1 - cur[d];
          break;
        default:
          break;
      }
    }
    offsets[flat] = cur.empty() ? 0 : cur[0];
  }
  return offsets;
}

}  // namespace tensor_internal

// tinygrad's Tensor(UOp) for a symbolic int: the index expression lowered to int32
// (_index_to_concrete_int), each BIND's variable and value placed on the device.
Tensor Tensor::FromSInt(const SInt& v, const TensorOpts& o) {
  DType dt = o.dtype.value_or(dtypes::default_int);
  if (!dtypes::is_int(dt) && !dtypes::is_float(dt))
    return tensor_internal::Err("from_sint", "needs a number dtype, got " + dt.repr());
  if (v.is_int()) return tensor_internal::ConstTensor(ConstValue(v.value()), dt, o.device);
  if (absl::Status st = tensor_internal::CheckSInts("from_sint", std::span<const SInt>(&v, 1)); !st.ok())
    return Error(st);
  UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, DeviceArg(CanonicalDeviceName(o.device)));
  DType it = dtypes::default_int;
  absl::flat_hash_map<UOp, UOp> done;
  for (const UOp& n : v.uop().toposort()) {
    UOp r;
    switch (n.op()) {
      case Ops::CONST:
        r = UOp::Make(Ops::CONST, it, {dev}, n.arg());
        break;
      case Ops::DEFINE_VAR:
        r = UOp::Make(Ops::DEFINE_VAR, it, {dev}, n.arg());
        break;
      case Ops::BIND:
        r = UOp::Make(Ops::BIND, it, {done.at(n.src(0)), done.at(n.src(1))});
        break;
      case Ops::ADD:
      case Ops::MUL:
      case Ops::IDIV:
      case Ops::MOD:
      case Ops::MAX:
        r = done.at(n.src(0)).alu(n.op(), {done.at(n.src(1))});
        break;
      default:
        return tensor_internal::Err("from_sint", absl::StrCat("cannot make a tensor of ", v.repr()));
    }
    done[n] = r;
  }
  return Tensor(done.at(v.uop())).cast(dt);
}

}  // namespace tg
