// File: tinygrad/uop/shape.cc
// Port of tinygrad/uop/ops.py: sint helpers, UOp._shape, UOp._device, _mop/marg and the
// tensor-graph constructors (new_buffer, const with a device, r).
#include "tinygrad/uop/shape.h"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/render.h"

namespace tg {

// ** SInt **

SInt::SInt(const UOp& u) {
  TG_CHECK(u) << "null SInt";
  if (u.op() == Ops::CONST) {
    v_ = u.arg().int64();
    return;
  }
  TG_CHECK(u.dtype() == dtypes::index || dtypes::is_int(u.dtype()))
      << "a symbolic dimension must be an integer UOp, got " << u.dtype();
  u_ = u;
}

int64_t SInt::value() const {
  TG_CHECK(is_int()) << "symbolic dimension " << repr() << " has no int value";
  return v_;
}

const UOp& SInt::uop() const {
  TG_CHECK(!is_int()) << "dimension " << v_ << " is not symbolic";
  return u_;
}

UOp SInt::ToUOp() const { return is_int() ? UOp::Const(dtypes::index, v_) : u_; }

int64_t SInt::vmin() const { return is_int() ? v_ : u_.vmin().to_int64(); }
int64_t SInt::vmax() const { return is_int() ? v_ : u_.vmax().to_int64(); }

std::string SInt::repr() const { return is_int() ? std::to_string(v_) : Render(u_); }

namespace {

// A symbolic sum as (term, coefficient) pairs, ordered by their rendering, plus a constant, so that
// SInt arithmetic folds what tinygrad's ssimplify folds on shapes: n+n -> n*2,
// n+(10-n) -> 10, (n*2)*2 -> n*4, (n+1)*2 -> n*2+2. Unfolded shapes are not only uglier:
// the scheduler's simplified ranges no longer match the shape's (a pad to `10 - n` of a
// computed (3, n) tensor left a PLACEHOLDER range behind).
struct Linear {
  std::vector<std::pair<UOp, int64_t>> terms;
  int64_t c = 0;
  void Add(const SInt& x, int64_t mult) {
    if (x.is_int()) {
      c += mult * x.value();
      return;
    }
    const UOp& u = x.uop();
    if (u.op() == Ops::ADD) {
      Add(SInt(u.src(0)), mult);
      Add(SInt(u.src(1)), mult);
      return;
    }
    if (u.op() == Ops::MUL && u.src(1).op() == Ops::CONST) {
      Add(SInt(u.src(0)), mult * u.src(1).arg().int64());
      return;
    }
    for (auto& [t, k] : terms)
      if (t == u) {
        k += mult;
        return;
      }
    terms.emplace_back(u, mult);
  }
  SInt Build() {
    // One order for every equal sum: a cat's (i, 3) padded by j and (j, 3) padded by i
    // must both be (i+j, 3).
    std::stable_sort(terms.begin(), terms.end(),
                     [](const auto& a, const auto& b) { return Render(a.first) < Render(b.first); });
    UOp acc;
    for (const auto& [t, k] : terms) {
      if (k == 0) continue;
      UOp term = k == 1 ? t : t * t.const_like(k);
      acc = acc ? acc + term : term;
    }
    if (!acc) return SInt(c);
    return c == 0 ? SInt(acc) : SInt(acc + acc.const_like(c));
  }
};

}  // namespace

SInt operator+(const SInt& a, const SInt& b) {
  if (a.is_int() && b.is_int()) return a.value() + b.value();
  Linear l;
  l.Add(a, 1);
  l.Add(b, 1);
  return l.Build();
}

SInt operator-(const SInt& a, const SInt& b) {
  if (b.is_int()) return a + SInt(-b.value());
  return a + b * SInt(-1);
}

SInt operator*(const SInt& a, const SInt& b) {
  if (a.is_int() && b.is_int()) return a.value() * b.value();
  if (a.is_int()) return b * a;
  if (b.is_int()) {  // a linear form times a constant stays linear
    Linear l;
    l.Add(a, b.value());
    return l.Build();
  }
  return SInt(a.uop() * b.ToUOp());
}

std::optional<SInt> AddChecked(const SInt& a, const SInt& b) {
  int64_t n;
  if (!a.is_int() || !b.is_int()) return a + b;
  if (__builtin_add_overflow(a.value(), b.value(), &n)) return std::nullopt;
  return n;
}

SInt FloorDiv(const SInt& a, const SInt& b) {
  if (a.is_int() && b.is_int()) {
    TG_CHECK(b.value() != 0) << "division of a dimension by zero";
    int64_t q = a.value() / b.value();
    if ((a.value() % b.value() != 0) && ((a.value() < 0) != (b.value() < 0))) --q;
    return q;
  }
  if (b.is_int() && b.value() == 1) return a;
  return SInt(a.ToUOp().idiv(b.ToUOp()));
}

SInt SMax(const SInt& a, const SInt& b) {
  if (a.is_int() && b.is_int()) return std::max(a.value(), b.value());
  return SInt(a.ToUOp().maximum(b.ToUOp()));
}

SInt Prod(std::span<const SInt> s) {
  // a 0 makes it 0, even where the dims before it overflow an int64 together: (4, 2^62, 4, 0)
  if (std::any_of(s.begin(), s.end(), [](const SInt& x) { return x.is_int() && x.value() == 0; })) return 0;
  SInt p = 1;
  for (const SInt& x : s) p = p * x;
  return p;
}

bool AllInt(std::span<const SInt> s) {
  return std::all_of(s.begin(), s.end(), [](const SInt& x) { return x.is_int(); });
}

std::vector<int64_t> ToInts(std::span<const SInt> s) {
  std::vector<int64_t> out;
  out.reserve(s.size());
  for (const SInt& x : s) out.push_back(x.value());
  return out;
}

std::string ShapeRepr(std::span<const SInt> s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) absl::StrAppend(&out, i ? ", " : "", s[i].repr());
  return out + (s.size() == 1 ? ",)" : ")");
}

