// Port of tinygrad/uop/symbolic.py: sym (phase 3, "symbolic 2.0": symbolic + pm_simplify_valid +
// the rules below), with xpow from tinygrad/uop/decompositions.py.
#include <limits>
#include <vector>

#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// A const pattern with no dtype (what a Python number becomes next to a dtype-less UPat).
UPat Num(ConstValue v) { return UPat::Const(std::vector<DType>{}, v); }

// Port of decompositions.py xpow: b ** e = exp2(e * log2(|b|)), with the sign of a negative
// base fixed for integer exponents (NaN otherwise), and 0 ** 0 = 1.
UOp XPow(const UOp& base, const UOp& exponent) {
  UOp ret = (base.lt(ConstValue(0)).where(-base, base).log2() * exponent).exp2();
  UOp non_int = exponent.ne(exponent.cast(dtypes::int32).cast(exponent.dtype()));
  UOp odd =
      (exponent.lt(ConstValue(0)).where(-exponent, exponent).cast(dtypes::int32) % ConstValue(2))
          .cast(dtypes::bool_);
  UOp adj = non_int.where(ret.const_like(std::numeric_limits<double>::quiet_NaN()),
                          odd.where(ret.const_like(-1), ret.const_like(1)));
  return (base.eq(ConstValue(0)) & exponent.eq(ConstValue(0)))
      .where(ret.const_like(1), ret * base.lt(ConstValue(0)).where(adj, ret.const_like(1)));
}

// REDUCE(ADD|MAX, a*b*...): the factors that don't depend on the reduce ranges (and, for MAX,
// are >= 0) move outside the reduce.
UOp ReduceMulChain(const Match& m) {
  const UOp& r = m["r"];
  Ops rop = r.arg().ops();
  if (rop != Ops::ADD && rop != Ops::MAX) return {};
  if (r.dtype() != r.src(0).dtype()) return {};
  std::vector<UOp> inside, outside;
  for (const UOp& f : SplitUOp(r.src(0), Ops::MUL)) {
    std::vector<UOp> parents = f.toposort();
    bool independent = true;
    for (const UOp& rng : r.src().subspan(1)) independent &= !Contains(parents, rng);
    if (independent && (rop != Ops::MAX || PyGe(f.vmin(), 0))) {
      outside.push_back(f);
    } else {
      inside.push_back(f);
    }
  }
  if (outside.empty()) return {};
  std::vector<UOp> srcs{inside.empty() ? r.src(0).const_like(1) : PyProd(inside)};
  srcs.insert(srcs.end(), r.src().begin() + 1, r.src().end());
  return r.replace_src(srcs) * PyProd(outside);
}

// SINK/GROUP: splice in the sources of UNROLL/NOOP/VECTORIZE/SINK sources.
UOp FlattenSink(const Match& m) {
  static constexpr OpSet kRemoveFromSinkLike{Ops::UNROLL, Ops::NOOP, Ops::VECTORIZE, Ops::SINK};
  const UOp& root = m["root"];
  std::vector<UOp> srcs;
  bool any = false;
  for (const UOp& x : root.src()) {
    if (kRemoveFromSinkLike.contains(x.op())) {
      any = true;
      srcs.insert(srcs.end(), x.src().begin(), x.src().end());
    } else {
      srcs.push_back(x);
    }
  }
  return any ? UOp::Make(root.op(), root.dtype(), srcs, root.arg()) : UOp();
}

// store(idx, where(gate, alt, load(idx))) -> store(idx gated by gate, alt)
UOp GateStore(const Match& m) {
  const UOp &index = m["index"], &store = m["store"];
  UOp gated = index.src(0).index(std::vector<UOp>{m["gate"].where(index.src(1), UOp::Invalid())});
  std::vector<UOp> srcs{gated, m["alt"]};
  srcs.insert(srcs.end(), store.src().begin() + 2, store.src().end());
  return UOp::Make(Ops::STORE, dtypes::void_, srcs);
}

// alu(broadcast x, broadcast y) -> broadcast alu(x, y)
UOp BroadcastAlu(const Match& m) {
  if (!m.has("x") || !m.has("y")) return {};  // empty VECTORIZEs
  const UOp& alu = m["alu"];
  UOp lane = UOp::Make(alu.op(), alu.dtype().scalar(), {m["x"], m["y"]});
  return UOp::Make(Ops::VECTORIZE, alu.dtype(), std::vector<UOp>(alu.dtype().count(), lane));
}

// x!=0 -> (bool)x
UOp NeZeroToBool(const Match& m) {
  int n = m["x"].dtype().count();
  return m["x"].cast(n == 1 ? dtypes::bool_ : dtypes::bool_.vec(n));
}

// cast(where(s, a, b)) -> where(s, cast(a), cast(b))
UOp PushCastIntoWhere(const Match& m) {
  DType dt = m["cast"].dtype();
  return m["s"].where(m["a"].cast(dt), m["b"].cast(dt));
}

// load/store of an Invalid index: the load is 0, the store is a NOOP
UOp FoldInvalidAccess(const Match& m) {
  const UOp& x = m["x"];
  return x.op() == Ops::STORE ? UOp::Make(Ops::NOOP) : x.const_like(0);
}

// 1/(x*x*x) -> (1/x)*(1/x)*(1/x)
UOp SplitCubeReciprocal(const Match& m) {
  UOp r = m["x"].reciprocal();
  return r * r * r;
}

