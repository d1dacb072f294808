// File: tinygrad/codegen/lower/render_prep.cc
// Port of tinygrad/codegen/late/devectorizer.py: pm_render (explicit VECTORIZE for rendering,
// alt values of gated loads) and pm_add_loads.
#include <vector>

#include "tinygrad/codegen/lower/devectorizer.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// a vector CONST -> VECTORIZE of scalar CONSTs
UOp VectorConst(const Match& m) {
  const UOp& c = m["c"];
  if (c.dtype().vcount() <= 1) return {};
  std::vector<UOp> srcs(c.dtype().vcount(), UOp::Const(c.dtype().scalar(), ConstArg(c)));
  return UOp::Make(Ops::VECTORIZE, c.dtype(), srcs);
}

// VCONST -> VECTORIZE of scalar CONSTs
UOp VConstToVectorize(const Match& m) {
  const UOp& c = m["c"];
  std::vector<UOp> srcs;
  for (const Arg& a : c.arg().tuple()) srcs.push_back(UOp::Const(c.dtype().scalar(), a.number()));
  return UOp::Make(Ops::VECTORIZE, c.dtype(), srcs);
}

// a multi-lane GEP -> VECTORIZE of single-lane GEPs
UOp MultiGep(const Match& m) {
  const UOp& gep = m["gep"];
  if (gep.arg().size() <= 1) return {};
  std::vector<UOp> srcs;
  for (const Arg& a : gep.arg().tuple()) srcs.push_back(gep.src(0).gep(static_cast<int>(a.int64())));
  return UOp::Make(Ops::VECTORIZE, gep.dtype(), srcs);
}

// GEP(x, 0) of a scalar x -> x
UOp ScalarGep(const Match& m) {
  const UOp& gep = m["gep"];
  if (gep.src(0).dtype().vcount() == 1 && gep.arg().size() == 1 && gep.arg()[0].int64() == 0)
    return gep.src(0);
  return {};
}

// a gated LOAD without an alt value gets 0
UOp GatedLoadAlt(const Match& m) {
  const UOp& x = m["x"];
  if (x.src().size() != 1 && !OpSet{Ops::CUSTOM, Ops::STORE, Ops::BARRIER}.contains(x.src(1).op()))
    return {};
  std::vector<UOp> srcs{x.src(0), x.const_like(0)};
  srcs.insert(srcs.end(), x.src().begin() + 1, x.src().end());
  return x.replace_src(srcs);
}

// where(c, load(gated by c), a) -> load with alt a
UOp WhereGatedLoad(const Match& m) {
  const UOp &l = m["l"], &a = m["a"];
  std::vector<UOp> srcs{l.src(0), a.cast(l.dtype())};
  if (l.src().size() > 2) srcs.insert(srcs.end(), l.src().begin() + 2, l.src().end());
  return l.replace_src(srcs).cast(a.dtype());
}

// LOAD(...) or CAST(LOAD(...)) whose pointer is INDEX(_, idx, gate), named "l"
UPat GatedLoad(const UPat& gate) {
  UPat index = UPat().index(UPat::Var("idx"), gate);
  return UPat(Ops::LOAD).src({index.or_casted()}).allow_any_len().named("l").or_casted();
}

// an INDEX of a value dtype -> LOAD of the pointer INDEX
UOp AddLoad(const Match& m) {
  const UOp& idx = m["idx"];
  if (idx.dtype().is_ptr()) return {};
  return UOp::Make(Ops::LOAD, idx.dtype().base(), {idx.replace_dtype(idx.src(0).dtype())});
}

// STORE(LOAD(p), v) -> STORE(p, v)
UOp StoreThroughLoad(const Match& m) {
  const UOp& s = m["s"];
  std::vector<UOp> srcs(s.src().begin(), s.src().end());
  srcs[0] = s.src(0).src(0);
  return s.replace_src(srcs);
}

}  // namespace

const PatternMatcher& PmRender() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // for rendering, we use explicit VECTORIZE
      Rule(UPat(Ops::CONST).named("c"), VectorConst),
      Rule(UPat(Ops::VCONST).named("c"), VConstToVectorize),
      Rule(UPat(Ops::GEP).named("gep"), MultiGep),
      Rule(UPat(Ops::GEP).named("gep"), ScalarGep),
      Rule(UPat(Ops::VECTORIZE).src({UPat().named("x")}), [](const Match& m) { return m["x"]; }),
      // give any loads that are masked an alt value
      Rule(UPat(Ops::LOAD).src({UPat(Ops::INDEX).src({UPat(), UPat(), UPat()}).or_casted()})
               .allow_any_len().named("x"),
           GatedLoadAlt),
      // Where after gated load becomes alt value
      Rule(UPat::Var("c").where(GatedLoad(UPat::Var("c")), UPat::Var("a")), WhereGatedLoad),
      Rule(UPat::Var("c").where(UPat::Var("a"), GatedLoad(UPat::Var("c").logical_not())),
           WhereGatedLoad),
  });
  return *kRules;
}

const PatternMatcher& PmAddLoads() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // add loads to non ptr index
      Rule(UPat(Ops::INDEX).named("idx"), AddLoad),
      // remove loads from stores
      Rule(UPat(Ops::STORE).src({UPat(Ops::LOAD)}).allow_any_len().named("s"), StoreThroughLoad),
  });
  return *kRules;
}

}  // namespace tg
