// Port of tinygrad/uop/symbolic.py: gep_pushing (resolving and pushing GEPs of vectors).
#include <vector>

#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// A GEP's lane tuple.
std::vector<int> Lanes(const UOp& gep) {
  std::vector<int> out;
  for (const Arg& a : gep.arg().tuple()) out.push_back(static_cast<int>(a.int64()));
  return out;
}

DType VecOf(DType scalar, int count) { return count == 1 ? scalar : scalar.vec(count); }

// gep(gep(x, l2), l1) -> gep(x, l2[l1])
UOp GepOfGep(const Match& m) {
  std::vector<int> l1 = Lanes(m["g1"]), l2 = Lanes(m["g2"]), out;
  for (int i : l1) out.push_back(l2[i]);
  return m["g2"].src(0).gep(out);
}

// gep(vectorize(s...), l) -> vectorize(s[l]...) (or the single source)
UOp GepOfVectorize(const Match& m) {
  const UOp &gep = m["gep"], &vec = m["vec"];
  std::vector<int> lanes = Lanes(gep);
  if (lanes.size() == 1) return vec.src(lanes[0]);
  std::vector<UOp> srcs;
  for (int i : lanes) srcs.push_back(vec.src(i));
  return UOp::Make(Ops::VECTORIZE, gep.dtype(), srcs);
}

// gep(vconst, l) -> vconst[l]
UOp GepOfVConst(const Match& m) {
  const UOp &gep = m["gep"], &c = m["c"];
  std::vector<ConstValue> lanes;
  for (int i : Lanes(gep)) lanes.push_back(c.arg()[i].number());
  return ConstLikeLanes(gep, lanes);
}

// gep(alu(a, b), l) -> alu(gep(a, l), gep(b, l))
UOp GepThroughAlu(const Match& m) {
  const UOp &gep = m["gep"], &alu = m["alu"];
  if (gep.dtype().is_ptr() || alu.dtype().is_ptr()) return {};
  std::vector<int> lanes = Lanes(gep);
  std::vector<UOp> srcs;
  for (const UOp& x : alu.src()) srcs.push_back(x.gep(lanes));
  return UOp::Make(alu.op(), VecOf(alu.dtype().scalar(), gep.dtype().count()), srcs, alu.arg());
}

// cat(a, b) -> vectorize(gep(a, 0), ..., gep(b, 0), ...)
UOp ExpandCat(const Match& m) {
  const UOp& x = m["x"];
  if (x.dtype().is_ptr()) return {};
  std::vector<UOp> srcs;
  for (const UOp& y : x.src())
    for (int i = 0; i < y.dtype().count(); ++i) srcs.push_back(y.gep(i));
  return UOp::Make(Ops::VECTORIZE, x.dtype(), srcs);
}

// vectorize(gep(x, i), gep(x, j), ...) -> gep(x, (i, j, ...))
UOp VectorizeOfGeps(const Match& m) {
  if (!m.has("x")) return {};  // an empty VECTORIZE
  std::vector<int> lanes;
  for (const UOp& g : m["v"].src()) {
    std::vector<int> l = Lanes(g);
    if (l.size() != 1) return {};  // tinygrad's get_single_element asserts
    lanes.push_back(l[0]);
  }
  return m["x"].gep(lanes);
}

// gep(x, (0, 1, ..., n-1)) -> x
UOp RemoveIdentityGep(const Match& m) {
  const UOp& g = m["g"];
  if (g.dtype().is_ptr()) return {};
  std::vector<int> lanes = Lanes(g);
  if (static_cast<int>(lanes.size()) != g.src(0).dtype().count()) return {};
  for (size_t i = 0; i < lanes.size(); ++i)
    if (lanes[i] != static_cast<int>(i)) return {};
  return g.src(0);
}

int64_t ProdOfSizes(const Arg& axes) {
  int64_t p = 1;
  for (const Arg& ax : axes.tuple()) p *= ax[1].int64();
  return p;
}

