// File: tinygrad/tensor/elementwise.cc
// Elementwise Tensor ops: arithmetic, comparisons, logic, transcendentals, activations, and
// the C++ operators.
// Port of tinygrad/mixin/math.py (MathMixin) and the elementwise part of tinygrad/tensor.py
// (sub, div with rounding modes, mod, pow, where, exp/log/sin/cos, sign/abs, erf, ...).
//
// Deliberate divergence: integer division and modulo never trap or fail to compile. The
// reference fails to compile `x // c` and `x % c` for a negative constant c, and a zero
// divisor tensor kills the process (SIGFPE). Here a negative constant divisor is negated
// (trunc(x / c) = -trunc(x / -c), x mod c = x mod -c in C semantics), and a non-constant
// divisor is guarded: x idiv 0 = 0 and x mod 0 = x (tinygrad's cdiv/cmod rule for a zero
// divisor, which its constant folder applies), and x idiv -1 = -x (no INT_MIN / -1 trap).
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Alu;
using tensor_internal::BroadcastedAlu;
using tensor_internal::Broadcasted;
using tensor_internal::Err;
using tensor_internal::Operand;

namespace {

// The constant a tensor-graph node holds everywhere, looking through movement ops and casts.
std::optional<ConstValue> ConstOf(UOp u) {
  std::vector<DType> casts;
  while (true) {
    if (GroupOp::Movement.contains(u.op())) {
      u = u.src(0);
    } else if (u.op() == Ops::CAST) {
      casts.push_back(u.dtype());
      u = u.src(0);
    } else {
      break;
    }
  }
  if (u.op() != Ops::CONST || !u.arg().is_number()) return std::nullopt;
  ConstValue v = u.arg().number();
  DType cur = u.dtype();
  for (auto it = casts.rbegin(); it != casts.rend(); ++it) {
    if (dtypes::is_float(cur) && !dtypes::is_float(*it)) return std::nullopt;  // keep it simple
    v = Truncate(dtypes::as_const(v, *it), *it);
    cur = *it;
  }
  return v;
}

// IDIV or MOD (C semantics) of two broadcast int tensors of one dtype, without traps.
Tensor IntDivMod(Ops op, const Tensor& a, const Tensor& b) {
  if (std::optional<ConstValue> c = ConstOf(b.uop()); c && c->is_int()) {
    i128 v = c->to_int();
    if (v > 0) return Alu(op, a, b);
    if (v == 0) return op == Ops::IDIV ? a.zeros_like() : a;
    ConstValue nv = Truncate(ConstValue(-v), b.dtype());
    if (nv.to_int() > 0) {
      Tensor pos = tensor_internal::BroadcastTo(
          tensor_internal::ConstTensor(nv, b.dtype(), b.device()), b.shape());
      return op == Ops::IDIV ? Alu(op, a, pos).neg() : Alu(op, a, pos);
    }
  }
  Tensor zero = b.eq(0);
  Tensor bad = dtypes::is_unsigned(b.dtype()) ? zero : zero | b.eq(-1);
  Tensor safe = bad.where(b.ones_like(), b);
  Tensor r = Alu(op, a, safe);
  if (op == Ops::IDIV) {
    if (!dtypes::is_unsigned(b.dtype())) r = b.eq(-1).where(a.neg(), r);
    return zero.where(a.zeros_like(), r);
  }
  return zero.where(a, r);
}

Tensor TrueDiv(const Tensor& x, const Operand& y, bool reverse) {
  auto nd = Broadcasted("div", x, y, reverse);
  if (!nd.ok()) return Tensor::Error(nd.status());
  const auto& [n, d] = *nd;
  return n.cast(dtypes::least_upper_float(n.dtype())) *
         d.cast(dtypes::least_upper_float(d.dtype())).reciprocal();
}

Tensor FloorDiv(const Tensor& x, const Operand& y, bool reverse) {
  auto nd = Broadcasted("floordiv", x, y, reverse);
  if (!nd.ok()) return Tensor::Error(nd.status());
  auto [n, d] = *nd;
  DType dt = tensor_internal::PromoteTypes(n.dtype(), d.dtype());
  if (dtypes::is_int(dt)) {
    n = n.cast(dt);
    d = d.cast(dt);
    Tensor q = IntDivMod(Ops::IDIV, n, d), r = IntDivMod(Ops::MOD, n, d);
    Tensor opposite = (n.gt(0) & d.lt(0)) | (n.lt(0) & d.gt(0));
    return (opposite & r.ne(0)).where(q - 1, q);
  }
  Tensor f = n.cast(dtypes::least_upper_float(n.dtype())) *
             d.cast(dtypes::least_upper_float(d.dtype())).reciprocal();
  return f.floor().cast(dtypes::is_int(n.dtype()) ? n.dtype() : f.dtype());
}

Tensor Mod(const Tensor& x, const Operand& y, bool reverse) {
  auto ab = Broadcasted("mod", x, y, reverse);
  if (!ab.ok()) return Tensor::Error(ab.status());
  const auto& [a, b] = *ab;
  return a - a.floordiv(b) * b;
}

Tensor TruncDiv(const Tensor& x, const Operand& y, bool reverse) {
  auto ab = Broadcasted("idiv", x, y, reverse);
  if (!ab.ok()) return Tensor::Error(ab.status());
  const auto& [a, b] = *ab;
  if (!dtypes::is_int(a.dtype()))
    return Err("idiv", absl::StrCat("integer division of ", a.dtype().repr()));
  return IntDivMod(Ops::IDIV, a, b);
}

Tensor Bitwise(const std::string& name, Ops op, const Tensor& x, const Operand& y) {
  TG_TENSOR_RETURN_IF_ERROR(&x);
  if (!dtypes::is_int(x.dtype()) && x.dtype() != dtypes::bool_)
    return Err(name, absl::StrCat(x.dtype().repr(), " is not supported"));
  return BroadcastedAlu(name, op, x, y);
}

Tensor Pow(const Tensor& x, const Operand& y, bool reverse) {
  auto be = Broadcasted("pow", x, y, reverse);
  if (!be.ok()) return Tensor::Error(be.status());
  const auto& [base, expo] = *be;
  const ConstValue* c = std::get_if<ConstValue>(&y);
  if (!dtypes::is_float(base.dtype()) && !(c && c->is_int() && c->to_int() >= 0))
    return Err("pow", "base needs to be float");
  Tensor r = Alu(Ops::POW, base, expo);
  // pow(int, float) -> int
  if (!reverse && !dtypes::is_float(x.dtype()) && dtypes::is_float(expo.dtype()))
    return r.round().cast(x.dtype());
  return r;
}

}  // namespace

