// File: tinygrad/uop/symbolic/range_simplify_test.cc
// Tests of codegen/simplify.cc's rule sets. Every expectation is the reference's answer on the
// same graph (tinygrad 35900290, graphs built the same way in Python and printed with
// render(), which simplifies first).
#include "tinygrad/uop/symbolic/range_simplify.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

UOp R(int64_t n, int64_t id, AxisType t = AxisType::LOOP) { return UOp::Range(n, id, t); }
UOp Buf(int slot, DType dt = dtypes::float32) {
  return UOp::Make(Ops::DEFINE_GLOBAL, dt.ptr(64), {}, slot);
}
UOp Idx(const UOp& buf, const UOp& i, bool ptr = false) { return buf.index(std::vector<UOp>{i}, ptr); }
UOp F(double v) { return UOp::Const(dtypes::float32, v); }
UOp I(int64_t v) { return UOp::Const(dtypes::int32, v); }

TEST(SimplifyTest, FlattenRangeListsTheRangesOfAnIndexExpression) {
  UOp r0 = R(4, 0), r1 = R(8, 1);
  UOp st = Idx(Buf(0), r0 * 8 + r1, true).store(F(1.0));
  UOp e = UOp::Make(Ops::END, dtypes::void_, {st, r0 * 8 + r1});
  UOp out = GraphRewrite(e, PmFlattenRange());
  ASSERT_EQ(out.src().size(), 3u);
  EXPECT_EQ(out.src(1), r0);
  EXPECT_EQ(out.src(2), r1);
}

TEST(SimplifyTest, SimplifyRangesMergesContiguousLoops) {
  UOp r0 = R(4, 0), r1 = R(8, 1);
  UOp st = Idx(Buf(0), r0 * 8 + r1, true).store(F(1.0));
  std::vector<UOp> rngs{r0, r1};
  UOp out = GraphRewrite(UOp::Sink({End(st, rngs)}), PmSimplifyRanges());
  const UOp& end = out.src(0);
  ASSERT_EQ(end.src().size(), 2u);
  EXPECT_EQ(Render(end.src(0).src(0).src(1)), "r0");  // reference: r0
  EXPECT_EQ(end.src(1).src(0), UOp::Const(dtypes::index, 32));
  EXPECT_EQ(end.src(1).arg(), Arg::Tuple({0, AxisType::LOOP}));
}

TEST(SimplifyTest, SplitRangesSplitsAModuloRange) {
  UOp r = R(16, 0);
  UOp st = Idx(Buf(0), r, true).store(Idx(Buf(1), r % 4));
  SplitRangesContext ctx;
  UOp out = GraphRewrite(UOp::Sink({End(st, std::span<const UOp>(&r, 1))}),
                         PmSplitRanges() + PmFlattenRange(), {.ctx = RewriteCtx::Of(ctx)});
  const UOp& end = out.src(0);
  EXPECT_EQ(Render(end.src(0).src(0).src(1)), "(r0_0*4+r0_1)");
  EXPECT_EQ(Render(end.src(0).src(1).src(1)), "r0_1");
  ASSERT_EQ(end.src().size(), 3u);
  EXPECT_EQ(end.src(1).arg(), Arg::Tuple({0, 0, AxisType::LOOP}));
  EXPECT_EQ(end.src(2).arg(), Arg::Tuple({0, 1, AxisType::LOOP}));
  EXPECT_EQ(end.src(1).src(0), UOp::Const(dtypes::index, 4));
}

TEST(SimplifyTest, ReduceSimplifyRemovesUnparentedRanges) {
  UOp x = Idx(Buf(1), R(4, 1));
  UOp rr = R(10, 0, AxisType::REDUCE);
  UOp out = GraphRewrite(Reduce(x, std::span<const UOp>(&rr, 1), Ops::ADD), PmReduceSimplify());
  ASSERT_EQ(out.op(), Ops::MUL);  // reference: x * 10.0
  EXPECT_EQ(out.src(0), x);
  EXPECT_EQ(Simplify(out.src(1)), F(10.0));
}

