// File: tinygrad/codegen/lower/lower_index.cc
// Port of tinygrad/uop/ops.py: pm_lower_index_dtype and select_dtype.
#include "tinygrad/codegen/lower/lower_index.h"

#include <vector>

#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// least_upper_dtype over the scalars, at `count` lanes (tinygrad's lattice has no vectors).
DType LubVec(std::initializer_list<DType> ds, int count) {
  std::vector<DType> scalars;
  for (DType d : ds) scalars.push_back(d.scalar());
  return dtypes::least_upper_dtype(scalars).vec(count);
}

// u(x.cast(index), y.cast(index)) -> x.cast(dt) u y.cast(dt), back to u's dtype.
UOp LowerBinary(const Match& m) {
  const UOp &u = m["u"], &x = m["x"], &y = m["y"];
  DType dt = LubVec({SelectIndexDtype(u), x.dtype(), y.dtype()}, SelectIndexDtype(u).count());
  return x.cast(dt).alu(u.op(), {y.cast(dt)}).cast(u.dtype());
}

// an index CONST/VCONST gets a concrete dtype (Invalid stays index)
UOp LowerConst(const Match& m) {
  const UOp& u = m["u"];
  if (u.op() == Ops::CONST && u.arg().number().is_invalid()) return {};
  return u.replace_dtype(SelectIndexDtype(u)).cast(u.dtype());
}

// where(c, x.cast(index), y.cast(index)) -> where(c, x.cast(dt), y.cast(dt)).cast(index)
UOp LowerWhere(const Match& m) {
  const UOp &x = m["x"], &y = m["y"];
  DType dt = LubVec({x.dtype(), y.dtype()}, x.dtype().count());
  return m["cond"].where(x.cast(dt), y.cast(dt)).cast(dtypes::index);
}

// RANGE(end.cast(index)) -> RANGE(end) of end's dtype, cast to index
UOp LowerRange(const Match& m) {
  const UOp& end = m["end"];
  return m["r"].replace_dtype(end.dtype()).replace_src({end}).cast(dtypes::index);
}

// VECTORIZE of index casts -> VECTORIZE of the concrete scalars, cast to index
UOp LowerVectorize(const Match& m) {
  const UOp& v = m["v"];
  DType dt = SelectIndexDtype(v);
  std::vector<UOp> srcs;
  for (const UOp& s : v.src()) srcs.push_back(s.src(0).cast(dt.scalar()));
  return v.replace_dtype(dt).replace_src(srcs).cast(dtypes::index);
}

// SPECIAL can only be int32
UOp LowerSpecial(const Match& m) {
  return m["u"].replace_dtype(dtypes::int32).replace_src({m["var"]}).cast(dtypes::index);
}

// DEFINE_VAR index -> DEFINE_VAR int32, cast to index
UOp LowerDefineVar(const Match& m) {
  return m["u"].replace_dtype(dtypes::int32).cast(dtypes::index);
}

// BIND(var.cast(index), val.cast(index)) -> BIND(var, val).cast(index)
UOp LowerBind(const Match& m) {
  const UOp& var = m["var"];
  return UOp::Make(Ops::BIND, var.dtype(), {var, m["val"]}).cast(dtypes::index);
}

// INDEX(buf, where(c, idx, Invalid)) -> INDEX(buf, idx, c)
UOp LowerInvalid(const Match& m) {
  return m["buf"].index(std::vector<UOp>{m["idx"], m["cond"]}, /*ptr=*/true);
}

// INDEX(buf, idx.cast(...)) -> INDEX(buf, idx)
UOp DropIndexCast(const Match& m) {
  return m["buf"].index(std::vector<UOp>{m["idx"]}, /*ptr=*/true);
}
UOp DropGatedIndexCast(const Match& m) {
  return m["buf"].index(std::vector<UOp>{m["idx"], m["valid"]}, /*ptr=*/true);
}

// SINK/NOOP/END drop hanging index casts of their sources
UOp DropHangingCasts(const Match& m) {
  const UOp& n = m["n"];
  std::vector<UOp> srcs;
  for (const UOp& s : n.src())
    srcs.push_back(s.op() == Ops::CAST && s.dtype() == dtypes::index ? s.src(0) : s);
  return n.replace_src(srcs);
}

}  // namespace

DType SelectIndexDtype(const UOp& u) {
  return (Overflows(u, dtypes::int32) ? dtypes::int64 : dtypes::int32).vec(u.dtype().count());
}

const PatternMatcher& PmLowerIndexDtype() {
  static const PatternMatcher* const kRules = [] {
    const UPat x_cast = UPat::Var("x").cast(dtypes::index), y_cast = UPat::Var("y").cast(dtypes::index);
    return new PatternMatcher({
        // There are no Unary ops at this point in symbolic, those are introduced later
        Rule(UPat(GroupOp::Binary).named("u").src({x_cast, y_cast}), LowerBinary),
        Rule(UPat(OpSet{Ops::CONST, Ops::VCONST}).dtype(dtypes::index).named("u"), LowerConst),
        Rule(UPat(Ops::WHERE).dtype(dtypes::index).src({UPat::Var("cond"), x_cast, y_cast}),
             LowerWhere),
        Rule(UPat(Ops::RANGE).src_repeat(UPat::Var("end").cast(dtypes::index)).named("r"),
             LowerRange),
        Rule(UPat(Ops::VECTORIZE).src_repeat(UPat().cast(dtypes::index)).named("v"), LowerVectorize),
        // special can only be int32
        Rule(UPat(Ops::SPECIAL).src({UPat::Var("var").cast(dtypes::index)}).named("u"), LowerSpecial),
        Rule(UPat(Ops::DEFINE_VAR).dtype(dtypes::index).named("u"), LowerDefineVar),
        Rule(UPat(Ops::BIND).src({UPat::Var("var").cast(dtypes::index),
                                  UPat::CVar("val").cast(dtypes::index)}),
             LowerBind),
        // lower Invalid
        Rule(UPat::Var("buf").index(UPat::Var("cond").where(
                 UPat::Var("idx"), UPat(Ops::CONST).arg(Arg(ConstValue::Invalid())))),
             LowerInvalid),
        // remove hanging casts
        Rule(UPat(Ops::INDEX).src({UPat::Var("buf"), UPat::Var("idx", IntsDtypes()).cast()}),
             DropIndexCast),
        Rule(UPat(Ops::INDEX).src({UPat::Var("buf"), UPat::Var("idx", IntsDtypes()).cast(),
                                   UPat::Var("valid")}),
             DropGatedIndexCast),
        Rule(UPat(OpSet{Ops::SINK, Ops::NOOP, Ops::END}).named("n"), DropHangingCasts),
    });
  }();
  return *kRules;
}

}  // namespace tg