Tensor Tensor::add(const Tensor& x) const { return BroadcastedAlu("add", Ops::ADD, *this, x); }
Tensor Tensor::add(ConstValue x, bool r) const { return BroadcastedAlu("add", Ops::ADD, *this, x, r); }
Tensor Tensor::mul(const Tensor& x) const { return BroadcastedAlu("mul", Ops::MUL, *this, x); }
Tensor Tensor::mul(ConstValue x, bool r) const { return BroadcastedAlu("mul", Ops::MUL, *this, x, r); }

Tensor Tensor::sub(const Tensor& x) const {
  auto ab = Broadcasted("sub", *this, x);
  if (!ab.ok()) return Error(ab.status());
  return ab->first + ab->second.neg();
}
Tensor Tensor::sub(ConstValue x, bool r) const {
  auto ab = Broadcasted("sub", *this, x, r);
  if (!ab.ok()) return Error(ab.status());
  return ab->first + ab->second.neg();
}

Tensor Tensor::div(const Tensor& x) const { return TrueDiv(*this, x, false); }
Tensor Tensor::div(ConstValue x, bool r) const { return TrueDiv(*this, x, r); }
Tensor Tensor::floordiv(const Tensor& x) const { return FloorDiv(*this, x, false); }
Tensor Tensor::floordiv(ConstValue x, bool r) const { return FloorDiv(*this, x, r); }
Tensor Tensor::idiv(const Tensor& x) const { return TruncDiv(*this, x, false); }
Tensor Tensor::idiv(ConstValue x, bool r) const { return TruncDiv(*this, x, r); }
Tensor Tensor::mod(const Tensor& x) const { return Mod(*this, x, false); }
Tensor Tensor::mod(ConstValue x, bool r) const { return Mod(*this, x, r); }
Tensor Tensor::pow(const Tensor& x) const { return Pow(*this, x, false); }
Tensor Tensor::pow(ConstValue x, bool r) const { return Pow(*this, x, r); }

