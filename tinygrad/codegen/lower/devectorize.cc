// File: tinygrad/codegen/lower/devectorize.cc
// Port of tinygrad/codegen/late/devectorizer.py: devectorize and devectorize_buf_and_index
// (no_vectorized_alu, no_vectorized_wmma, no_vectorized_buf, no_vectorized_index[_broadcast]).
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/codegen/lower/devectorizer.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// The product of the sizes of a WMMA upcast-axes entry ((axis, size), ...).
int64_t AxesSize(const Arg& axes) {
  int64_t p = 1;
  for (const Arg& a : axes.tuple()) p *= a[1].int64();
  return p;
}

// a vector WMMA -> one WMMA per hardware-size group of lanes, lanes re-gathered
UOp NoVectorizedWmma(const Match& m) {
  const UOp& wmma = m["wmma"];
  const Arg& upcast_axes = wmma.arg()[6];
  int64_t out_sz = AxesSize(upcast_axes[upcast_axes.size() - 1]);
  if (wmma.dtype().count() == out_sz) return {};
  // tsrcs[i]: the lane groups of source i
  std::vector<std::vector<UOp>> tsrcs;
  for (size_t i = 0; i < wmma.src().size() && i < upcast_axes.size(); ++i) {
    const UOp& s = wmma.src(i);
    int64_t ssz = AxesSize(upcast_axes[i]);
    std::vector<UOp> groups;
    for (int64_t grp = 0; grp < s.dtype().count(); grp += ssz) {
      std::vector<int> lanes;
      for (int64_t l = grp; l < grp + ssz; ++l) lanes.push_back(static_cast<int>(l));
      groups.push_back(s.gep(lanes));
    }
    tsrcs.push_back(std::move(groups));
  }
  size_t n = tsrcs.empty() ? 0 : tsrcs[0].size();
  for (const auto& t : tsrcs) n = std::min(n, t.size());  // zip
  std::vector<UOp> wmma_ex;
  for (size_t g = 0; g < n; ++g) {
    std::vector<UOp> srcs;
    for (const auto& t : tsrcs) srcs.push_back(t[g]);
    UOp e = UOp::Make(Ops::WMMA, wmma.dtype().scalar().vec(static_cast<int>(out_sz)), srcs,
                      wmma.arg());
    for (int64_t i = 0; i < out_sz; ++i) wmma_ex.push_back(e.gep(static_cast<int>(i)));
  }
  return UOp::Make(Ops::VECTORIZE, wmma.dtype(), wmma_ex);
}

// a vector ALU/CAST/BITCAST -> VECTORIZE of the per-lane scalar ops
UOp NoVectorizedAlu(const Match& m) {
  const UOp& alu = m["alu"];
  if (alu.dtype().vcount() == 1) return {};
  // image load/store has cond.where(idx.vec(2), Invalid) as the index
  if (alu.op() == Ops::WHERE && alu.src(2).op() == Ops::CONST &&
      alu.src(2).arg().is_number() && alu.src(2).arg().number().is_invalid())
    return {};
  std::vector<UOp> alus;
  for (int i = 0; i < alu.dtype().vcount(); ++i) {
    std::vector<UOp> srcs;
    for (const UOp& s : alu.src()) srcs.push_back(s.gep(i));
    alus.push_back(UOp::Make(alu.op(), alu.dtype().scalar(), srcs, alu.arg()));
  }
  return UOp::Make(Ops::VECTORIZE, alu.dtype(), alus);
}

// a vector DEFINE_LOCAL/DEFINE_REG -> a scalar buffer of size*count, cast back to the vector
// pointer (unchanged for a scalar buffer)
UOp NoVectorizedBuf(const Match& m) {
  const UOp& buf = m["buf"];
  DType pd = buf.dtype();
  DType scalar_ptr = pd.base().scalar().ptr(pd.size() * pd.count(), pd.addrspace());
  return buf.replace_dtype(scalar_ptr).cast(pd);
}

