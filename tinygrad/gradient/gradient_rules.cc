// File: tinygrad/gradient/gradient_rules.cc
// The gradient rules: tinygrad/gradient.py's pm_gradient and reduce_gradient. Each rule maps a
// node and its output gradient (ctx) to the gradients of its sources, built with the same UOp
// sugar tinygrad uses (so `a - b` is a + b*-1 and `a / b` is a * RECIPROCAL(b)), which keeps
// backward graphs, and thus kernels, equal to the reference's.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/gradient/gradient.h"
#include "tinygrad/uop/custom_kernel.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/shape.h"

namespace tg {
namespace {

// ** tensor-graph sugar: tinygrad's const_like / ufix give consts a device and a shape **

// tinygrad's UOp.const_like on a tensor-graph node: CONST(DEVICE) reshaped and expanded.
UOp ConstLike(const UOp& like, ConstValue v) {
  std::vector<UOp> src;
  if (!like.device().is_none()) src.push_back(UOp::Make(Ops::DEVICE, dtypes::void_, {}, like.device()));
  UOp c = UOp::Make(Ops::CONST, like.dtype(), src, dtypes::as_const(v, like.dtype()));
  const Shape* s = like.shape();
  return s ? c.reshape(Shape(s->size(), SInt(1))).expand(*s) : c;
}
UOp Mul(const UOp& a, ConstValue c) { return a * ConstLike(a, c); }
UOp Neg(const UOp& a) { return Mul(a, -1); }
UOp Div(const UOp& a, const UOp& b) { return a * b.reciprocal(); }
UOp Not(const UOp& a) { return a.ne(ConstLike(a, true)); }
UOp Eq(const UOp& a, const UOp& b) { return Not(a.ne(b)); }
UOp EqConst(const UOp& a, ConstValue c) { return Eq(a, ConstLike(a, c)); }
// cond.where(t, c): the const takes t's dtype and shape (ufix).
UOp WhereConst(const UOp& cond, const UOp& t, ConstValue c) { return cond.where(t, ConstLike(t, c)); }
UOp WhereConstFirst(const UOp& cond, ConstValue c, const UOp& f) { return cond.where(ConstLike(f, c), f); }

const UOp& Grad(const Match& m) { return m.ctx<GradCtx>().grad; }

// ** reductions **

// reduce_gradient: ctx has ret's shape (REDUCE_AXIS keeps the rank).
UOp ReduceGradient(const Match& m) {
  const UOp& ret = m["ret"];
  const UOp& ctx = Grad(m);
  const UOp& x = ret.src(0);
  const Shape& in_shape = *x.shape();
  auto broadcast_to_input = [&](const UOp& u) {
    Shape s = *u.shape();
    s.resize(in_shape.size(), SInt(1));
    return u.reshape(s).expand(in_shape);
  };
  std::vector<int64_t> axes;
  for (const Arg& a : ret.arg()[1].tuple()) axes.push_back(a.int64());
  switch (ret.arg()[0].ops()) {
    case Ops::ADD:
      return GradientTuple({broadcast_to_input(ctx)});
    case Ops::MAX: {  // split between the tied maxima
      UOp mask = Eq(x, broadcast_to_input(ret)).cast(ctx.dtype());
      UOp count = mask.r(Ops::ADD, axes);
      return GradientTuple({Div(mask, broadcast_to_input(count)) * broadcast_to_input(ctx)});
    }
    case Ops::MUL:
      return GradientTuple({Div(broadcast_to_input(ctx * ret), x)});
    default:
      return {};  // no rule: compute_gradient reports it
  }
}

// ** elementwise **

// d(b^e): db = e*b^(e-1) (e where b == e == 0), de = ret*ln(b) (-inf or 0 at b == 0).
UOp PowGradient(const Match& m) {
  const UOp &ret = m["ret"], &b = m["b"], &e = m["e"], &ctx = Grad(m);
  UOp db = (EqConst(b, 0) & EqConst(e, 0)).where(e, e * b.pow(e + ConstLike(e, -1)));
  UOp at_zero = WhereConst(e.lt(ConstLike(e, 0)), ConstLike(ret, -INFINITY), 0);
  UOp de = EqConst(b, 0).where(at_zero, Mul(ret * b.log2(), std::numbers::ln2));
  return GradientTuple({ctx * db, ctx * de});
}

// d(max(x, y)): to the larger one, half to each on a tie.
UOp MaxGradient(const Match& m) {
  const UOp &x = m["x"], &y = m["y"], &ctx = Grad(m);
  UOp tie = WhereConst(Eq(x, y), Mul(ctx, 0.5), 0);
  return GradientTuple({y.lt(x).where(ctx, tie), x.lt(y).where(ctx, tie)});
}

// ** movement **

UOp ExpandGradient(const Match& m) {
  const UOp& ret = m["ret"];
  const Shape &in = *ret.src(0).shape(), &out = *ret.shape();
  std::vector<int64_t> axes;
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i] != out[i]) axes.push_back(static_cast<int64_t>(i));
  return GradientTuple({Grad(m).r(Ops::ADD, axes), NoGradient()});
}