Tensor Tensor::maximum(const Tensor& x) const { return BroadcastedAlu("maximum", Ops::MAX, *this, x); }
Tensor Tensor::maximum(ConstValue x) const { return BroadcastedAlu("maximum", Ops::MAX, *this, x); }
Tensor Tensor::minimum(const Tensor& x) const {
  auto ab = Broadcasted("minimum", *this, x);
  if (!ab.ok()) return Error(ab.status());
  return tensor_internal::Inverse(
      tensor_internal::Inverse(ab->first).maximum(tensor_internal::Inverse(ab->second)));
}
Tensor Tensor::minimum(ConstValue x) const {
  auto ab = Broadcasted("minimum", *this, x);
  if (!ab.ok()) return Error(ab.status());
  return tensor_internal::Inverse(
      tensor_internal::Inverse(ab->first).maximum(tensor_internal::Inverse(ab->second)));
}

Tensor Tensor::bitwise_and(const Tensor& x) const { return Bitwise("bitwise_and", Ops::AND, *this, x); }
Tensor Tensor::bitwise_and(ConstValue x) const { return Bitwise("bitwise_and", Ops::AND, *this, x); }
Tensor Tensor::bitwise_or(const Tensor& x) const { return Bitwise("bitwise_or", Ops::OR, *this, x); }
Tensor Tensor::bitwise_or(ConstValue x) const { return Bitwise("bitwise_or", Ops::OR, *this, x); }
Tensor Tensor::bitwise_xor(const Tensor& x) const { return Bitwise("bitwise_xor", Ops::XOR, *this, x); }
Tensor Tensor::bitwise_xor(ConstValue x) const { return Bitwise("bitwise_xor", Ops::XOR, *this, x); }
Tensor Tensor::bitwise_not() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (dtype() != dtypes::bool_ && !dtypes::is_int(dtype()))
    return Err("bitwise_not", absl::StrCat(dtype().repr(), " is not supported"));
  return dtype() == dtypes::bool_ ? logical_not() : bitwise_xor(-1);
}
Tensor Tensor::lshift(int64_t bits) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (!dtypes::is_unsigned(dtype()) || bits < 0 || bits >= dtype().bitsize())
    return Err("lshift", absl::StrCat("not supported for ", dtype().repr(), " by ", bits));
  return mul(ConstValue(i128{1} << bits));
}
Tensor Tensor::rshift(int64_t bits) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (!dtypes::is_unsigned(dtype()) || bits < 0 || bits >= dtype().bitsize())
    return Err("rshift", absl::StrCat("not supported for ", dtype().repr(), " by ", bits));
  return idiv(ConstValue(i128{1} << bits));
}

// where: x and y meet first, then the condition broadcasts with each without dtype matching.
static Tensor Where(const Tensor& cond, const Operand& x, const Operand& y) {
  TG_TENSOR_RETURN_IF_ERROR(&cond);
  Operand xo = x, yo = y;
  if (const Tensor* xt = std::get_if<Tensor>(&x)) {
    auto p = Broadcasted("where", *xt, y);
    if (!p.ok()) return Tensor::Error(p.status());
    xo = p->first;
    yo = p->second;
  } else if (const Tensor* yt = std::get_if<Tensor>(&y)) {
    auto p = Broadcasted("where", *yt, x);
    if (!p.ok()) return Tensor::Error(p.status());
    yo = p->first;
    xo = p->second;
  }
  auto cx = Broadcasted("where", cond, xo, false, false);
  if (!cx.ok()) return Tensor::Error(cx.status());
  auto cy = Broadcasted("where", cx->first, yo, false, false);
  if (!cy.ok()) return Tensor::Error(cy.status());
  auto xy = Broadcasted("where", cx->second, cy->second);
  if (!xy.ok()) return Tensor::Error(xy.status());
  Tensor c = cy->first.cast(dtypes::bool_);
  return tensor_internal::Derived(c.uop().alu(Ops::WHERE, {xy->first.uop(), xy->second.uop()}),
                                 {&c, &xy->first, &xy->second});
}
Tensor Tensor::where(const Tensor& x, const Tensor& y) const { return Where(*this, x, y); }
Tensor Tensor::where(const Tensor& x, ConstValue y) const { return Where(*this, x, y); }
Tensor Tensor::where(ConstValue x, const Tensor& y) const { return Where(*this, x, y); }
Tensor Tensor::where(ConstValue x, ConstValue y) const { return Where(*this, x, y); }