// INDEX(cast(buf), idx) -> INDEX(broadcast(buf), idx*cnt + (0..cnt-1))
UOp NoVectorizedIndex(const Match& m) {
  const UOp &buf = m["buf"], &idx = m["idx"];
  int cnt = m["cast"].dtype().count();
  TG_CHECK(idx.dtype().count() == 1) << "idx dtype must be 1 " << idx.dtype();
  std::vector<ConstValue> lanes;
  for (int i = 0; i < cnt; ++i) lanes.emplace_back(i);
  UOp off = UOp::VConst(dtypes::index.vec(cnt), lanes);
  return buf.broadcast(cnt).index(std::vector<UOp>{idx.broadcast(cnt) * cnt + off}, true);
}

// INDEX(broadcast/gep(cast(buf)), idx) -> per-lane indices of the scalar buffer
UOp NoVectorizedIndexBroadcast(const Match& m) {
  const UOp &buf = m["buf"], &idx = m["idx"], &bcast = m["bcast"];
  int cnt = m["cast"].dtype().count();
  int precnt = bcast.dtype().vcount();
  std::vector<int64_t> input_gep;
  if (bcast.op() == Ops::GEP) {
    for (const Arg& a : bcast.arg().tuple()) input_gep.push_back(a.int64());
  } else {
    input_gep.assign(precnt, 0);
  }
  std::vector<int> gep_arg;
  std::vector<ConstValue> sum_arg;
  for (int i = 0; i < cnt; ++i) {
    for (int p = 0; p < precnt; ++p) gep_arg.push_back(p);
    for (int64_t y : input_gep) sum_arg.emplace_back(int64_t{i} + y);
  }
  UOp off = UOp::VConst(dtypes::index.vec(cnt * precnt), sum_arg);
  return buf.broadcast(cnt * precnt).index(std::vector<UOp>{idx.gep(gep_arg) * cnt + off}, true);
}

// CAST(c) used by AFTER(a) -> AFTER on the uncast buffer, then CAST
UOp CastAfterAfter(const Match& m) {
  const UOp &c = m["c"], &a = m["a"];
  std::vector<UOp> srcs{c.src(0)};
  for (size_t i = 1; i < a.src().size(); ++i) srcs.push_back(a.src(i));
  return UOp::Make(Ops::AFTER, c.src(0).dtype(), srcs).cast(c.dtype());
}

// UPat((DEFINE_LOCAL, DEFINE_REG)).or_after(name="buf")
UPat LocalOrRegOrAfter() {
  UPat def(OpSet{Ops::DEFINE_LOCAL, Ops::DEFINE_REG});
  return UPat::Any({def.named("buf"), UPat(Ops::AFTER).src({def}).allow_any_len().named("buf")});
}

}  // namespace

const PatternMatcher& Devectorize() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // CAST after AFTER
      Rule(UPat(Ops::AFTER).src({UPat(Ops::CAST).named("c")}).allow_any_len().named("a"),
           CastAfterAfter),
      // no ALU on vectorized dtypes
      Rule(UPat(GroupOp::ALU | OpSet{Ops::CAST, Ops::BITCAST}).named("alu"), NoVectorizedAlu),
      Rule(UPat(Ops::WMMA).named("wmma"), NoVectorizedWmma),
      // ** devectorize_buf_and_index **
      Rule(UPat(OpSet{Ops::DEFINE_LOCAL, Ops::DEFINE_REG}).named("buf"), NoVectorizedBuf),
      Rule(LocalOrRegOrAfter().cast().named("cast").index(UPat::Var("idx")), NoVectorizedIndex),
      Rule(LocalOrRegOrAfter().cast().named("cast").broadcast().named("bcast").index(
               UPat::Var("idx")),
           NoVectorizedIndexBroadcast),
      Rule(LocalOrRegOrAfter().cast().named("cast").gep().named("bcast").index(UPat::Var("idx")),
           NoVectorizedIndexBroadcast),
  });
  return *kRules;
}

}  // namespace tg
