// File: tinygrad/codegen/lower/decompositions.cc
// Port of tinygrad/uop/decompositions.py: get_late_rewrite_patterns.
#include "tinygrad/codegen/lower/decompositions.h"

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "tinygrad/codegen/lower/transcendental.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

const std::vector<DType> kTranscendentalDtypes = {dtypes::float16, dtypes::float32, dtypes::float64};
// dtypes.floats that are not TRANSCENDENTAL_DTYPES: computed through float32
const std::vector<DType> kOtherFloats = {dtypes::fp8e4m3, dtypes::fp8e5m2, dtypes::bfloat16};
const std::vector<DType> kFloats = {dtypes::fp8e4m3, dtypes::fp8e5m2, dtypes::float16,
                                    dtypes::bfloat16, dtypes::float32, dtypes::float64};
const std::vector<DType> kUints = {dtypes::uint8, dtypes::uint16, dtypes::uint32, dtypes::uint64};

// c.arg when it is 2**k for 0 <= k < 64 (tinygrad's powers_of_two), else -1.
int PowerOfTwo(const UOp& c) {
  if (c.op() != Ops::CONST || !c.arg().number().is_int()) return -1;
  i128 v = c.arg().number().to_int();
  for (int k = 0; k < 64; ++k)
    if (v == (i128{1} << k)) return k;
  return -1;
}

// op(d) for a float dtype without a software version: through float32
UOp ViaFloat32(const Match& m) {
  const UOp& x = m["x"];
  return m["d"].cast(dtypes::float32).alu(x.op()).cast(x.dtype());
}

// x // 2**v for signed x: (x + (x<0).where(c-1, 0)) >> v
UOp SignedShiftDiv(const Match& m) {
  const UOp &x = m["x"], &c = m["c"];
  int v = PowerOfTwo(c);
  if (v <= 0) return {};
  UOp l = x.lt(ConstValue(0));
  if (l.vmin() == l.vmax()) l = l.const_like(l.vmin());
  return (x + l.where(c - ConstValue(1), ConstValue(0))) >> ConstValue(v);
}