TEST(SimplifyTest, ReduceSimplifyFoldsArange) {
  UOp rr = R(10, 0, AxisType::REDUCE);
  UOp red = Reduce(rr.lt(5).where(I(1), I(0)), std::span<const UOp>(&rr, 1), Ops::ADD);
  EXPECT_EQ(Render(GraphRewrite(red, PmReduceSimplify())), "5");
  UOp r1 = R(4, 1);
  UOp red2 = Reduce(rr.lt(r1 + 3).where(I(0), I(2)), std::span<const UOp>(&rr, 1), Ops::ADD);
  UOp out = GraphRewrite(red2, PmReduceSimplify());
  EXPECT_EQ(out.op(), Ops::MUL);
  EXPECT_EQ(Render(Simplify(out)), "(((int)((r1*-1))+7)*2)");  // render(simplify=True)
}

TEST(SimplifyTest, SplitStoreCutsAtComparisonsOnCpuOnly) {
  UOp r = R(10, 0);
  UOp st = Idx(Buf(0), r, true).store(r.lt(3).where(F(1.0), Idx(Buf(1), r)));
  UOp sink = UOp::Sink({End(st, std::span<const UOp>(&r, 1))});
  const std::string cpu = "CPU", cuda = "CUDA";
  UOp out = GraphRewrite(sink, PmSplitStore(), {.ctx = RewriteCtx::Of(cpu)});
  const UOp& g = out.src(0);
  ASSERT_EQ(g.op(), Ops::GROUP);
  ASSERT_EQ(g.src().size(), 2u);
  EXPECT_EQ(g.src(0).src(1).arg(), Arg::Tuple({0, 0, AxisType::LOOP}));
  EXPECT_EQ(g.src(0).src(1).src(0), UOp::Const(dtypes::index, 3));
  EXPECT_EQ(g.src(1).src(1).arg(), Arg::Tuple({0, 1, AxisType::LOOP}));
  EXPECT_EQ(g.src(1).src(1).src(0), UOp::Const(dtypes::index, 7));
  EXPECT_EQ(Render(g.src(0).src(0).src(0).src(1)), "(r0_0+0)");  // reference: r0_0 (after sym)
  EXPECT_EQ(Render(g.src(1).src(0).src(0).src(1)), "(r0_1+3)");
  EXPECT_EQ(GraphRewrite(sink, PmSplitStore(), {.ctx = RewriteCtx::Of(cuda)}).src(0).op(), Ops::END);
}

TEST(SimplifyTest, LoadCollapseTurnsOneHotReduceIntoGather) {
  UOp idxl = Idx(Buf(2, dtypes::int32), R(4, 1));
  UOp rr = R(10, 0, AxisType::REDUCE);
  UOp red = Reduce(idxl.ne(rr).where(F(0.0), Idx(Buf(1), rr)), std::span<const UOp>(&rr, 1), Ops::ADD);
  UOp out = GraphRewrite(UOp::Sink({red}), PmLoadCollapse()).src(0);
  ASSERT_EQ(out.op(), Ops::WHERE);
  for (const UOp& u : out.toposort()) EXPECT_NE(u.op(), Ops::REDUCE);
  // the gathered read is buf1[valid ? (index)idx : Invalid]
  const UOp& read = out.src(1);
  ASSERT_EQ(read.op(), Ops::INDEX);
  EXPECT_EQ(read.src(1).op(), Ops::WHERE);
  EXPECT_EQ(read.src(1).src(1), idxl.cast(dtypes::index));
}

// sum_r (buf2[r] != r ? 0 : buf1[r]) compares the range with an index read through the range
// itself: no single iteration to gather, so the REDUCE stays (substituting the index for the
// range inside that same index never ended: a task from the farm's fuzzing hung the lowering).
TEST(SimplifyTest, LoadCollapseLeavesAnIndexReadThroughItsOwnRange) {
  UOp rr = R(10, 0, AxisType::REDUCE);
  UOp idxl = Idx(Buf(2, dtypes::int32), rr);
  UOp red = Reduce(idxl.ne(rr).where(F(0.0), Idx(Buf(1), rr)), std::span<const UOp>(&rr, 1), Ops::ADD);
  UOp out = GraphRewrite(UOp::Sink({red}), PmLoadCollapse()).src(0);
  EXPECT_EQ(out.op(), Ops::REDUCE);
}

}  // namespace
}  // namespace tg
