// Port of tinygrad/uop/symbolic.py: symbolic (phase 2: rules that match deeper, on top of
// symbolic_simple and commutative, with div_and_mod_symbolic and gep_pushing), and the passes
// built on it (ops.py UOp.simplify, resolve).
#include "tinygrad/uop/symbolic/symbolic.h"

#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// `a / b` as tinygrad builds it: a * (1/b).
UPat Div(const UPat& a, const UPat& b) { return a * b.reciprocal(); }
// A const pattern with no dtype (what a Python number becomes next to a dtype-less UPat).
UPat Num(ConstValue v) { return UPat::Const(std::vector<DType>{}, v); }

// x < c for int x: split x into terms; terms with const factor 1 must stay in [0, d) where d
// is the gcd of the other factors and c; then x//d < c//d.
UOp LtFolding(const UOp& x, const ConstValue& c) {
  std::vector<UOp> p, np;
  for (const UOp& u : SplitUOp(x, Ops::ADD)) (ConstFactor(u) == 1 ? p : np).push_back(u);
  if (np.empty()) return {};
  i128 d = c.to_int();
  for (const UOp& u : np) d = Gcd(ConstFactor(u), d);
  if (d <= 1) return {};
  ConstValue lo(0), hi(0);
  for (const UOp& u : p) {
    lo = lo + u.vmin();
    hi = hi + u.vmax();
  }
  if (!(PyLe(0, lo) && PyLt(hi, ConstValue(d)))) return {};
  UOp divided = Divides(UOpSum(np), d);
  if (!divided) return {};  // tinygrad asserts (unwrap)
  return divided.lt(FloorDiv(c, ConstValue(d)));
}

// (X := a0*x0 + a1*x1 + ...) > 0 is x0 + x1 + ... > 0 when every xi >= 0 is irreducible and
// every ai > 0 (ints). Returns x0 + x1 + ..., or null.
UOp CanonicalizeSimplex(const UOp& big_x) {
  bool changed = false;
  std::vector<UOp> ret;
  for (UOp u : SplitUOp(big_x, Ops::ADD)) {
    // assumed the const is the last src of MUL
    if (u.op() == Ops::MUL && u.src(1).op() == Ops::CONST && PyGt(ConstArg(u.src(1)), 0)) {
      changed = true;
      u = u.src(0);
    }
    if (!(GroupOp::Irreducible.contains(u.op()) && PyGe(u.vmin(), 0))) return {};
    ret.push_back(u);
  }
  return changed ? UOpSum(ret) : UOp();
}

// vmin == vmax -> the const (an int range saturated at our 128-bit bound is not a value).
UOp FoldConstRange(const Match& m) {
  const UOp& x = m["x"];
  if (!PyEq(x.vmin(), x.vmax()) || IsSaturated(x.vmin())) return {};
  return x.const_like(x.vmin());
}

// alu(where(c, t, f), where(c, tt, ff)) -> where(c, alu(t, tt), alu(f, ff)) when both true or
// both false branches are consts.
bool BranchesFold(const Match& m) {
  return (m["t"].op() == Ops::CONST && m["tt"].op() == Ops::CONST) ||
         (m["f"].op() == Ops::CONST && m["ff"].op() == Ops::CONST);
}

// c0*x < c1 -> x < ceil(c1/c0) for positive c0, c1.
UOp FoldPositiveScaledLt(const Match& m) {
  const ConstValue &c0 = ConstArg(m["c0"]), &c1 = ConstArg(m["c1"]);
  if (!(PyGt(c0, 0) && PyGt(c1, 0))) return {};
  return m["x"].lt(-FloorDiv(-c1, c0));
}

// c0*x < c1 -> -x < -floor(c1/c0) for c0 < 0 (not -1) and c1 <= 0.
UOp FoldNegativeScaledLt(const Match& m) {
  const ConstValue &c0 = ConstArg(m["c0"]), &c1 = ConstArg(m["c1"]);
  if (!(PyLt(c0, 0) && !PyEq(c0, -1) && PyLe(c1, 0))) return {};
  return (-m["x"]).lt(-FloorDiv(-c1, -c0));
}

// x//d < c -> x < c*d (c > 0) or x < c*d - (d-1) (c <= 0), for d > 0.
UOp FoldDivLt(const Match& m) {
  const ConstValue &d = ConstArg(m["d"]), &c = ConstArg(m["c"]);
  if (!PyGt(d, 0)) return {};
  return PyGt(c, 0) ? m["x"].lt(c * d) : m["x"].lt(c * d - (d - 1));
}