// ** shape inference **

namespace {

using uop_internal::TensorInfo;

const std::optional<Shape>& ShapeOf(const UOp& u) {
  static const std::optional<Shape> kNone;
  return u.node_tensor_info() ? u.node_tensor_info()->shape : kNone;
}

// tinygrad's sgep over a movement-arg source (CONST / VCONST / VECTORIZE).
SInt SGep(const UOp& u, size_t i) {
  switch (u.op()) {
    case Ops::CONST:
      return SInt(u.arg().int64());
    case Ops::VCONST:
      return SInt(u.arg()[i].int64());
    case Ops::VECTORIZE:
      return SInt(u.src(i));
    default:
      TG_CHECK(false) << "no movement arg in " << u.op();
      return 0;
  }
}

bool IsMovementArg(const UOp& u) {
  if (u.dtype().scalar() != dtypes::index) return false;
  if (u.op() == Ops::CONST) return u.arg().is_number();
  if (u.op() == Ops::VCONST) return true;
  return u.op() == Ops::VECTORIZE;
}

Shape ArgShape(const UOp& u) {
  Shape s;
  for (int i = 0; i < u.dtype().count(); ++i) s.push_back(SGep(u, i));
  return s;
}

// Would `x >= 0` be true for some values (tinygrad's resolve with default True)?
bool MaybeNonNegative(const SInt& x) { return x.vmax() >= 0; }

absl::Status Bad(std::string msg) { return absl::InvalidArgumentError(std::move(msg)); }

absl::StatusOr<std::optional<Shape>> MovementShape(Ops op, std::span<const UOp> src, const Arg& arg,
                                                   const Shape& ps) {
  switch (op) {
    case Ops::RESHAPE: {
      Shape ns = ArgShape(src[1]);
      for (const SInt& d : ns)
        if (d.is_int() && d.value() < 0)
          return Bad(absl::StrCat("shape can't contain negative numbers ", ShapeRepr(ns)));
      if (Prod(ps) != Prod(ns))
        return Bad(absl::StrCat("bad reshape: ", ShapeRepr(ps), " -> ", ShapeRepr(ns)));
      return ns;
    }
    case Ops::EXPAND: {
      Shape ns = ArgShape(src[1]);
      bool ok = ns.size() == ps.size();
      for (size_t i = 0; ok && i < ns.size(); ++i)
        ok = ps[i] == ns[i] || (ps[i] == SInt(1) && MaybeNonNegative(ns[i]));
      if (!ok) return Bad(absl::StrCat("bad expand: ", ShapeRepr(ps), " -> ", ShapeRepr(ns)));
      return ns;
    }
    case Ops::PERMUTE: {
      if (!arg.is_tuple()) return Bad("PERMUTE arg must be a tuple");
      std::vector<int64_t> perm;
      for (const Arg& a : arg.tuple()) {
        if (!a.is_number()) return Bad("PERMUTE arg must hold ints");
        perm.push_back(a.int64());
      }
      std::vector<int64_t> sorted = perm;
      std::sort(sorted.begin(), sorted.end());
      bool ok = sorted.size() == ps.size();
      for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == static_cast<int64_t>(i);
      if (!ok) return Bad(absl::StrCat("invalid permutation ", arg.repr(), " of len ", ps.size()));
      Shape out;
      for (int64_t i : perm) out.push_back(ps[i]);
      return out;
    }
    case Ops::PAD:
    case Ops::SHRINK: {
      Shape b = ArgShape(src[1]), e = ArgShape(src[2]);
      if (b.size() != ps.size() || e.size() != ps.size())
        return Bad(absl::StrCat("invalid ", std::string(OpName(op)), " of rank ", b.size(), " for ",
                                ShapeRepr(ps)));
      Shape out;
      for (size_t i = 0; i < ps.size(); ++i) {
        if (op == Ops::PAD) {
          if (!MaybeNonNegative(b[i]) || !MaybeNonNegative(e[i]))
            return Bad(absl::StrCat("invalid pad (", b[i].repr(), ", ", e[i].repr(), ") for ",
                                    ShapeRepr(ps)));
          out.push_back(ps[i] + b[i] + e[i]);
        } else {
          bool ok = MaybeNonNegative(b[i]) && MaybeNonNegative(e[i] - b[i]) &&
                    MaybeNonNegative(ps[i] - e[i]);
          if (!ok)
            return Bad(absl::StrCat("invalid shrink (", b[i].repr(), ", ", e[i].repr(), ") of dim ",
                                    i, " for ", ShapeRepr(ps)));
          out.push_back(e[i] - b[i]);
        }
      }
      return out;
    }
    case Ops::FLIP:
      if (!arg.is_tuple() || arg.size() != ps.size())
        return Bad(absl::StrCat("bad flip on ", ShapeRepr(ps), ", ", arg.repr()));
      return ps;
    case Ops::REDUCE_AXIS: {
      if (!arg.is_tuple() || arg.size() != 2 || !arg[1].is_tuple())
        return Bad("REDUCE_AXIS arg must be (op, axes)");
      const Arg& axes = arg[1];
      Shape out = ps;
      for (const Arg& a : axes.tuple()) {
        if (!a.is_number()) return Bad("REDUCE_AXIS axes must be ints");
        int64_t ax = a.int64();
        if (ax < 0 || ax >= static_cast<int64_t>(ps.size()))
          return Bad(absl::StrCat("invalid reduce axis ", ax, " for ", ShapeRepr(ps)));
        out[ax] = 1;
      }
      return out;
    }
    default:
      return std::optional<Shape>();
  }
}

}  // namespace