// REDUCE(ADD, x*c) -> REDUCE(ADD, x)*c
UOp MoveConstOutOfReduce(const Match& m) {
  const UOp& r = m["r"];
  std::vector<UOp> srcs{m["x"]};
  srcs.insert(srcs.end(), r.src().begin() + 1, r.src().end());
  return r.replace_src(srcs) * ConstArg(m["c"]);
}

}  // namespace

const PatternMatcher& Sym() {
  static const auto* const kRules = [] {
    UPat x = UPat::Var("x"), y = UPat::Var("y");
    UPat index = UPat(Ops::INDEX).named("index");
    UPat d = (Num(1) + x).reciprocal().named("d");
    return new PatternMatcher(
        Symbolic() + PmSimplifyValid() +
        PatternMatcher({
            // reorder ALU/VECTORIZE: alu(broadcast x, broadcast y) -> broadcast alu(x, y)
            Rule(UPat(GroupOp::ALU)
                 .src({UPat(Ops::VECTORIZE).src_repeat(UPat().named("x")),
                       UPat(Ops::VECTORIZE).src_repeat(UPat().named("y"))})
                 .named("alu"),
             BroadcastAlu),
            // ** self folding **
            // x!=0 -> (bool)x
            Rule(x.ne(x.const_like(0)), NeZeroToBool),
            // ** where **
            // cast(where(s, a, b)) -> where(s, cast(a), cast(b))
            Rule(UPat::Var("s").where(UPat::Var("a"), UPat::Var("b")).cast().named("cast"),
             PushCastIntoWhere),
            // ** pow **
            Rule(UPat(Ops::POW).named("p"),
             [](const Match& m) { return XPow(m["p"].src(0), m["p"].src(1)); }),
            // ** load/store folding **
            // store(idx, load(idx)) -> NOOP
            Rule(index.store({index.load()}), [](const Match&) { return UOp::Make(Ops::NOOP); }),
            // store(idx, where(gate, alt, load(idx))) -> store(idx.valid(gate), alt)
            Rule(index.store({UPat::Var("gate").where(UPat::Var("alt"), index.load())})
                 .allow_any_len()
                 .named("store"),
             GateStore),
            // fold gated LOAD/STORE: an Invalid index loads 0 and stores nothing
            Rule(UPat(OpSet{Ops::LOAD, Ops::STORE})
                 .src({UPat().index(UPat::Const(dtypes::index, ConstValue::Invalid())).or_casted()})
                 .allow_any_len()
                 .named("x"),
             FoldInvalidAccess),
            // 1/(x*x) -> (1/x)*(1/x)
            Rule((x * x).reciprocal(),
             [](const Match& m) { return m["x"].reciprocal() * m["x"].reciprocal(); }),
            // 1/(x*x*x) -> (1/x)*(1/x)*(1/x)
            Rule((x * x * x).reciprocal(), SplitCubeReciprocal),
            // 1/(x*c) -> (1/x)*(1/c)
            Rule((x * UPat::CVar("c")).reciprocal(),
             [](const Match& m) { return m["x"].reciprocal() * m["c"].reciprocal(); }),
            // x*(1/(1+x)) -> 1-1/(1+x)
            Rule(x * d, [](const Match& m) { return ConstValue(1) - m["d"]; }),
            // x*((1/(1+x))*y) -> y*(1-1/(1+x))
            Rule(x * (d * y), [](const Match& m) { return m["y"] * (ConstValue(1) - m["d"]); }),
            // x*(1/(1+x)+y) -> (1-1/(1+x)) + x*y
            Rule(x * (d + y),
             [](const Match& m) { return (ConstValue(1) - m["d"]) + m["x"] * m["y"]; }),
            // REDUCE(ADD, x*c) -> REDUCE(ADD, x)*c (the mul chain does this only for same-dtype
            // reduces)
            Rule(UPat(Ops::REDUCE)
                 .arg(Ops::ADD)
                 .src({x * UPat::CVar("c", {}, false)})
                 .allow_any_len()
                 .named("r"),
             MoveConstOutOfReduce),
            // reduce mul chain: move muls that don't depend on the reduce after it
            Rule(UPat(Ops::REDUCE).src({UPat(Ops::MUL)}).allow_any_len().named("r"), ReduceMulChain),
            // ** clean up GROUP/SINK **
            // GROUP(x) -> x
            Rule(UPat(Ops::GROUP).src({UPat::Var("x")}), [](const Match& m) { return m["x"]; }),
            // SINK/GROUP of UNROLL/NOOP/VECTORIZE/SINK -> their sources spliced in
            Rule(UPat(OpSet{Ops::SINK, Ops::GROUP}).named("root"), FlattenSink),
            // remove END with empty NOOP: END(NOOP(), ...) -> NOOP()
            Rule(UPat(Ops::END).src({UPat(Ops::NOOP).src({}).named("noop")}).allow_any_len(),
             [](const Match& m) { return m["noop"]; }),
            // ** combine terms (opinionated) **
            // -(x+y) -> -x + -y
            Rule(Num(-1) * (x + y), [](const Match& m) { return -m["x"] + -m["y"]; }),
            // (x+y)*c -> x*c+y*c. only for int, float has inf*0=nan issue
            Rule((UPat::Var("x", {dtypes::index}) + y) * UPat::CVar("c"),
             [](const Match& m) { return m["x"] * m["c"] + m["y"] * m["c"]; }),
        }));
  }();
  return *kRules;
}

}  // namespace tg