// gep(wmma(a, b, c), l) -> wmma(gep(a, la), gep(b, lb), gep(c, lc)) when the lanes select
// whole output groups of the WMMA in order.
UOp GepThroughWmma(const Match& m) {
  const UOp &gep = m["gep"], &wmma = m["wmma"];
  const Arg& upcast_axes = wmma.arg()[6];
  int64_t out_sz = ProdOfSizes(upcast_axes[upcast_axes.size() - 1]);
  std::vector<int> lanes = Lanes(gep);
  std::vector<int> wmma_idxs;
  for (size_t i = 0; i < lanes.size(); i += out_sz) wmma_idxs.push_back(lanes[i]);
  for (int64_t i = 0; i < out_sz; ++i) {
    std::vector<int> shifted;
    for (size_t j = i; j < lanes.size(); j += out_sz)
      shifted.push_back(lanes[j] - static_cast<int>(i));
    if (shifted != wmma_idxs) return {};
  }
  std::vector<UOp> tsrcs;
  for (size_t k = 0; k < wmma.src().size() && k < upcast_axes.size(); ++k) {
    int64_t ssz = ProdOfSizes(upcast_axes[k]);
    std::vector<int> src_args;
    for (int w : wmma_idxs) {
      int64_t start = (w / out_sz) * ssz;
      for (int64_t j = start; j < start + ssz; ++j) src_args.push_back(static_cast<int>(j));
    }
    tsrcs.push_back(wmma.src(k).gep(src_args));
  }
  return UOp::Make(Ops::WMMA, gep.dtype(), tsrcs, wmma.arg());
}

}  // namespace

const PatternMatcher& GepPushing() {
  static const auto* const kRules = [] {
    OpSet alu_cast = GroupOp::ALU | OpSet{Ops::CAST, Ops::BITCAST};
    return new PatternMatcher({
        // GEP/GEP: gep(gep(x, l2), l1) -> gep(x, l2[l1])
        Rule(UPat(Ops::GEP).src({UPat(Ops::GEP).named("g2")}).named("g1"), GepOfGep),
        // GEP/VECTORIZE: gep(vectorize(s...), l) -> s[l]
        Rule(UPat(Ops::GEP).src({UPat(Ops::VECTORIZE).named("vec")}).named("gep"), GepOfVectorize),
        // GEP/CONST: gep(c, l) -> c
        Rule(UPat(Ops::GEP).src({UPat::CVar("c", {}, false)}).named("gep"),
         [](const Match& m) { return m["gep"].const_like(ConstArg(m["c"])); }),
        // GEP/VCONST: gep(vconst, l) -> vconst[l]
        Rule(UPat(Ops::GEP).src({UPat(Ops::VCONST).named("c")}).named("gep"), GepOfVConst),
        // GEP on void is skipped: gep(x:void) -> x
        Rule(UPat(Ops::GEP).src({UPat().dtype(dtypes::void_).named("x")}),
         [](const Match& m) { return m["x"]; }),
        // GEP in order is removed: gep(x, (0, 1, ..., n-1)) -> x
        Rule(UPat(Ops::GEP).named("g"), RemoveIdentityGep),
        // push all GEPs through ALUs (fix arange stuff): gep(a op b) -> gep(a) op gep(b)
        Rule(UPat(Ops::GEP).src({UPat(alu_cast).named("alu")}).named("gep"), GepThroughAlu),
        // CAT can't be rendered: cat(a, b) -> vectorize of GEPs
        Rule(UPat(Ops::CAT).named("x"), ExpandCat),
        // VECTORIZE on same GEP: vectorize(gep(x, i), gep(x, j)) -> gep(x, (i, j))
        Rule(UPat(Ops::VECTORIZE).named("v").src_repeat(UPat(Ops::GEP).src({UPat::Var("x")})),
         VectorizeOfGeps),
        // push some GEPs through WMMAs
        Rule(UPat(Ops::GEP).src({UPat(Ops::WMMA).named("wmma")}).named("gep"), GepThroughWmma),
    });
  }();
  return *kRules;
}

}  // namespace tg