absl::StatusOr<std::optional<Shape>> InferShape(Ops op, DType dtype, std::span<const UOp> src,
                                                const Arg& arg) {
  using R = std::optional<Shape>;
  // The ops whose shape is their first source's have none without one: a malformed graph
  // (spec reports it), which inference must not read past.
  static constexpr OpSet kFromFirstSource{
      Ops::INDEX,  Ops::REDUCE, Ops::MSTACK,     Ops::MSELECT,
      Ops::DETACH, Ops::MULTI,  Ops::CONTIGUOUS, Ops::CONTIGUOUS_BACKWARD,
      Ops::AFTER,  Ops::END,    Ops::BITCAST};
  if (src.empty() && kFromFirstSource.contains(op)) return R();
  switch (op) {
    case Ops::INDEX: {
      if (!dtype.is_ptr()) return R();
      const R& ps = ShapeOf(src[0]);
      if (!ps || src.size() - 1 >= ps->size()) return R();
      return R(Shape(ps->begin() + (src.size() - 1), ps->end()));
    }
    case Ops::CONST:
    case Ops::DEFINE_VAR:
    case Ops::BIND: {
      for (const UOp& s : src)
        if (s.node_tensor_info() && !s.node_tensor_info()->device.is_none()) return R(Shape{});
      return R();
    }
    case Ops::BUFFER:
      if (!arg.is_number()) return Bad("BUFFER arg must be its size");
      return R(Shape{SInt(arg.int64())});
    case Ops::BUFFER_VIEW:
      if (!arg.is_tuple() || arg.size() == 0 || !arg[0].is_number())
        return Bad("BUFFER_VIEW arg must be (size, offset)");
      return R(Shape{SInt(arg[0].int64())});
    case Ops::BUFFERIZE: {
      Shape s;
      for (size_t i = 1; i < src.size(); ++i) {
        if (!src[i].vmax().is_int()) return Bad("BUFFERIZE range without an int bound");
        s.push_back(SInt(src[i].vmax().to_int64() + 1));
      }
      return R(std::move(s));
    }
    case Ops::DEFINE_GLOBAL:
    case Ops::DEFINE_LOCAL:
    case Ops::DEFINE_REG:
      return R(Shape{SInt(dtype.size())});
    case Ops::REDUCE:
    case Ops::MSTACK:
    case Ops::MSELECT:
    case Ops::DETACH:
    case Ops::CONTIGUOUS:
    case Ops::CONTIGUOUS_BACKWARD:
    case Ops::AFTER:
    case Ops::END:
      return ShapeOf(src[0]);
    case Ops::MULTI: {  // the whole of a split value: its shard's shape times the devices
      R ps = ShapeOf(src[0]);
      if (!ps) return ps;
      const Arg& devices = src[0].device();
      if (!arg.is_number() || arg.int64() < 0 || arg.int64() >= static_cast<int64_t>(ps->size()))
        return Bad("MULTI arg must be an axis of its source");
      if (!devices.is_tuple()) return Bad("MULTI of a value on one device");
      (*ps)[arg.int64()] = (*ps)[arg.int64()] * SInt(static_cast<int64_t>(devices.size()));
      return ps;
    }
    case Ops::BITCAST: {
      R ps = ShapeOf(src[0]);
      if (!ps || ps->empty()) return ps;
      int64_t in_sz = src[0].dtype().itemsize(), out_sz = dtype.itemsize();
      if (in_sz != out_sz) ps->back() = FloorDiv(ps->back() * SInt(in_sz), SInt(out_sz));
      return ps;
    }
    default:
      break;
  }
  if (GroupOp::Movement.contains(op) || op == Ops::REDUCE_AXIS) {
    if (src.empty()) return Bad(absl::StrCat(std::string(OpName(op)), " without a source"));
    size_t want = op == Ops::RESHAPE || op == Ops::EXPAND ? 2
                  : op == Ops::PAD || op == Ops::SHRINK   ? 3
                                                          : 1;
    if (src.size() != want)
      return Bad(absl::StrCat(std::string(OpName(op)), " needs ", want, " sources"));
    for (size_t i = 1; i < want; ++i)
      if (!IsMovementArg(src[i]))
        return Bad(absl::StrCat(std::string(OpName(op)), " arg source must be an index vector"));
    const R& ps = ShapeOf(src[0]);
    if (!ps) {
      if (op == Ops::RESHAPE) return R(ArgShape(src[1]));  // reshape from nothing
      return Bad(absl::StrCat("movement op ", std::string(OpName(op)), " requires shape"));
    }
    return MovementShape(op, src, arg, *ps);
  }
  static constexpr OpSet kSameShape =
      GroupOp::ALU | OpSet{Ops::CAST,  Ops::COPY, Ops::ASSIGN,    Ops::NOOP,
                           Ops::GROUP, Ops::SINK, Ops::ALLREDUCE, Ops::STORE};
  if (kSameShape.contains(op)) {
    size_t n = op == Ops::ASSIGN ? std::min<size_t>(2, src.size()) : src.size();
    const R* first = nullptr;
    for (size_t i = 0; i < n; ++i) {
      const R& s = ShapeOf(src[i]);
      if (!s) continue;
      if (first == nullptr) {
        first = &s;
      } else if (**first != *s) {
        return Bad(absl::StrCat("shape mismatch at ", std::string(OpName(op)), ": ",
                                ShapeRepr(**first), " vs ", ShapeRepr(*s)));
      }
    }
    return first ? *first : R();
  }
  return R();  // kernel-level ops (and ops tinygrad has no shape rule for) have no shape
}