UOp PadGradient(const Match& m) {  // shrink the padding away
  const UOp& ret = m["ret"];
  const Shape& in = *ret.src(0).shape();
  PadArg pads = ret.marg_pairs(), sh;
  for (size_t i = 0; i < in.size(); ++i) sh.emplace_back(pads[i].first, in[i] + pads[i].first);
  return GradientTuple({Grad(m).shrink(sh), NoGradient(), NoGradient()});
}

UOp ShrinkGradient(const Match& m) {  // pad back to the input's shape with zeros
  const UOp& ret = m["ret"];
  const Shape& in = *ret.src(0).shape();
  PadArg bounds = ret.marg_pairs(), pads;
  for (size_t i = 0; i < in.size(); ++i) pads.emplace_back(bounds[i].first, in[i] - bounds[i].second);
  return GradientTuple({Grad(m).pad(pads), NoGradient(), NoGradient()});
}

UOp PermuteGradient(const Match& m) {  // the inverse permutation (argsort)
  std::span<const Arg> order = m["ret"].arg().tuple();
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i].int64()] = static_cast<int64_t>(i);
  return GradientTuple({Grad(m).permute(inverse)});
}

UOp FlipGradient(const Match& m) {  // flipping again undoes it
  std::vector<bool> axes;
  for (const Arg& a : m["ret"].arg().tuple()) axes.push_back(a.int64() != 0);
  return GradientTuple({Grad(m).flip(axes)});
}

UOp CopyGradient(const Match& m) {  // back to the source's device
  const UOp& ctx = Grad(m);
  UOp dev = UOp::Make(Ops::DEVICE, dtypes::void_, {}, m["ret"].src(0).device());
  return GradientTuple({UOp::Make(Ops::COPY, ctx.dtype(), {ctx, dev}), NoGradient()});
}

}  // namespace

UOp NoGradient() { return UOp::Make(Ops::NOOP); }

UOp GradientTuple(std::initializer_list<UOp> grads) {
  return UOp::Sink(std::span<const UOp>(grads.begin(), grads.size()));
}

UOp GradientTuple(std::span<const UOp> grads) {
  std::vector<UOp> src(grads.begin(), grads.end());
  for (UOp& g : src)
    if (!g) g = NoGradient();
  return UOp::Sink(src);
}

