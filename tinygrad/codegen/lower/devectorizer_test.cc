// File: tinygrad/codegen/lower/devectorizer_test.cc
// Unit tests of the devectorizer rule sets on hand-built graphs: split_load_store's widths per
// target/dtype/alignment, WMMA splitting and accumulation, gates, and index dtype selection
// (the reference-output cases live in lower_golden_test.cc).
#include "tinygrad/codegen/lower/devectorizer.h"

#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/codegen/lower/lower_index.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

class TestRenderer : public Renderer {
 public:
  TestRenderer(std::string dev, bool float4) {
    device = std::move(dev);
    supports_float4 = float4;
  }
  std::string Render(std::span<const UOp>) const override { return ""; }
};

UOp PtrIndex(const UOp& buf, const UOp& idx) { return buf.index(std::vector<UOp>{idx}, true); }

// LOAD of `count` elements of buf at `off` through a vector pointer, as fold_expanded_index
// leaves it, rewritten with CorrectLoadStore for `ren`.
UOp SplitLoad(const Renderer& ren, DType base, AddrSpace as, const UOp& off, int count) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, base.ptr(256, as), {}, Arg(0));
  UOp ptr = PtrIndex(buf, off).cast(base.vec(count).ptr(256, as));
  UOp ld = UOp::Make(Ops::LOAD, base.vec(count), {ptr});
  return GraphRewrite(UOp::Sink({ld}), CorrectLoadStore(), {.ctx = RewriteCtx::Of<const LoadStoreTarget>({&ren})}).src(0);
}

std::vector<int> Widths(const UOp& u) {
  if (u.op() == Ops::LOAD) return {u.dtype().count()};
  std::vector<int> w;
  for (const UOp& s : u.src()) w.push_back(s.dtype().count());
  return w;
}

TEST(SplitLoadStoreTest, WidthsByTarget) {
  TestRenderer clang("CPU", true), scalar("CPU", false), dsp("DSP", false);
  UOp r = UOp::Range(16, 0);
  // aligned float4 on a float4 target: one access, unchanged
  EXPECT_EQ(Widths(SplitLoad(clang, dtypes::float32, AddrSpace::GLOBAL, r * 4, 4)), (std::vector<int>{4}));
  // only 2-aligned: two float2
  UOp mis = SplitLoad(clang, dtypes::float32, AddrSpace::GLOBAL, r * 4 + 2, 4);
  EXPECT_EQ(mis.op(), Ops::CAT);
  EXPECT_EQ(Widths(mis), (std::vector<int>{2, 2}));
  // unaligned: scalars
  EXPECT_EQ(Widths(SplitLoad(clang, dtypes::float32, AddrSpace::GLOBAL, r * 4 + 1, 4)), (std::vector<int>{1, 1, 1, 1}));
  // no float4 support: scalars
  EXPECT_EQ(Widths(SplitLoad(scalar, dtypes::float32, AddrSpace::GLOBAL, r * 4, 4)), (std::vector<int>{1, 1, 1, 1}));
  // half folds like float; ints and registers never fold
  EXPECT_EQ(Widths(SplitLoad(clang, dtypes::float16, AddrSpace::GLOBAL, r * 8, 8)), (std::vector<int>{4, 4}));
  EXPECT_EQ(Widths(SplitLoad(clang, dtypes::int32, AddrSpace::GLOBAL, r * 4, 4)), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(Widths(SplitLoad(clang, dtypes::float32, AddrSpace::REG, r * 2, 2)), (std::vector<int>{1, 1}));
  // DSP: widest first, no alignment requirement
  EXPECT_EQ(Widths(SplitLoad(dsp, dtypes::float32, AddrSpace::GLOBAL, r * 12 + 1, 12)), (std::vector<int>{8, 4}));
}

TEST(SplitLoadStoreTest, StoreSplitsData) {
  TestRenderer clang("CPU", true);
  UOp r = UOp::Range(16, 0);
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(256), {}, Arg(0));
  UOp off = r * 4 + 2;
  UOp data = UOp::Variable("v", 0.0, 1.0, dtypes::float32).broadcast(4);
  UOp st = PtrIndex(buf, off).cast(dtypes::float32.vec(4).ptr(256)).store(data);
  UOp out = GraphRewrite(UOp::Sink({st}), CorrectLoadStore(), {.ctx = RewriteCtx::Of<const LoadStoreTarget>({&clang})}).src(0);
  ASSERT_EQ(out.op(), Ops::GROUP);
  ASSERT_EQ(out.src().size(), 2u);
  std::vector<int> hi = {2, 3};
  EXPECT_EQ(out.src(1).src(1), data.gep(hi));
  // the second piece's pointer: buf[off + 2] as a float2 pointer
  UOp p = out.src(1).src(0);
  EXPECT_EQ(p.op(), Ops::CAST);
  EXPECT_EQ(p.dtype(), dtypes::float32.vec(2).ptr(256));
  EXPECT_EQ(GetIdx(p.src(0).src(1)), off + 2);
}