namespace uop_internal {

namespace {

Arg DeviceOf(Ops op, std::span<const UOp> src, const Arg& arg) {
  auto dev = [](const UOp& u) -> Arg {
    return u.node_tensor_info() ? u.node_tensor_info()->device : Arg();
  };
  switch (op) {
    case Ops::DEVICE:
      return arg;
    case Ops::BUFFERIZE:
      return BufferizeOpts::IsBufferizeOpts(arg) ? BufferizeOpts::FromArg(arg).device : Arg();
    case Ops::AFTER:
      return src.empty() ? Arg() : dev(src[0]);
    case Ops::MSELECT: {
      if (src.empty()) return Arg();
      Arg d = dev(src[0]);
      if (!d.is_tuple()) return d;
      int64_t i = arg.is_number() ? arg.int64() : -1;
      return i >= 0 && i < static_cast<int64_t>(d.size()) ? d[i] : Arg();  // bad index: spec's job
    }
    case Ops::MSTACK: {
      std::vector<Arg> ds;
      for (const UOp& s : src) ds.push_back(dev(s));
      return Arg::Tuple(std::move(ds));
    }
    case Ops::COPY:
    case Ops::BUFFER:
    case Ops::ALLREDUCE:
      return src.size() > 1 ? dev(src[1]) : Arg();
    default:
      for (const UOp& s : src)
        if (Arg d = dev(s); !d.is_none()) return d;
      return Arg();
  }
}

}  // namespace

const TensorInfo* ComputeTensorInfo(Ops op, DType dtype, std::span<const UOp> src, const Arg& arg) {
  Arg device = DeviceOf(op, src, arg);
  absl::StatusOr<std::optional<Shape>> shape = InferShape(op, dtype, src, arg);
  // An inconsistent node is kept without a shape: rewrites may build such intermediates, and
  // the movement builders and the Tensor layer check InferShape themselves.
  bool has_shape = shape.ok() && shape->has_value();
  if (device.is_none() && !has_shape) return nullptr;
  auto* info = new TensorInfo{std::nullopt, std::move(device)};
  if (has_shape) info->shape = std::move(**shape);
  return info;
}

}  // namespace uop_internal