// int64 math whose operands and result fit int32 -> int32 math cast back.
UOp NarrowLongMath(const Match& m) {
  const UOp &u = m["u"], &x = m["x"], &y = m["y"];
  if (Overflows(u, dtypes::int32) || Overflows(x, dtypes::int32) || Overflows(y, dtypes::int32))
    return {};
  return x.cast(dtypes::int32).alu(u.op(), {y.cast(dtypes::int32)}).cast(u.dtype());
}

// AFTER keeps only deps with side effects: others are replaced by their sources.
UOp CleanAfterDeps(const Match& m) {
  const UOp& x = m["x"];
  static constexpr OpSet kSideEffects{Ops::RANGE,   Ops::STORE, Ops::KERNEL,
                                      Ops::BARRIER, Ops::END,   Ops::UNROLL};
  std::vector<UOp> srcs{x.src(0)};
  for (const UOp& y : x.src().subspan(1)) {
    if (kSideEffects.contains(y.op())) {
      srcs.push_back(y);
    } else {
      srcs.insert(srcs.end(), y.src().begin(), y.src().end());
    }
  }
  return x.replace_src(srcs);
}

// VECTORIZE of CONSTs -> VCONST
UOp VectorizeConsts(const Match& m) {
  const UOp& vec = m["vec"];
  if (vec.src().empty()) return {};
  std::vector<ConstValue> lanes;
  for (const UOp& s : vec.src()) lanes.push_back(ConstArg(s));
  return UOp::VConst(vec.dtype(), lanes);
}

// where(!cond, t, f) -> where(cond, f, t), unless f is Invalid
UOp SwapNegatedWhere(const Match& m) {
  const UOp& f = m["f"];
  if (f.arg().is_number() && f.arg().number().is_invalid()) return {};
  return m["cond"].where(f, m["t"]);
}

// alu(where(c, t, f), where(c, tt, ff)) -> where(c, alu(t, tt), alu(f, ff))
UOp CombineWheres(const Match& m) {
  if (!BranchesFold(m)) return {};
  Ops op = m["alu"].op();
  return m["c"].where(m["t"].alu(op, {m["tt"]}), m["f"].alu(op, {m["ff"]}));
}

// (y + where(c, t, f)) + where(c, tt, ff) -> y + where(c, t+tt, f+ff)
UOp CombineAddedWheres(const Match& m) {
  if (!BranchesFold(m)) return {};
  return m["y"] + m["c"].where(m["t"] + m["tt"], m["f"] + m["ff"]);
}

// max(x, y) -> x when x >= y everywhere, y when x <= y everywhere
UOp FoldMax(const Match& m) {
  const UOp &x = m["x"], &y = m["y"];
  if (PyGe(x.vmin(), y.vmax())) return x;
  return PyLe(x.vmax(), y.vmin()) ? y : UOp();
}

// (x op c1) op c2 -> x op (c1 op c2)
UOp FoldTwoStage(const Match& m) {
  Ops op = m["f"].op();
  return m["x"].alu(op, {m["c1"].alu(op, {m["c2"]})});
}

// x < c -> x//d < c//d (LtFolding)
UOp FoldLt(const Match& m) {
  const ConstValue& c = ConstArg(m["c"]);
  return PyLt(0, c) ? LtFolding(m["x"], c) : UOp();
}

// !(X < 1) -> !(x0+x1+... < 1) for a simplex X
UOp FoldSimplex(const Match& m) {
  UOp newx = CanonicalizeSimplex(m["x"]);
  return newx ? newx.lt(ConstValue(1)).logical_not() : UOp();
}

// x.cast(a).cast(b) -> x.cast(b) if the intermediate cast doesn't narrow
UOp MergeLosslessCasts(const Match& m) {
  if (!dtypes::can_lossless_cast(m["x"].dtype(), m["a"].dtype())) return {};
  return m["x"].cast(m["b"].dtype());
}

// x.cast(a).cast(b) -> x.cast(b) for ints when x's range fits a
UOp MergeFittingIntCasts(const Match& m) {
  const UOp &x = m["x"], &a = m["a"];
  bool fits = PyLe(dtypes::min(a.dtype()), x.vmin()) && PyLe(x.vmax(), dtypes::max(a.dtype()));
  return fits ? x.cast(m["b"].dtype()) : UOp();
}

// (x+c).cast(sint) -> x.cast(sint) + c.cast(sint)
UOp DistributeCast(const Match& m) {
  DType d = m["cast"].dtype();
  return m["x"].cast(d) + m["c"].cast(d);
}

}  // namespace