TEST(DevectorizeTest, WmmaSplitToHardwareSize) {
  // upcast axes: A and B 4 lanes per WMMA, C/out 2 lanes: a float4 WMMA is two float2 WMMAs
  Arg axes = Arg::Tuple({Arg::Tuple({Arg::Tuple({0, 4})}), Arg::Tuple({Arg::Tuple({0, 4})}),
                         Arg::Tuple({Arg::Tuple({0, 2})})});
  Arg arg = Arg::Tuple({"WMMA", 0, 0, 0, "CPU", 1, axes, Arg::Tuple({})});
  UOp a = UOp::Variable("a", 0.0, 1.0, dtypes::float32).broadcast(8);
  UOp b = UOp::Variable("b", 0.0, 1.0, dtypes::float32).broadcast(8);
  UOp c = UOp::Variable("c", 0.0, 1.0, dtypes::float32).broadcast(4);
  UOp w = UOp::Make(Ops::WMMA, dtypes::float32.vec(4), {a, b, c}, arg);
  UOp out = GraphRewrite(UOp::Sink({w}), Devectorize()).src(0);
  ASSERT_EQ(out.op(), Ops::VECTORIZE);
  ASSERT_EQ(out.src().size(), 4u);
  UOp w0 = out.src(0).src(0), w1 = out.src(2).src(0);
  EXPECT_EQ(w0.op(), Ops::WMMA);
  EXPECT_EQ(w0.dtype(), dtypes::float32.vec(2));
  EXPECT_NE(w0, w1);
  std::vector<int> lo4 = {0, 1, 2, 3}, hi4 = {4, 5, 6, 7};
  EXPECT_EQ(w0.src(0), a.gep(lo4));
  EXPECT_EQ(w1.src(0), a.gep(hi4));
  // already hardware size: unchanged
  UOp w2 = UOp::Make(Ops::WMMA, dtypes::float32.vec(2), {a.gep(lo4), b.gep(lo4), c.gep(std::vector<int>{0, 1})}, arg);
  EXPECT_EQ(GraphRewrite(UOp::Sink({w2}), Devectorize()).src(0).op(), Ops::WMMA);
}

TEST(PmReduceTest, WmmaAccumulates) {
  UOp a = UOp::Variable("a", 0.0, 1.0, dtypes::float32).broadcast(2);
  UOp c = UOp::Variable("c", 0.0, 1.0, dtypes::float32).broadcast(2);
  UOp x = UOp::Variable("x", 0.0, 1.0, dtypes::float32).broadcast(2);
  UOp w = UOp::Make(Ops::WMMA, dtypes::float32.vec(2), {a, a, c}, Arg("wmma"));
  ReduceContext ctx;
  UOp out = GraphRewrite(UOp::Sink({x + w}), PmReduce(), {.ctx = RewriteCtx::Of(ctx)}).src(0);
  EXPECT_EQ(out, UOp::Make(Ops::WMMA, dtypes::float32.vec(2), {a, a, c + x}, Arg("wmma")));
}

TEST(PmReduceTest, AccumulatorNumbersAndIdentity) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(64), {}, Arg(0));
  UOp r1 = UOp::Range(8, 1, AxisType::REDUCE), r2 = UOp::Range(8, 2, AxisType::REDUCE);
  UOp v1 = buf.index(std::vector<UOp>{r1}), v2 = buf.index(std::vector<UOp>{r2});
  UOp m = UOp::Make(Ops::REDUCE, dtypes::float32, {v1, r1}, Arg(Ops::MAX));
  UOp s = UOp::Make(Ops::REDUCE, dtypes::float32, {v2, r2}, Arg(Ops::MUL));
  ReduceContext ctx;
  UOp out = GraphRewrite(UOp::Sink({m, s}), PmReduce(), {.ctx = RewriteCtx::Of(ctx)});
  EXPECT_EQ(ctx.acc_num, 2);
  std::vector<ConstValue> inits;
  for (const UOp& u : out.toposort())
    if (u.op() == Ops::STORE && u.src(1).op() == Ops::CONST) inits.push_back(u.src(1).arg().number());
  ASSERT_EQ(inits.size(), 2u);
  EXPECT_TRUE((inits[0] == ConstValue(-INFINITY) && inits[1] == ConstValue(1.0)) ||
              (inits[1] == ConstValue(-INFINITY) && inits[0] == ConstValue(1.0)));
}