// ** UOp tensor-graph methods **

const Shape* UOp::shape() const {
  const uop_internal::TensorInfo* t = node_tensor_info();
  return t && t->shape ? &*t->shape : nullptr;
}

const Arg& UOp::device() const {
  static const Arg kNone;
  const uop_internal::TensorInfo* t = node_tensor_info();
  return t ? t->device : kNone;
}

UOp UOp::base() const {
  UOp b = *this;
  while (GroupOp::Movement.contains(b.op()) || b.op() == Ops::MULTI) b = b.src(0);
  return b;
}

UOp UOp::contiguous() const {
  if (op() == Ops::CONTIGUOUS) return *this;
  // a (reshaped) BUFFER, or one per device: tinygrad's multi-device BUFFER is our MSTACK of them
  auto is_buffer = [](UOp b) {
    while (b.op() == Ops::RESHAPE || b.op() == Ops::MULTI) b = b.src(0);
    return b.op() == Ops::BUFFER;
  };
  UOp b = *this;
  while (b.op() == Ops::RESHAPE || b.op() == Ops::MULTI) b = b.src(0);
  if (is_buffer(b)) return *this;
  if (b.op() == Ops::MSTACK && std::all_of(b.src().begin(), b.src().end(), is_buffer)) return *this;
  return Make(Ops::CONTIGUOUS, dtype(), {*this});
}