Tensor Tensor::lt(const Tensor& x) const { return BroadcastedAlu("lt", Ops::CMPLT, *this, x); }
Tensor Tensor::lt(ConstValue x) const { return BroadcastedAlu("lt", Ops::CMPLT, *this, x); }
Tensor Tensor::gt(const Tensor& x) const { return BroadcastedAlu("gt", Ops::CMPLT, *this, x, true); }
Tensor Tensor::gt(ConstValue x) const { return BroadcastedAlu("gt", Ops::CMPLT, *this, x, true); }
Tensor Tensor::ge(const Tensor& x) const { return lt(x).logical_not(); }
Tensor Tensor::ge(ConstValue x) const { return lt(x).logical_not(); }
Tensor Tensor::le(const Tensor& x) const { return gt(x).logical_not(); }
Tensor Tensor::le(ConstValue x) const { return gt(x).logical_not(); }
Tensor Tensor::ne(const Tensor& x) const { return BroadcastedAlu("ne", Ops::CMPNE, *this, x); }
Tensor Tensor::ne(ConstValue x) const { return BroadcastedAlu("ne", Ops::CMPNE, *this, x); }
Tensor Tensor::eq(const Tensor& x) const { return ne(x).logical_not(); }
Tensor Tensor::eq(ConstValue x) const { return ne(x).logical_not(); }

Tensor Tensor::logical_not() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  return BroadcastedAlu("logical_not", Ops::CMPNE, cast(dtypes::bool_), true);
}
Tensor Tensor::logical_and(const Tensor& x) const { return cast(dtypes::bool_) & x.cast(dtypes::bool_); }
Tensor Tensor::logical_or(const Tensor& x) const { return cast(dtypes::bool_) | x.cast(dtypes::bool_); }
Tensor Tensor::logical_xor(const Tensor& x) const { return cast(dtypes::bool_) ^ x.cast(dtypes::bool_); }

Tensor Tensor::neg() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  return dtype() == dtypes::bool_ ? logical_not() : mul(-1);
}
Tensor Tensor::sign() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  return ne(0).where(lt(0).where(full_like(-1), full_like(1)), full_like(0)) + (*this) * 0;
}
Tensor Tensor::abs() const { return *this * sign(); }

static Tensor FloatUnary(const Tensor& t, Ops op) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  return Alu(op, t.cast(dtypes::least_upper_float(t.dtype())));
}
Tensor Tensor::exp2() const { return FloatUnary(*this, Ops::EXP2); }
Tensor Tensor::log2() const { return FloatUnary(*this, Ops::LOG2); }
Tensor Tensor::sqrt() const { return FloatUnary(*this, Ops::SQRT); }
Tensor Tensor::sin() const { return FloatUnary(*this, Ops::SIN); }
Tensor Tensor::reciprocal() const { return FloatUnary(*this, Ops::RECIPROCAL); }
Tensor Tensor::rsqrt() const { return sqrt().reciprocal(); }
Tensor Tensor::log() const { return log2() * std::numbers::ln2; }
Tensor Tensor::exp() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (dtypes::is_float(dtype()))
    return cast(dtypes::least_upper_dtype({dtype(), dtypes::float32}))
        .mul(1 / std::numbers::ln2).exp2().cast(dtype());
  return mul(1 / std::numbers::ln2).exp2();
}
Tensor Tensor::cos() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (dtypes::is_float(dtype()))
    return (std::numbers::pi / 2 - cast(dtypes::least_upper_dtype({dtype(), dtypes::float32})))
        .sin().cast(dtype());
  return (std::numbers::pi / 2 - *this).sin();
}
Tensor Tensor::tan() const { return sin() / cos(); }
Tensor Tensor::square() const { return *this * *this; }
Tensor Tensor::trunc() const { return Alu(Ops::TRUNC, *this); }
Tensor Tensor::floor() const {
  Tensor b = trunc();
  return lt(b).where(b - 1, b);
}
Tensor Tensor::ceil() const {
  Tensor b = trunc();
  return gt(b).where(b + 1, b);
}
Tensor Tensor::round() const {
  Tensor b = trunc() / 2.0;
  return gt(0).eq(b.trunc().eq(b)).where((*this - 0.5).ceil(), (*this + 0.5).floor());
}
Tensor Tensor::clip(std::optional<ConstValue> lo, std::optional<ConstValue> hi) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (!lo && !hi) return Err("clip", "at least one of min and max must be set");
  Tensor r = lo ? lt(*lo).where(*lo, *this) : *this;
  return hi ? r.gt(*hi).where(*hi, r) : r;
}
Tensor Tensor::isnan() const { return ne(*this); }
Tensor Tensor::isinf() const {
  return eq(INFINITY) * true + eq(-INFINITY) * true;
}