TEST(LoadStoreIndexingTest, DropTrueGateAndSimplifyGivenValid) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(64), {}, Arg(0));
  UOp r = UOp::Range(16, 0);
  UOp gated = buf.index(std::vector<UOp>{r, UOp::Const(dtypes::bool_, true)}, true);
  EXPECT_EQ(GraphRewrite(UOp::Sink({gated}), LoadStoreIndexing()).src(0), PtrIndex(buf, r));
  // given r < 8, (r % 8) is r
  UOp idx = Valid(r % 8, r.lt(ConstValue(8)));
  EXPECT_EQ(GraphRewrite(UOp::Sink({PtrIndex(buf, idx)}), LoadStoreIndexing()).src(0),
            PtrIndex(buf, Valid(r, r.lt(ConstValue(8)))));
}

// After index lowering the gate is a third source. As in tinygrad, r%8 of a long range is done
// in int (it fits), and a long index is left alone (uop_given_valid simplifies index math only).
TEST(LoadStoreIndexingTest, LoweredGatedIndex) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(), {}, Arg(0));
  UOp r = UOp::Range(UOp::Const(dtypes::int64, 16), 0);
  UOp gate = r.lt(ConstValue(8));
  UOp idx = buf.index(std::vector<UOp>{r % 8, gate}, true);
  UOp out = GraphRewrite(UOp::Sink({idx}), PmLowerIndexDtype() + LoadStoreIndexing()).src(0);
  EXPECT_EQ(out, buf.index(std::vector<UOp>{r.cast(dtypes::int32) % 8, gate}, true)) << out;
  UOp big = UOp::Range(UOp::Const(dtypes::int64, int64_t{1} << 34), 0);
  UOp idx2 = buf.index(std::vector<UOp>{big % ConstValue(int64_t{1} << 33), big.lt(ConstValue(int64_t{1} << 32))}, true);
  EXPECT_EQ(GraphRewrite(UOp::Sink({idx2}), PmLowerIndexDtype() + LoadStoreIndexing()).src(0), idx2);
}

TEST(PmAddLoadsTest, ValueIndexBecomesLoad) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(64), {}, Arg(0));
  UOp r = UOp::Range(16, 0);
  UOp v = buf.index(std::vector<UOp>{r});
  EXPECT_EQ(v.dtype(), dtypes::float32);
  UOp sink = UOp::Sink({v.store(v + 1.0)});
  UOp out = GraphRewrite(sink, PmAddLoads()).src(0);
  UOp ptr = PtrIndex(buf, r);
  EXPECT_EQ(out, ptr.store(UOp::Make(Ops::LOAD, dtypes::float32, {ptr}) + 1.0));
}

TEST(LowerIndexTest, SelectDtypeByRange) {
  EXPECT_EQ(SelectIndexDtype(UOp::Variable("a", 0, INT32_MAX)), dtypes::int32);
  EXPECT_EQ(SelectIndexDtype(UOp::Variable("a", INT32_MIN, 0)), dtypes::int32);
  EXPECT_EQ(SelectIndexDtype(UOp::Variable("a", 0, int64_t{INT32_MAX} + 1)), dtypes::int64);
  EXPECT_EQ(SelectIndexDtype(UOp::Variable("a", int64_t{INT32_MIN} - 1, 0)), dtypes::int64);
  UOp r = UOp::Range(1 << 16, 0);
  EXPECT_EQ(SelectIndexDtype(r * (1 << 15)), dtypes::int32);   // max 2**31 - 2**15
  EXPECT_EQ(SelectIndexDtype(r * (1 << 16)), dtypes::int64);   // max 2**32 - 2**16
  std::vector<UOp> lanes = {r, r};
  EXPECT_EQ(SelectIndexDtype(UOp::Make(Ops::VECTORIZE, dtypes::index.vec(2), lanes)), dtypes::int32.vec(2));
}

TEST(LowerIndexTest, ProductOverflowingInt32IsComputedInInt64) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(), {}, Arg(0));
  UOp r = UOp::Range(1 << 20, 0);
  UOp sink = UOp::Sink({PtrIndex(buf, r * 4096)});
  UOp idx = GraphRewrite(sink, PmLowerIndexDtype()).src(0).src(1);
  EXPECT_EQ(idx.op(), Ops::MUL);
  EXPECT_EQ(idx.dtype(), dtypes::int64);
  EXPECT_EQ(idx.src(0), UOp::Range(UOp::Const(dtypes::int32, 1 << 20), 0).cast(dtypes::int64));
  // small: everything int32, no casts left
  UOp small = GraphRewrite(UOp::Sink({PtrIndex(buf, UOp::Range(16, 0) * 4)}), PmLowerIndexDtype()).src(0).src(1);
  EXPECT_EQ(small.dtype(), dtypes::int32);
  for (const UOp& u : small.toposort()) EXPECT_NE(u.op(), Ops::CAST);
}

}  // namespace
}  // namespace tg