UOp UOp::Unique() {
  static std::atomic<int64_t> next{0};
  return Unique(next.fetch_add(1, std::memory_order_relaxed));
}

UOp UOp::Unique(int64_t num) { return Make(Ops::UNIQUE, dtypes::void_, {}, num); }

UOp UOp::NewBuffer(const std::string& device, int64_t size, DType dtype) {
  return Make(Ops::BUFFER, dtype,
              {Unique(), Make(Ops::DEVICE, dtypes::void_, {}, DeviceArg(device))}, size);
}

UOp UOp::ConstOn(DType dtype, ConstValue v, const std::string& device, const Shape* shape) {
  UOp c = Make(Ops::CONST, dtype, {Make(Ops::DEVICE, dtypes::void_, {}, DeviceArg(device))},
               dtypes::as_const(v, dtype));
  if (shape == nullptr) return c;
  return c.reshape(Shape(shape->size(), SInt(1))).expand(*shape);
}

namespace {

// The index-dtype source carrying one movement arg (tinygrad's _mop usrcs).
UOp ArgSource(std::span<const SInt> values) {
  DType dt = dtypes::index.vec(static_cast<int>(values.size()));
  if (values.empty()) return UOp::Make(Ops::VECTORIZE, dt);
  if (AllInt(values)) {
    std::vector<ConstValue> lanes;
    for (const SInt& v : values) lanes.emplace_back(v.value());
    return UOp::VConst(dt, lanes);
  }
  std::vector<UOp> srcs;
  for (const SInt& v : values) srcs.push_back(v.ToUOp());
  return UOp::Make(Ops::VECTORIZE, dt, srcs);
}

UOp BuildMovement(const UOp& x, Ops op, std::vector<UOp> arg_srcs, Arg arg = {}) {
  std::vector<UOp> src{x};
  src.insert(src.end(), arg_srcs.begin(), arg_srcs.end());
  absl::StatusOr<std::optional<Shape>> s = InferShape(op, x.dtype(), src, arg);
  TG_CHECK(s.ok()) << s.status().message();
  return UOp::Make(op, x.dtype(), src, std::move(arg));
}

bool SameShape(const UOp& a, const UOp& b) {
  const Shape* sa = a.shape();
  const Shape* sb = b.shape();
  return sa && sb && *sa == *sb;
}

}  // namespace

UOp UOp::forced_reshape(const Shape& s) const {
  return BuildMovement(*this, Ops::RESHAPE, {ArgSource(s)});
}