// TODO(parity): REDUCE (range reductions) has a rule in tinygrad; tensor graphs of this port
// never contain it.
const PatternMatcher& GradientRules() {
  static const auto* const kRules = new PatternMatcher({
      // d(cast(x)) -> cast(ctx) back to x's dtype
      Rule(UPat(Ops::CAST).named("ret"),
           [](const Match& m) { return GradientTuple({Grad(m).cast(m["ret"].src(0).dtype())}); }),
      // d(1/x) -> -ctx * ret * ret
      Rule(UPat(Ops::RECIPROCAL).named("ret"),
           [](const Match& m) { return GradientTuple({Neg(Grad(m)) * m["ret"] * m["ret"]}); }),
      // d(sin x) -> sin(pi/2 - x) * ctx
      Rule(UPat(Ops::SIN).named("ret"),
           [](const Match& m) {
             const UOp& x = m["ret"].src(0);
             return GradientTuple({(ConstLike(x, std::numbers::pi / 2) + Neg(x)).sin() * Grad(m)});
           }),
      // d(log2 x) -> ctx / (x * ln 2)
      Rule(UPat(Ops::LOG2).named("ret"),
           [](const Match& m) {
             return GradientTuple({Div(Grad(m), Mul(m["ret"].src(0), std::numbers::ln2))});
           }),
      // d(exp2 x) -> ret * ctx * ln 2
      Rule(UPat(Ops::EXP2).named("ret"),
           [](const Match& m) {
             return GradientTuple({Mul(m["ret"] * Grad(m), std::numbers::ln2)});
           }),
      // d(sqrt x) -> ctx / (ret * 2)
      Rule(UPat(Ops::SQRT).named("ret"),
           [](const Match& m) { return GradientTuple({Div(Grad(m), Mul(m["ret"], 2))}); }),
      // comparisons are flat: no gradient
      Rule(UPat(OpSet{Ops::CMPLT, Ops::CMPNE}),
           [](const Match&) {
             return GradientTuple({NoGradient(), NoGradient()});
           }),
      // d(x + y) -> ctx, ctx
      Rule(UPat(Ops::ADD),
           [](const Match& m) {
             return GradientTuple({Grad(m), Grad(m)});
           }),
      Rule(UPat(Ops::POW).named("ret").src({UPat::Var("b"), UPat::Var("e")}), PowGradient),
      Rule(UPat(Ops::MAX).src({UPat::Var("x"), UPat::Var("y")}), MaxGradient),
      // d(x * y) -> y * ctx, x * ctx
      Rule(UPat(Ops::MUL).named("ret"),
           [](const Match& m) {
             const UOp& ret = m["ret"];
             return GradientTuple({ret.src(1) * Grad(m), ret.src(0) * Grad(m)});
           }),
      // d(c ? x : y) -> none, c ? ctx : 0, c ? 0 : ctx
      Rule(UPat(Ops::WHERE).named("ret"),
           [](const Match& m) {
             const UOp& c = m["ret"].src(0);
             return GradientTuple(
                 {NoGradient(), WhereConst(c, Grad(m), 0), WhereConstFirst(c, 0, Grad(m))});
           }),
      Rule(UPat(Ops::REDUCE_AXIS).named("ret"), ReduceGradient),
      Rule(UPat(Ops::CONTIGUOUS), [](const Match& m) { return GradientTuple({Grad(m)}); }),
      Rule(UPat(Ops::CONTIGUOUS_BACKWARD),
           [](const Match& m) { return GradientTuple({Grad(m).contiguous()}); }),
      // d(reshape x) -> ctx reshaped back
      Rule(UPat(Ops::RESHAPE).named("ret"),
           [](const Match& m) {
             return GradientTuple({Grad(m).reshape(*m["ret"].src(0).shape()), NoGradient()});
           }),
      Rule(UPat(Ops::EXPAND).named("ret"), ExpandGradient),  // sum over the expanded axes
      Rule(UPat(Ops::PAD).named("ret"), PadGradient),
      Rule(UPat(Ops::SHRINK).named("ret"), ShrinkGradient),
      Rule(UPat(Ops::PERMUTE).named("ret"), PermuteGradient),
      Rule(UPat(Ops::FLIP).named("ret"), FlipGradient),
      Rule(UPat(Ops::COPY).named("ret"), CopyGradient),
      // d(MULTI) -> this device's part of ctx, split as the MULTI is (ctx.shard(...).src)
      Rule(UPat(Ops::MULTI).named("ret"),
           [](const Match& m) {
             const UOp& ret = m["ret"];
             absl::StatusOr<UOp> part =
                 ShardSlice(CopyToDevice(Grad(m), ret.device()), ret.arg().int64());
             TG_CHECK(part.ok()) << part.status();  // the MULTI's own split divides evenly
             return GradientTuple({*part});
           }),
      // NOTE (tinygrad): only correct when the kernel has a single output
      Rule(UPat(Ops::AFTER),
           [](const Match& m) {
             return GradientTuple({Grad(m), Grad(m)});
           }),
      // a custom kernel: what its grad function says (without one, no rule: an error)
      Rule(UPat(Ops::CUSTOM_KERNEL).named("k"),
           [](const Match& m) {
             const CustomKernel* ck = m["k"].arg().opaque_as<CustomKernel>();
             if (!ck || !ck->grad_fxn()) return UOp();
             std::vector<UOp> grads = ck->grad_fxn()(Grad(m), m["k"]);
             return GradientTuple(grads);
           }),
      // bitcast has no gradient
      Rule(UPat(Ops::BITCAST), [](const Match&) { return GradientTuple({NoGradient()}); }),
  });
  return *kRules;
}

}  // namespace tg