const PatternMatcher& Symbolic() {
  static const auto* const kRules = [] {
    UPat x = UPat::Var("x"), y = UPat::Var("y");
    UPat x_idx = UPat::Var("x", {dtypes::index}), x_bool = UPat::Var("x", {dtypes::bool_});
    UPat c = UPat::CVar("c"), c0 = UPat::CVar("c0"), c1 = UPat::CVar("c1"), c2 = UPat::CVar("c2");
    UPat c0s = UPat::CVar("c0", {}, false), c1s = UPat::CVar("c1", {}, false);
    UPat cs = UPat::CVar("c", {}, false), ds = UPat::CVar("d", {}, false);
    UPat cond = UPat::Var("c");
    UPat where_tf = cond.where(UPat::Var("t"), UPat::Var("f"));
    UPat where_ttff = cond.where(UPat::Var("tt"), UPat::Var("ff"));
    std::vector<Rule> rules = {
        // ** boolean algebra **
        // x|!x -> True
        Rule(x_bool | x.logical_not(), [](const Match& m) { return m["x"].const_like(true); }),
        // ** combine terms **
        // (x*c0)+(x*c1) -> x*(c0+c1)
        Rule(x * c0 + x * c1, [](const Match& m) { return m["x"] * (m["c0"] + m["c1"]); }),
        // (y+x*c0)+x*c1 -> y+x*(c0+c1)
        Rule((y + x * c0) + x * c1,
         [](const Match& m) { return m["y"] + m["x"] * (m["c0"] + m["c1"]); }),
        // x+x*c -> x*(c+1)
        Rule(x + x * c, [](const Match& m) { return m["x"] * (m["c"] + ConstValue(1)); }),
        // (y+x)+x*c -> y+x*(c+1)
        Rule((y + x) + x * c,
         [](const Match& m) { return m["y"] + m["x"] * (m["c"] + ConstValue(1)); }),
        // (y+x*c)+x -> y+x*(c+1)
        Rule((y + x * c) + x,
         [](const Match& m) { return m["y"] + m["x"] * (m["c"] + ConstValue(1)); }),
        // x+x -> x*2
        Rule(x + x, [](const Match& m) { return m["x"] * ConstValue(2); }),
        // (y+x)+x -> y+x*2
        Rule((y + x) + x, [](const Match& m) { return m["y"] + m["x"] * ConstValue(2); }),
        // (x/x2)/x3 -> x/(x2*x3)
        Rule(Div(Div(x, UPat::Var("x2")), UPat::Var("x3")),
         [](const Match& m) { return m["x2"] != m["x3"] ? m["x"] / (m["x2"] * m["x3"]) : UOp(); }),
        // -(x+c) -> -x + -c
        Rule(Num(-1) * (x + c), [](const Match& m) { return -m["x"] + -m["c"]; }),
        // y*(x+c) -> y*x + y*c (index x)
        Rule(UPat::CVar("y") * (x_idx + c),
         [](const Match& m) { return m["y"] * m["x"] + m["y"] * m["c"]; }),
        // ** where folding **
        // where(!cond, t, f) -> where(cond, f, t), unless f is Invalid
        Rule(UPat::Var("cond", {dtypes::bool_}).logical_not().where(UPat::Var("t"), UPat::Var("f")),
         SwapNegatedWhere),
        // alu(where(c, t, f), where(c, tt, ff)) -> where(c, alu(t, tt), alu(f, ff))
        Rule(UPat(GroupOp::Binary).named("alu").src({where_tf, where_ttff}), CombineWheres),
        // (y + where(c, t, f)) + where(c, tt, ff) -> y + where(c, t+tt, f+ff)
        Rule((y + where_tf) + where_ttff, CombineAddedWheres),
        // ALU/variable with vmin == vmax -> CONST (slow!)
        Rule(UPat(GroupOp::ALU | OpSet{Ops::DEFINE_VAR, Ops::SPECIAL}).named("x"), FoldConstRange),
        Rule(UPat(Ops::RANGE).src({UPat(Ops::CONST)}).named("x"), FoldConstRange),
        // max(x, y) -> x when x >= y everywhere, y when x <= y everywhere
        Rule(x.maximum(y), FoldMax),
    };
    // ** two stage ALU folding **: (x op c1) op c2 -> x op (c1 op c2)
    GroupOp::Associative.ForEach([&](Ops op) {
      rules.push_back(Rule(x.alu(op, {c1}).alu(op, {c2}).named("f"), FoldTwoStage));
    });
    std::vector<Rule> more = {
        // c0 + x < c1 -> x < c1 - c0
        Rule((c0 + x).lt(c1), [](const Match& m) { return m["x"].lt(m["c1"] - m["c0"]); }),
        // (x//c1)//c2 -> x//(c1*c2)
        Rule(x.idiv(c1).idiv(c2), [](const Match& m) { return m["x"].idiv(m["c1"] * m["c2"]); }),
        // ** lt **
        // c0*x < c1 -> x < ceil(c1/c0) for positive int c0, c1
        Rule((c0s * x_idx).lt(c1s), FoldPositiveScaledLt),
        // c0*x < c1 -> -x < -floor(-c1/-c0) for negative int c0 and non-positive c1
        Rule((c0s * x_idx).lt(c1s), FoldNegativeScaledLt),
        // x//d < c -> x < c*d (or c*d-(d-1) for c <= 0)
        Rule(x_idx.idiv(ds).lt(cs), FoldDivLt),
        // ** move add/mul consts to end (NOTE: this is still happening before constant folding) **
        // (x+c1)+y -> (x+y)+c1
        Rule((x + c1) + y, [](const Match& m) { return (m["x"] + m["y"]) + m["c1"]; }),
        // (x*c1)*y -> (x*y)*c1
        Rule((x * c1) * y, [](const Match& m) { return (m["x"] * m["y"]) * m["c1"]; }),
        // *** rules from symbolic ***
        // generic lt folding: x < c -> x//d < c//d
        Rule(x_idx.lt(cs), FoldLt),
        // -x < -y -> y < x
        Rule((x_idx * ConstValue(-1)).lt(y * ConstValue(-1)),
         [](const Match& m) { return m["y"].lt(m["x"]); }),
        // !(X < 1) -> !(x0+x1+... < 1) for a simplex X = a0*x0 + a1*x1 + ... (ai > 0, xi >= 0)
        Rule(x_idx.lt(x_idx.const_like(1)).logical_not(), FoldSimplex),
        // a range mod its own upper bound is just the range: r % end -> r
        Rule(UPat(Ops::RANGE).src_repeat(UPat::Var("end")).named("r") % UPat::Var("end"),
         [](const Match& m) { return m["r"]; }),
        // r // end -> 0
        Rule(UPat(Ops::RANGE).src_repeat(UPat::Var("end")).named("r").idiv(UPat::Var("end")),
         [](const Match& m) { return m["r"].const_like(0); }),
        // ** cast/long folding **
        // x.cast(a).cast(b) -> x.cast(b) if the intermediate cast doesn't narrow
        Rule(x.cast().named("a").cast().named("b"), MergeLosslessCasts),
        // x.cast(a).cast(b) -> x.cast(b) for ints when x's range fits a
        Rule(UPat::Var("x", IntsIndexDtypes()).cast(IntsIndexDtypes()).named("a").cast().named("b"),
         MergeFittingIntCasts),
        // try to do math in int instead of long
        Rule(UPat(GroupOp::Binary)
             .src({UPat::Var("x", {dtypes::int64}), UPat::Var("y", {dtypes::int64})})
             .named("u"),
         NarrowLongMath),
        // (x+c).cast(sint) -> x.cast(sint) + c.cast(sint)
        Rule((x_idx + c).cast(SintsDtypes()).named("cast"), DistributeCast),
        // only RANGE/IF/STORE/KERNEL have side effects: AFTER(x, deps) keeps those
        Rule(UPat(Ops::AFTER).named("x"), CleanAfterDeps),
        // after with 1 src is just src[0]
        Rule(UPat(Ops::AFTER).src({UPat::Var("s")}), [](const Match& m) { return m["s"]; }),
        // VECTORIZE of CONSTs -> VCONST
        Rule(UPat(Ops::VECTORIZE).src_repeat(UPat(Ops::CONST)).named("vec"), VectorizeConsts),
    };
    rules.insert(rules.end(), more.begin(), more.end());
    return new PatternMatcher(SymbolicSimple() + Commutative() + PatternMatcher(std::move(rules)) +
                              DivAndModSymbolic() + GepPushing());
  }();
  return *kRules;
}

UOp Simplify(const UOp& u) {
  if (u.op() == Ops::CONST || u.op() == Ops::VCONST) return u;
  RewriteOptions opts;
  opts.name = "simplify";
  opts.track = false;  // UOp.simplify(tracked=False): out of TRACK_MATCH_STATS
  return GraphRewrite(u, Symbolic(), opts);
}

bool Resolve(const UOp& x, bool dflt) {
  TG_CHECK(x.dtype() == dtypes::bool_) << "UOp in resolve must be bool, got " << x.dtype();
  UOp sx = Simplify(x);
  return PyEq(sx.vmin(), sx.vmax()) ? sx.vmin().to_bool() : dflt;
}

}  // namespace tg