Tensor Tensor::relu() const { return gt(0).where(*this, 0); }
Tensor Tensor::leaky_relu(double s) const { return lt(0).where(s * *this, *this); }
Tensor Tensor::sigmoid() const {
  return (1 + (*this * (-1 / std::numbers::ln2)).exp2()).reciprocal();
}
Tensor Tensor::tanh() const { return 2.0 * (2.0 * *this).sigmoid() - 1.0; }
Tensor Tensor::gelu() const {
  return 0.5 * *this *
         (1 + (std::sqrt(2 / std::numbers::pi) * (*this + 0.044715 * pow(3))).tanh());
}
Tensor Tensor::silu() const { return *this * sigmoid(); }
Tensor Tensor::softplus(double beta) const { return (1 / beta) * (*this * beta).logaddexp(0.0); }
Tensor tensor_internal::PolyN(const Tensor& x, std::initializer_list<double> p) {
  std::optional<Tensor> acc;
  for (double c : p) acc = acc ? *acc * x + c : 0.0 * x + c;
  return *acc;
}

Tensor Tensor::logsigmoid() const { return -(-*this).softplus(); }
Tensor Tensor::erf() const {
  Tensor t = 1.0 / (1.0 + 0.3275911 * abs());
  return sign() *
         (1.0 - t * tensor_internal::PolyN(t, {1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592}) *
                    (-square()).exp());
}
Tensor Tensor::logaddexp(const Tensor& x) const {
  Tensor m = maximum(x);
  auto ab = Broadcasted("logaddexp", *this, x);
  if (!ab.ok()) return Error(ab.status());
  return ((*this - m).exp() + (ab->second - m).exp()).log() + m;
}
Tensor Tensor::logaddexp(ConstValue x) const {
  Tensor m = maximum(x);
  auto ab = Broadcasted("logaddexp", *this, x);
  if (!ab.ok()) return Error(ab.status());
  return ((*this - m).exp() + (ab->second - m).exp()).log() + m;
}

// ** operators **
Tensor operator+(const Tensor& a, const Tensor& b) { return a.add(b); }
Tensor operator+(const Tensor& a, ConstValue b) { return a.add(b); }
Tensor operator+(ConstValue a, const Tensor& b) { return b.add(a, true); }
Tensor operator-(const Tensor& a, const Tensor& b) { return a.sub(b); }
Tensor operator-(const Tensor& a, ConstValue b) { return a.sub(b); }
Tensor operator-(ConstValue a, const Tensor& b) { return b.sub(a, true); }
Tensor operator*(const Tensor& a, const Tensor& b) { return a.mul(b); }
Tensor operator*(const Tensor& a, ConstValue b) { return a.mul(b); }
Tensor operator*(ConstValue a, const Tensor& b) { return b.mul(a, true); }
Tensor operator/(const Tensor& a, const Tensor& b) { return a.div(b); }
Tensor operator/(const Tensor& a, ConstValue b) { return a.div(b); }
Tensor operator/(ConstValue a, const Tensor& b) { return b.div(a, true); }
Tensor operator%(const Tensor& a, const Tensor& b) { return a.mod(b); }
Tensor operator%(const Tensor& a, ConstValue b) { return a.mod(b); }
Tensor operator%(ConstValue a, const Tensor& b) { return b.mod(a, true); }
Tensor operator&(const Tensor& a, const Tensor& b) { return a.bitwise_and(b); }
Tensor operator&(const Tensor& a, ConstValue b) { return a.bitwise_and(b); }
Tensor operator|(const Tensor& a, const Tensor& b) { return a.bitwise_or(b); }
Tensor operator|(const Tensor& a, ConstValue b) { return a.bitwise_or(b); }
Tensor operator^(const Tensor& a, const Tensor& b) { return a.bitwise_xor(b); }
Tensor operator^(const Tensor& a, ConstValue b) { return a.bitwise_xor(b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return a.lt(b); }
Tensor operator<(const Tensor& a, ConstValue b) { return a.lt(b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return a.le(b); }
Tensor operator<=(const Tensor& a, ConstValue b) { return a.le(b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return a.gt(b); }
Tensor operator>(const Tensor& a, ConstValue b) { return a.gt(b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return a.ge(b); }
Tensor operator>=(const Tensor& a, ConstValue b) { return a.ge(b); }
Tensor operator-(const Tensor& a) { return a.neg(); }
Tensor operator~(const Tensor& a) { return a.bitwise_not(); }

}  // namespace tg