UOp UOp::reshape(const Shape& s) const {
  UOp r = forced_reshape(s);
  return SameShape(r, *this) ? *this : r;
}

UOp UOp::expand(const Shape& s) const {
  UOp r = BuildMovement(*this, Ops::EXPAND, {ArgSource(s)});
  return SameShape(r, *this) ? *this : r;
}

static std::pair<Shape, Shape> Unzip(const PadArg& p) {
  Shape b, e;
  for (const auto& [x, y] : p) {
    b.push_back(x);
    e.push_back(y);
  }
  return {b, e};
}

UOp UOp::pad(const PadArg& p) const {
  auto [b, e] = Unzip(p);
  UOp r = BuildMovement(*this, Ops::PAD, {ArgSource(b), ArgSource(e)});
  return SameShape(r, *this) ? *this : r;
}

UOp UOp::shrink(const PadArg& p) const {
  auto [b, e] = Unzip(p);
  UOp r = BuildMovement(*this, Ops::SHRINK, {ArgSource(b), ArgSource(e)});
  return SameShape(r, *this) ? *this : r;
}

UOp UOp::permute(std::span<const int64_t> order) const {
  bool identity = true;
  std::vector<Arg> a;
  for (size_t i = 0; i < order.size(); ++i) {
    identity &= order[i] == static_cast<int64_t>(i);
    a.emplace_back(order[i]);
  }
  const Shape* s = shape();
  if (identity && s && s->size() == order.size()) return *this;
  return BuildMovement(*this, Ops::PERMUTE, {}, Arg::Tuple(std::move(a)));
}

UOp UOp::flip(const std::vector<bool>& axes) const {
  const Shape* s = shape();
  bool any = std::any_of(axes.begin(), axes.end(), [](bool b) { return b; });
  if (!any && s && s->size() == axes.size()) return *this;
  std::vector<Arg> a;
  for (bool b : axes) a.emplace_back(b);
  return BuildMovement(*this, Ops::FLIP, {}, Arg::Tuple(std::move(a)));
}

Shape UOp::marg_shape() const {
  TG_CHECK(op() == Ops::RESHAPE || op() == Ops::EXPAND) << op() << " has no shape arg";
  return ArgShape(src(1));
}

PadArg UOp::marg_pairs() const {
  TG_CHECK(op() == Ops::PAD || op() == Ops::SHRINK) << op() << " has no (begin, end) arg";
  Shape b = ArgShape(src(1)), e = ArgShape(src(2));
  PadArg out;
  for (size_t i = 0; i < b.size(); ++i) out.emplace_back(b[i], e[i]);
  return out;
}

UOp UOp::r(Ops op, std::span<const int64_t> axes) const {
  const Shape* s = shape();
  TG_CHECK(s) << "reduce of a node without shape: " << this->op();
  std::vector<int64_t> keep;
  for (int64_t a : axes) {
    TG_CHECK(a >= 0 && a < static_cast<int64_t>(s->size()))
        << "reduce axis " << a << " out of range for " << ShapeRepr(*s);
    if ((*s)[a] != SInt(1)) keep.push_back(a);
  }
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  if (keep.empty()) return *this;
  std::vector<Arg> ax(keep.begin(), keep.end());
  return Make(Ops::REDUCE_AXIS, dtype(), {*this}, Arg::Tuple({op, Arg::Tuple(std::move(ax))}));
}

UOp UOp::after(std::span<const UOp> deps) const {
  std::vector<UOp> src{*this};
  src.insert(src.end(), deps.begin(), deps.end());
  return Make(Ops::AFTER, dtype(), src);
}

UOp UOp::end(std::span<const UOp> ranges) const {
  if (ranges.empty()) return *this;
  std::vector<UOp> src{*this};
  src.insert(src.end(), ranges.begin(), ranges.end());
  return Make(Ops::END, dtypes::void_, src);
}

}  // namespace tg
