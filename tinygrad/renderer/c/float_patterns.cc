// File: tinygrad/renderer/c/float_patterns.cc
// Port of tinygrad/renderer/cstyle.py: extra_pm, create_non_native_float_pats,
// pm_manual_bf16_cast, and devectorizer.py's no_vectorized_alu.
#include "tinygrad/renderer/c/float_patterns.h"

#include <utility>

#include "tinygrad/base/check.h"
#include "tinygrad/uop/upat.h"

namespace tg {
namespace {

UOp NoVectorizedAluRule(const Match& m) { return NoVectorizedAlu(m["alu"]); }

// Rebuilds `x` as op over `srcs` with dtype `dt`, keeping its arg.
UOp Remake(const UOp& x, DType dt, std::vector<UOp> srcs) {
  return UOp::Make(x.op(), dt, srcs, x.arg());
}

}  // namespace

UOp NoVectorizedAlu(const UOp& alu) {
  if (alu.dtype().vcount() == 1) return {};
  // image load/store has cond.where(idx.vec(2), Invalid) as the index
  if (alu.op() == Ops::WHERE && alu.src(2).op() == Ops::CONST && alu.src(2).arg().is_number() &&
      alu.src(2).arg().number().is_invalid())
    return {};
  std::vector<UOp> lanes;
  for (int i = 0; i < alu.dtype().vcount(); ++i) {
    std::vector<UOp> srcs;
    for (const UOp& s : alu.src()) srcs.push_back(s.gep(i));
    lanes.push_back(Remake(alu, alu.dtype().scalar(), std::move(srcs)));
  }
  return UOp::Make(Ops::VECTORIZE, alu.dtype(), lanes);
}

const PatternMatcher& CStyleExtraPm() {
  static const auto* const kRules = new PatternMatcher({
      // devectorize any bools
      Rule(UPat(GroupOp::ALU | OpSet{Ops::CAST, Ops::BITCAST, Ops::INDEX})
               .dtype(dtypes::bool_)
               .named("alu"),
           NoVectorizedAluRule),
      // CAST (from bool) can't be vectorized
      Rule(UPat(Ops::CAST).src({UPat().dtype(dtypes::bool_)}).named("alu"), NoVectorizedAluRule),
      // WHERE can't be vectorized
      Rule(UPat(Ops::WHERE).named("alu"), NoVectorizedAluRule),
  });
  return *kRules;
}

PatternMatcher CreateNonNativeFloatPats(std::vector<DType> dts, bool casting) {
  std::vector<Rule> rules{
      // where(b, x, y) on dts -> where in float, cast back
      Rule(UPat(Ops::WHERE).src({UPat::Var("b"), UPat::Var("x", dts), UPat::Var("y", dts)}),
           [](const Match& m) {
             const UOp& x = m["x"];
             return UOp::Make(Ops::WHERE, dtypes::float32,
                              {m["b"], x.cast(dtypes::float32), m["y"].cast(dtypes::float32)})
                 .cast(x.dtype());
           }),
      // alu on dts -> alu in float, cast back
      Rule(UPat(GroupOp::ALU).dtype(dts).named("x"),
           [](const Match& m) {
             const UOp& x = m["x"];
             std::vector<UOp> srcs;
             for (const UOp& s : x.src()) srcs.push_back(s.cast(dtypes::float32));
             return Remake(x, dtypes::float32, std::move(srcs)).cast(x.dtype());
           }),
      // comparisons of dts -> compare in float
      Rule(UPat(GroupOp::ALU)
               .dtype(dtypes::bool_)
               .named("alu")
               .src({UPat::Var("x", dts), UPat::Var("y", dts)}),
           [](const Match& m) {
             return Remake(m["alu"], dtypes::bool_,
                           {m["x"].cast(dtypes::float32), m["y"].cast(dtypes::float32)});
           }),
  };
  if (casting) {
    // add float intermediate casting: x -> dts goes through float
    rules.push_back(Rule(UPat(Ops::CAST).dtype(dts).src({UPat::Var("x")}).named("y"),
                         [](const Match& m) {
                           const UOp& x = m["x"];
                           if (x.dtype() == dtypes::float32) return UOp();
                           return x.cast(dtypes::float32).cast(m["y"].dtype());
                         }));
    // dts -> x goes through float
    rules.push_back(Rule(UPat(Ops::CAST).named("x").src({UPat::Var("y", dts)}),
                         [](const Match& m) {
                           const UOp& x = m["x"];
                           if (x.dtype() == dtypes::float32) return UOp();
                           return m["y"].cast(dtypes::float32).cast(x.dtype());
                         }));
  }
  return PatternMatcher(std::move(rules));
}

UOp CastFloatToBf16(const UOp& in) {
  TG_CHECK(in.dtype() == dtypes::float32) << "cast float -> bf16 must start with float";
  UOp x = in.bitcast(dtypes::uint32);
  // round to nearest even for finite values; keep NaNs quiet by setting a mantissa bit
  x = ((-x) & 0x7f800000)
          .ne(x.const_like(0))
          .where(x + ((x >> 16) & 1) + 0x7fff,
                 (x & 0xffff).ne(x.const_like(0)).where(x | 0x10000, x));
  return (x >> 16).cast(dtypes::uint16).bitcast(dtypes::bfloat16);
}

const PatternMatcher& PmManualBf16Cast() {
  static const auto* const kRules = new PatternMatcher({
      // bf16 -> float: the bits shifted into the high half
      Rule(UPat(Ops::CAST).dtype(dtypes::float32).src({UPat::Var("x", {dtypes::bfloat16})}),
           [](const Match& m) {
             return (m["x"].bitcast(dtypes::uint16).cast(dtypes::uint32) << 16)
                 .bitcast(dtypes::float32);
           }),
      // float -> bf16
      Rule(UPat(Ops::CAST).dtype(dtypes::bfloat16).src({UPat::Var("x", {dtypes::float32})}),
           [](const Match& m) { return CastFloatToBf16(m["x"]); }),
  });
  return *kRules;
}

}  // namespace tg