PatternMatcher BuildLateRewritePatterns(OpSet ops, bool force_transcendental, bool disable_fast_idiv) {
  std::vector<Rule> pat;
  const UPat d = UPat::Var("d");
  // software EXP2/LOG2/SIN for half/float/double, other floats through float32
  if (!ops.contains(Ops::EXP2) || force_transcendental) {
    pat.push_back(Rule(UPat(Ops::EXP2).dtype(kTranscendentalDtypes).src({d}),
                       [](const Match& m) { return XExp2(m["d"]); }));
    pat.push_back(Rule(UPat(Ops::EXP2).dtype(kOtherFloats).src({d}).named("x"), ViaFloat32));
  }
  if (!ops.contains(Ops::LOG2) || force_transcendental) {
    pat.push_back(Rule(UPat(Ops::LOG2).dtype(kTranscendentalDtypes).src({d}),
                       [](const Match& m) { return XLog2(m["d"]); }));
    pat.push_back(Rule(UPat(Ops::LOG2).dtype(kOtherFloats).src({d}).named("x"), ViaFloat32));
  }
  if (!ops.contains(Ops::SIN) || force_transcendental) {
    pat.push_back(Rule(UPat(Ops::SIN).dtype(kTranscendentalDtypes).src({d}),
                       [](const Match& m) { return XSin(m["d"]); }));
    pat.push_back(Rule(UPat(Ops::SIN).dtype(kOtherFloats).src({d}).named("x"), ViaFloat32));
  }
  // no real hardware supports THREEFRY, but NullRenderer does
  if (!ops.contains(Ops::THREEFRY))
    pat.push_back(Rule(UPat(Ops::THREEFRY).dtype(dtypes::uint64).src({UPat::Var("x"), UPat::Var("key")}),
                       [](const Match& m) { return Threefry2x32(m["x"], m["key"]); }));
  // MAX can be rewritten as CMPLT + WHERE (max function is annoying on many cstyle backends)
  if (!ops.contains(Ops::MAX) && ops.contains(Ops::CMPLT))
    pat.push_back(Rule(UPat(Ops::MAX).named("m"), [](const Match& m) {
      const UOp& mx = m["m"];
      return mx.src(0).lt(mx.src(1)).where(mx.src(1), mx.src(0));
    }));
  // rewrite SQRT to xpow 0.5
  if (!ops.contains(Ops::SQRT))
    pat.push_back(Rule(UPat(Ops::SQRT).src_repeat(d),
                       [](const Match& m) { return XPow(m["d"], m["d"].const_like(0.5)); }));
  // x % (2**y) -> x & (2**y-1)
  if (ops.contains(Ops::AND))
    pat.push_back(Rule(UPat::Var("x", IntsDtypes()) % UPat::CVar("c"), [](const Match& m) {
      if (PowerOfTwo(m["c"]) < 0) return UOp();
      return m["x"] & (ConstArg(m["c"]) - ConstValue(1));
    }));
  // !x & !y -> !(x|y)
  if (ops.contains(Ops::OR))
    pat.push_back(Rule(UPat::Var("x", {dtypes::bool_}).logical_not() &
                           UPat::Var("y", {dtypes::bool_}).logical_not(),
                       [](const Match& m) { return (m["x"] | m["y"]).logical_not(); }));
  // x*(2**y) -> x << y
  if (ops.contains(Ops::SHL))
    pat.push_back(Rule(UPat::Var("x", IntsDtypes()) * UPat::CVar("c"), [](const Match& m) {
      int v = PowerOfTwo(m["c"]);
      return v > 0 ? m["x"] << ConstValue(v) : UOp();
    }));
  if (ops.contains(Ops::SHR)) {
    // no reason to check x<0 for uints: x // 2**y -> x >> y
    pat.push_back(Rule(UPat::Var("x", kUints).idiv(UPat::CVar("c")), [](const Match& m) {
      int v = PowerOfTwo(m["c"]);
      return v > 0 ? m["x"] >> ConstValue(v) : UOp();
    }));
    // (x+(x<0).where(c-1, 0)) >> v
    pat.push_back(Rule(UPat::Var("x", IntsDtypes()).idiv(UPat::CVar("c")), SignedShiftDiv));
    if (!disable_fast_idiv) {
      // x // d -> (x*m) >> s
      pat.push_back(Rule(UPat::Var("x", IntsDtypes()).idiv(UPat::CVar("d", {}, /*vec=*/false)),
                         [](const Match& m) {
                           ConstValue dv = ConstArg(m["d"]);
                           // TODO(parity): tinygrad asserts d > 0 here; we keep such IDIVs
                           if (!dv.is_int() || dv.to_int() <= 0 || dv.to_int() > INT64_MAX) return UOp();
                           return FastIdiv(m["x"], dv.to_int64());
                         }));
      // x % d -> x - d*(x//d)
      pat.push_back(Rule(UPat::Var("x", IntsDtypes()) % UPat::Var("d"), [](const Match& m) {
        return m["x"] - m["d"] * m["x"].idiv(m["d"]);
      }));
    }
  }
  if (ops.contains(Ops::NEG)) {
    // x * -1 -> NEG(x)
    pat.push_back(Rule(UPat::Var("x") * ConstValue(-1), [](const Match& m) { return m["x"].alu(Ops::NEG); }));
    // x + NEG(y) -> SUB(x, y)
    if (ops.contains(Ops::SUB))
      pat.push_back(Rule(UPat::Var("x") + UPat::Var("y").alu(Ops::NEG),
                         [](const Match& m) { return m["x"].alu(Ops::SUB, {m["y"]}); }));
  }
  if (ops.contains(Ops::CMPLT)) {
    // These are late rewrites because simplex expects equalities to be a certain format
    const UPat x = UPat::Var("x", SintsDtypes()), y = UPat::Var("y", SintsDtypes());
    const UPat c = UPat::CVar("c", SintsDtypes());
    // !(x < c) -> c-1 < x
    pat.push_back(Rule(x.lt(c).logical_not(),
                       [](const Match& m) { return (m["c"] - ConstValue(1)).lt(m["x"]); }));
    // !(c < x) -> x < c+1
    pat.push_back(Rule(c.lt(x).logical_not(),
                       [](const Match& m) { return m["x"].lt(m["c"] + ConstValue(1)); }));
    // -x < y*c -> y*(-c) < x
    pat.push_back(Rule((x * ConstValue(-1)).lt(y * UPat::CVar("c")),
                       [](const Match& m) { return (m["y"] * (-m["c"])).lt(m["x"]); }));
    // -x < c -> -c < x
    pat.push_back(Rule((x * ConstValue(-1)).lt(UPat::CVar("c")),
                       [](const Match& m) { return (-m["c"]).lt(m["x"]); }));
    // (c-1)<x & x<(c+1) -> x==c
    pat.push_back(Rule(UPat::CVar("c1", {}, false).lt(x) & x.lt(UPat::CVar("c2", {}, false)),
                       [](const Match& m) {
                         if (ConstArg(m["c1"]) + ConstValue(1) != ConstArg(m["c2"]) - ConstValue(1))
                           return UOp();
                         return m["x"].eq(m["c1"] + ConstValue(1));
                       }));
  }
  // !(x != y) -> x == y
  if (ops.contains(Ops::CMPEQ))
    pat.push_back(Rule(UPat::Var("x").ne(UPat::Var("y")).logical_not(),
                       [](const Match& m) { return m["x"].alu(Ops::CMPEQ, {m["y"]}); }));
  // a*b+c -> MULACC(a, b, c)
  if (ops.contains(Ops::MULACC))
    pat.push_back(Rule(UPat::Var("a") * UPat::Var("b") + UPat::Var("c"),
                       [](const Match& m) { return m["a"].alu(Ops::MULACC, {m["b"], m["c"]}); }));
  // some backends emit FDIV for RECIP, in that case: a*(1/b) -> a/b
  if (ops.contains(Ops::FDIV)) {
    pat.push_back(Rule(UPat::Var("x").reciprocal(), [](const Match& m) {
      return m["x"].const_like(1).alu(Ops::FDIV, {m["x"]});
    }));
    pat.push_back(Rule(UPat::Var("a", kFloats) * UPat::Const(kFloats, 1).alu(Ops::FDIV, {UPat::Var("b")}),
                       [](const Match& m) { return m["a"].alu(Ops::FDIV, {m["b"]}); }));
  }
  return PatternMatcher(std::move(pat));
}

}  // namespace

// Built once per (ops, flags), as tinygrad's functools.cache: the rules (and their match stats)
// are shared by every pass that asks for the same set.
PatternMatcher GetLateRewritePatterns(OpSet ops, bool force_transcendental, bool disable_fast_idiv) {
  struct Entry {
    OpSet ops;
    bool force, no_fast_idiv;
    std::unique_ptr<PatternMatcher> pm;
  };
  static std::mutex* const mu = new std::mutex;
  static std::vector<Entry>* const cache = new std::vector<Entry>;
  std::lock_guard<std::mutex> lock(*mu);
  for (const Entry& e : *cache)
    if (e.ops == ops && e.force == force_transcendental && e.no_fast_idiv == disable_fast_idiv) return *e.pm;
  cache->push_back({ops, force_transcendental, disable_fast_idiv,
                    std::make_unique<PatternMatcher>(
                        BuildLateRewritePatterns(ops, force_transcendental, disable_fast_idiv))});
  return *cache->back().pm;
}

}  // namespace tg
