// File: tinygrad/codegen/opt/scheduler_test.cc
// Scheduler semantics beyond the reference goldens: copies are independent values, a rejected
// opt (amounts below 2 included: tinygrad hangs on a split by 1) leaves the Scheduler
// unchanged, the shape views, what ApplyOptRanges returns, and the
// TC opt's bookkeeping (tensor_core(), WMMA).
#include "tinygrad/codegen/opt/scheduler.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/pack_operands.h"
#include "tinygrad/codegen/opt/test_renderers.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

class CpuLike : public Renderer {
 public:
  CpuLike() {
    device = "CPU";
    has_local = false;
    has_threads = true;
    global_max = LaunchDims{8, 0, 0};
  }
  std::string Render(std::span<const UOp>) const override { return ""; }
};

UOp DG(int64_t size, int slot, DType dt = dtypes::float32) { return UOp::Make(Ops::DEFINE_GLOBAL, dt.ptr(size), {}, slot); }

// c[i, j] = sum_k a[i, k] * b[k, j] for (16x32) @ (32x8), as the reference schedules it.
UOp Matmul(DType dt = dtypes::float32, int64_t n = 16, int64_t k = 32, int64_t m = 8) {
  UOp c = DG(n * m, 0), i = UOp::Range(n, 1), j = UOp::Range(m, 2), a = DG(n * k, 1, dt),
      r = UOp::Range(k, 0, AxisType::REDUCE), b = DG(k * m, 2, dt);
  UOp mul = a.index(std::vector<UOp>{i * k + r}) * b.index(std::vector<UOp>{r * m + j});
  if (dt != dtypes::float32) mul = mul.cast(dtypes::float32);
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {mul, r}, Ops::ADD);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {c.index(std::vector<UOp>{i * m + j}, true).store(red), i, j})});
}

TEST(SchedulerTest, ShapeViews) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);
  k.ConvertLoopToGlobal();  // no locals: stays LOOP
  EXPECT_EQ(k.shape_str(), (std::vector<std::string>{"L0", "L1", "R0"}));
  EXPECT_EQ(k.full_shape(), (std::vector<SInt>{16, 8, 32}));
  EXPECT_EQ(k.upcastable_dims(), (std::vector<int>{0, 1}));
  EXPECT_EQ(k.unrollable_dims(), (std::vector<int>{2}));
  EXPECT_EQ(k.output_shape(), (std::vector<SInt>{16, 8, 1}));
  EXPECT_EQ(k.bufs().size(), 3u);
  ASSERT_TRUE(k.reduceop().has_value());
  EXPECT_EQ(k.reduceop()->op(), Ops::REDUCE_AXIS);
  ASSERT_TRUE(k.ApplyOpt({OptOps::UPCAST, 1, int64_t{4}}).ok());
  ASSERT_TRUE(k.ApplyOpt({OptOps::UNROLL, 0, int64_t{8}}).ok());
  EXPECT_EQ(k.shape_str(), (std::vector<std::string>{"L0", "L1", "u0", "R0", "r0"}));
  EXPECT_EQ(k.upcast_size(), 32);
  EXPECT_EQ(k.upcasted(), 2);
  EXPECT_EQ(k.axes_of({AxisType::UPCAST, AxisType::UNROLL}), (std::vector<int>{2, 4}));
  EXPECT_EQ(k.ranges_of({AxisType::REDUCE}).size(), 1u);
  EXPECT_EQ(k.applied_opts().size(), 2u);
  EXPECT_NE(k.colored_shape().find("  16"), std::string::npos);
}

TEST(SchedulerTest, CopiesAreIndependent) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);
  Scheduler c = k;
  ASSERT_TRUE(c.ApplyOpt({OptOps::UPCAST, 0, int64_t{4}}).ok());
  EXPECT_EQ(k.shape_len(), 3);
  EXPECT_TRUE(k.applied_opts().empty());
  EXPECT_EQ(c.shape_len(), 4);
  // a copy of the copy numbers its new ranges after the copy's ranges
  Scheduler cc = c;
  ASSERT_TRUE(cc.ApplyOpt({OptOps::UPCAST, 1, int64_t{2}}).ok());
  EXPECT_EQ(cc.shape_len(), 5);
  EXPECT_NE(cc.rngs()[3].arg()[0], cc.rngs()[2].arg()[0]);
}

TEST(SchedulerTest, RejectedOptsLeaveTheSchedulerUnchanged) {
  const Renderer& ren = CudaLikeRenderer();
  Scheduler k(Matmul(), ren);
  k.ConvertLoopToGlobal();
  ASSERT_TRUE(k.ApplyOpt({OptOps::LOCAL, 0, int64_t{4}}).ok());
  const UOp ast = k.ast();
  for (const Opt& bad : std::vector<Opt>{{OptOps::NOLOCALS, std::nullopt, {}},
                                         {OptOps::UPCAST, 0, int64_t{3}},
                                         {OptOps::UPCAST, 1, int64_t{1}},
                                         {OptOps::UNROLL, 0, int64_t{1}},
                                         {OptOps::UPCAST, 1, int64_t{-2}},
                                         {OptOps::TC, 0, std::array<int64_t, 3>{-1, 0, 1}},
                                         {OptOps::PADTO, 0, int64_t{1024}},
                                         {OptOps::SWAP, 0, int64_t{9}}}) {
    absl::Status s = k.ApplyOpt(bad);
    EXPECT_TRUE(IsKernelOptError(s)) << bad.ToString() << ": " << s;
    EXPECT_EQ(k.ast(), ast) << bad.ToString();
    EXPECT_EQ(k.applied_opts().size(), 1u);
    EXPECT_FALSE(k.dont_use_locals());
  }
}

// out[i] = sum_r f(x[i, r], m[i]) over r < 24: PADTO of r to 32 gates the reads of x, so the 8
// added iterations read x = 0 and add f(0, m[i]).
UOp RowReduce(const std::function<UOp(const UOp& x, const UOp& m)>& f) {
  UOp out = DG(8, 0), i = UOp::Range(8, 1), r = UOp::Range(24, 0, AxisType::REDUCE);
  UOp x = DG(8 * 24, 1).index(std::vector<UOp>{i * 24 + r}), m = DG(8, 2).index(std::vector<UOp>{i});
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {f(x, m), r}, Ops::ADD);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {out.index(std::vector<UOp>{i}, true).store(red), i})});
}

// Found by autotune/search:gpu_action_sweep_test: a variance's sum((x - mean)^2) padded summed
// mean^2 per added iteration (the reference, which checks only for UnsafePad ops, does too).
TEST(SchedulerTest, PadtoOfAReduceNeedsZerosWhereItsReadsArePadded) {
  const Renderer& ren = CudaLikeRenderer();
  auto pad = [&](const UOp& ast) {
    Scheduler k(ast, ren);
    k.ConvertLoopToGlobal();
    return k.ApplyOpt({OptOps::PADTO, 1, int64_t{32}});
  };
  // the same after GROUP split the reduce (its REDUCE then ranges over an expression of ranges)
  auto group_then_pad = [&](const UOp& ast) {
    Scheduler k(ast, ren);
    k.ConvertLoopToGlobal();
    absl::Status st = k.ApplyOpt({OptOps::GROUP, 0, int64_t{12}});
    return st.ok() ? k.ApplyOpt({OptOps::PADTO, 1, int64_t{32}}) : st;
  };
  auto sub = [](const UOp& a, const UOp& b) { return a + b * UOp::Const(dtypes::float32, -1.0); };
  absl::Status variance = pad(RowReduce([&](const UOp& x, const UOp& m) { return sub(x, m) * sub(x, m); }));
  EXPECT_TRUE(IsKernelOptError(variance)) << variance;
  EXPECT_NE(variance.message().find("adds nonzero values"), std::string_view::npos) << variance;
  absl::Status grouped = group_then_pad(RowReduce([&](const UOp& x, const UOp& m) { return sub(x, m) * sub(x, m); }));
  EXPECT_TRUE(IsKernelOptError(grouped)) << grouped;
  EXPECT_NE(grouped.message().find("adds nonzero values"), std::string_view::npos) << grouped;
  EXPECT_TRUE(group_then_pad(RowReduce([](const UOp& x, const UOp& m) { return x * m; })).ok());
  absl::Status plus_one = pad(RowReduce([](const UOp& x, const UOp&) { return x + UOp::Const(dtypes::float32, 1.0); }));
  EXPECT_TRUE(IsKernelOptError(plus_one)) << plus_one;
  // 0 * m, 0 - 0, a cast of 0, a where of zeros, sqrt(0): all 0
  EXPECT_TRUE(pad(RowReduce([](const UOp& x, const UOp& m) { return UOp::Make(Ops::SQRT, dtypes::float32, {x * m}); })).ok());
  EXPECT_TRUE(pad(RowReduce([](const UOp& x, const UOp& m) { return x * m; })).ok());
  EXPECT_TRUE(pad(RowReduce([&](const UOp& x, const UOp&) { return sub(x, x * x).cast(dtypes::float16).cast(dtypes::float32); })).ok());
  EXPECT_TRUE(pad(RowReduce([](const UOp& x, const UOp& m) {
                return UOp::Make(Ops::WHERE, dtypes::float32, {m.lt(ConstValue(0.0)), x, UOp::Const(dtypes::float32, 0.0)});
              })).ok());
  Scheduler matmul(Matmul(dtypes::float32, 16, 24, 8), ren);  // a sum of products: its K pads
  matmul.ConvertLoopToGlobal();
  EXPECT_TRUE(matmul.ApplyOpt({OptOps::PADTO, 2, int64_t{32}}).ok());
}

TEST(SchedulerTest, ApplyOptRangesReturnsTheSplitRanges) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);
  absl::StatusOr<std::vector<UOp>> r = k.ApplyOptRanges({OptOps::UPCAST, 0, int64_t{4}});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].vmax().to_int64(), 3);  // 16 / 4 = 4 left
  EXPECT_EQ((*r)[1].vmax().to_int64(), 3);  // the new UPCAST range of 4
  EXPECT_EQ(k.rngs()[0], (*r)[0]);
  absl::StatusOr<std::vector<UOp>> n = k.ApplyOptRanges({OptOps::NOLOCALS, std::nullopt, {}});
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(n->empty());
}

TEST(SchedulerTest, TensorCoreOptBuildsAWmma) {
  const Renderer& ren = CudaLikeRenderer();
  Scheduler k(Matmul(dtypes::float16, 64, 64, 64), ren);
  k.ConvertLoopToGlobal();
  absl::StatusOr<std::vector<UOp>> axes = k.ApplyOptRanges({OptOps::TC, 0, std::array<int64_t, 3>{-1, 0, 1}});
  ASSERT_TRUE(axes.ok()) << axes.status();
  EXPECT_EQ(axes->size(), 3u);
  ASSERT_NE(k.tensor_core(), nullptr);
  EXPECT_EQ(k.tensor_core()->ToString(), "WMMA_8_16_16_half_float");
  int wmmas = 0;
  for (const UOp& u : k.ast().toposort()) wmmas += u.op() == Ops::WMMA;
  EXPECT_EQ(wmmas, 1);
  Scheduler copy = k;
  ASSERT_NE(copy.tensor_core(), nullptr);
  // float inputs: tf32 is off by default on CUDA
  Scheduler f(Matmul(), ren);
  EXPECT_EQ(f.ApplyOpt({OptOps::TC, 0, std::array<int64_t, 3>{-1, 0, 1}}).message(), "no tensor core available");
  EXPECT_EQ(f.tensor_core(), nullptr);
}

TEST(SchedulerTest, OptimizedAstCarriesTheOpts) {
  CpuLike ren;
  ResetKernelNameCounts();
  Scheduler k(Matmul(), ren);
  ASSERT_TRUE(k.ApplyOpt({OptOps::UPCAST, 0, int64_t{4}}).ok());
  ASSERT_TRUE(k.ApplyOpt({OptOps::NOLOCALS, std::nullopt, {}}).ok());
  UOp out = k.GetOptimizedAst();
  KernelInfo ki = KernelInfo::FromArg(out.arg());
  EXPECT_EQ(ki.function_name(), "r_4_8_4_32");
  EXPECT_TRUE(ki.dont_use_locals);
  EXPECT_EQ(ki.applied_opts, (std::vector<Arg>{OptToArg({OptOps::UPCAST, 0, int64_t{4}}),
                                               OptToArg({OptOps::NOLOCALS, std::nullopt, {}})}));
  EXPECT_EQ(out.tag(), Arg(1));
  // a Scheduler over it starts from those opts
  Scheduler again(out.replace_tag(Arg()), ren);
  EXPECT_EQ(again.applied_opts().size(), 2u);
  EXPECT_TRUE(again.dont_use_locals());
  EXPECT_EQ(KernelInfo::FromArg(k.GetOptimizedAst().arg()).function_name(), "r_4_8_4_32n1");
}

// SIMD (our extension) only marks the kernel: the renderer must offer the width, it takes no
// axis, and it applies once.
TEST(SchedulerTest, SimdOptIsAKernelFlag) {
  CpuLike ren;
  ren.simd_widths = {8, 16};
  Scheduler k(Matmul(), ren);
  const std::vector<SInt> shape = k.full_shape();
  ASSERT_TRUE(k.ApplyOpt({OptOps::SIMD, std::nullopt, int64_t{16}}).ok());
  EXPECT_EQ(k.full_shape(), shape);
  EXPECT_EQ(k.applied_opts(), (std::vector<Opt>{{OptOps::SIMD, std::nullopt, int64_t{16}}}));
  EXPECT_EQ(k.ApplyOpt({OptOps::SIMD, std::nullopt, int64_t{8}}).message(), "SIMD applied twice");
  Scheduler fresh(Matmul(), ren);
  EXPECT_EQ(fresh.ApplyOpt({OptOps::SIMD, std::nullopt, int64_t{32}}).message(),
            "SIMD width 32 is not one of the renderer's (8, 16)");
  EXPECT_EQ(fresh.ApplyOpt({OptOps::SIMD, 0, int64_t{16}}).message(), "SIMD takes no axis");
  EXPECT_TRUE(IsKernelOptError(fresh.ApplyOpt({OptOps::SIMD, std::nullopt, {}})));
  EXPECT_TRUE(fresh.applied_opts().empty());
  CpuLike plain;  // no SIMD widths: not offered
  Scheduler p(Matmul(), plain);
  EXPECT_EQ(p.ApplyOpt({OptOps::SIMD, std::nullopt, int64_t{16}}).message(),
            "SIMD width 16 is not one of the renderer's ()");
}

// BLOCK (ours): the output loop splits into blocks of n, the loop over blocks gets an id below
// every range's, so it is axis 0 (rngs() and the loop nest follow ids); n = 1 moves the whole
// loop there. Once per kernel, CPU output loops only, n must divide the axis into >= 2 blocks.
TEST(SchedulerTest, BlockOptMovesTheLoopOverBlocksOutermost) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);  // L0 16 (rows), L1 8 (columns), R0 32
  absl::StatusOr<std::vector<UOp>> r = k.ApplyOptRanges({OptOps::BLOCK, 1, int64_t{4}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(k.full_shape(), (std::vector<SInt>{2, 16, 4, 32}));
  EXPECT_EQ(k.shape_str(), (std::vector<std::string>{"L0", "L1", "L2", "R0"}));
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(k.rngs()[0], (*r)[1]);
  EXPECT_EQ(k.rngs()[0].arg()[0].int64(), -1);  // below R0's id 0
  EXPECT_EQ(k.rngs()[2], (*r)[0]);
  EXPECT_EQ(k.ApplyOpt({OptOps::BLOCK, 1, int64_t{2}}).message(), "BLOCK applied twice");
  EXPECT_EQ(k.applied_opts(), (std::vector<Opt>{{OptOps::BLOCK, 1, int64_t{4}}}));

  Scheduler whole(Matmul(), ren);
  ASSERT_TRUE(whole.ApplyOpt({OptOps::UPCAST, 1, int64_t{2}}).ok());
  ASSERT_TRUE(whole.ApplyOpt({OptOps::BLOCK, 1, int64_t{1}}).ok());
  EXPECT_EQ(whole.full_shape(), (std::vector<SInt>{4, 16, 2, 32}));  // columns first, then rows
  EXPECT_LT(whole.rngs()[0].arg()[0].int64(), 0);
}

TEST(SchedulerTest, BlockOptPreconditions) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);
  const UOp ast = k.ast();
  auto message = [&](const Opt& o) { return std::string(k.ApplyOpt(o).message()); };
  EXPECT_EQ(message({OptOps::BLOCK, 1, int64_t{3}}), "BLOCK 3 does not divide axis 1 of size 8");
  EXPECT_EQ(message({OptOps::BLOCK, 1, int64_t{8}}), "BLOCK 8 of axis 1 of size 8 is a single block");
  EXPECT_EQ(message({OptOps::BLOCK, 2, int64_t{5}}), "BLOCK 5 does not divide axis 2 of size 32");
  EXPECT_EQ(message({OptOps::BLOCK, std::nullopt, int64_t{4}}), "BLOCK needs an axis");
  EXPECT_EQ(message({OptOps::BLOCK, 0, int64_t{0}}), "BLOCK needs a block size of at least 1");
  EXPECT_EQ(message({OptOps::BLOCK, 0, {}}), "BLOCK needs a block size of at least 1");
  EXPECT_TRUE(IsKernelOptError(k.ApplyOpt({OptOps::BLOCK, 3, int64_t{2}})));  // no axis 3
  EXPECT_TRUE(IsKernelOptError(k.ApplyOpt({OptOps::BLOCK, -1, int64_t{2}})));
  EXPECT_EQ(k.ast(), ast);
  EXPECT_TRUE(k.applied_opts().empty());
  // an upcast axis is in the register tile, not a loop
  ASSERT_TRUE(k.ApplyOpt({OptOps::UPCAST, 0, int64_t{4}}).ok());
  EXPECT_EQ(message({OptOps::BLOCK, 2, int64_t{2}}), "BLOCK is for output and reduce loops, axis 2 is neither");

  // on a GPU the output axes are the launch grid: there is no loop to order
  Scheduler gpu(Matmul(), CudaLikeRenderer());
  gpu.ConvertLoopToGlobal();
  EXPECT_EQ(gpu.ApplyOpt({OptOps::BLOCK, 0, int64_t{4}}).message(),
            "BLOCK is for CPU loops: this renderer launches the output axes as a grid");
}

// BLOCK of a reduce axis (ours): K splits into blocks, the loop over them (axis 0: the lowest id)
// closes the store, outside the REDUCE, which keeps the inner part; the store adds what earlier
// blocks stored (a load gated off in block 0). No other opt may split that loop.
TEST(SchedulerTest, BlockOfTheReductionLoopsOverKBlocksAroundTheStore) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);  // L0 16, L1 8, R0 32
  absl::StatusOr<std::vector<UOp>> r = k.ApplyOptRanges({OptOps::BLOCK, 2, int64_t{8}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(k.full_shape(), (std::vector<SInt>{4, 16, 8, 8}));
  EXPECT_EQ(k.shape_str(), (std::vector<std::string>{"L0", "L1", "L2", "R0"}));
  const UOp outer = k.rngs()[0];
  EXPECT_EQ(outer, (*r)[1]);
  EXPECT_LT(outer.arg()[0].int64(), 0);
  const UOp end = k.ast().src(0), store = end.src(0);
  EXPECT_TRUE(std::find(end.src().begin(), end.src().end(), outer) != end.src().end());
  ASSERT_EQ(store.src(1).op(), Ops::ADD);
  std::vector<UOp> reduces;
  for (const UOp& u : k.ast().toposort())
    if (u.op() == Ops::REDUCE) reduces.push_back(u);
  ASSERT_EQ(reduces.size(), 1u);
  EXPECT_EQ(Ranges(UOp::Sink(reduces[0].src().subspan(1))), std::vector<UOp>{(*r)[0]});  // the block, not the loop over blocks
  // the loop over K blocks is no axis for the other opts, nor for BLOCK or PACK's move
  EXPECT_EQ(k.ApplyOpt({OptOps::UPCAST, 0, int64_t{2}}).message(),
            "Opt(op=OptOps.UPCAST, axis=0, arg=2): axis 0 is the loop over K blocks (BLOCK)");
  EXPECT_EQ(k.ApplyOpt({OptOps::THREAD, 0, int64_t{2}}).message(),
            "Opt(op=OptOps.THREAD, axis=0, arg=2): axis 0 is the loop over K blocks (BLOCK)");
  EXPECT_EQ(k.ApplyOpt({OptOps::BLOCK, 0, int64_t{2}}).message(), "BLOCK is for output and reduce loops, axis 0 is neither");
  EXPECT_EQ(k.ApplyOpt({OptOps::BLOCK, 3, int64_t{2}}).message(), "BLOCK of the reduction applied twice");
  // the output loops still take one BLOCK; then it is outermost, the K blocks inside
  ASSERT_TRUE(k.ApplyOpt({OptOps::UNROLL, 0, int64_t{4}}).ok());
  ASSERT_TRUE(k.ApplyOpt({OptOps::BLOCK, 2, int64_t{1}}).ok());
  EXPECT_EQ(k.full_shape(), (std::vector<SInt>{8, 4, 16, 2, 4}));
  EXPECT_EQ(k.ApplyOpt({OptOps::BLOCK, 2, int64_t{2}}).message(), "BLOCK applied twice");
  // a Scheduler over the optimized AST finds the loop again
  Scheduler again(k.GetOptimizedAst().replace_tag(Arg()), ren);
  EXPECT_EQ(again.ApplyOpt({OptOps::UPCAST, 1, int64_t{2}}).message(),
            "Opt(op=OptOps.UPCAST, axis=1, arg=2): axis 1 is the loop over K blocks (BLOCK)");
}

// What BLOCK of a reduction needs: a kernel whose store is the sum itself, of the output's
// dtype, that does not read its output.
TEST(SchedulerTest, BlockOfTheReductionPreconditions) {
  CpuLike ren;
  auto message = [&](const UOp& ast, const Opt& o) {
    Scheduler k(ast, ren);
    return std::string(k.ApplyOpt(o).message());
  };
  const Opt block{OptOps::BLOCK, 2, int64_t{8}};
  UOp c = DG(16 * 8, 0), a = DG(16 * 32, 1), b = DG(32 * 8, 2);
  UOp i = UOp::Range(16, 1), j = UOp::Range(8, 2), r = UOp::Range(32, 0, AxisType::REDUCE);
  UOp mul = a.index(std::vector<UOp>{i * 32 + r}) * b.index(std::vector<UOp>{r * 8 + j});
  UOp out = c.index(std::vector<UOp>{i * 8 + j}, true);
  auto kernel = [&](const UOp& value) { return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {out.store(value), i, j})}); };
  UOp sum = UOp::Make(Ops::REDUCE, dtypes::float32, {mul, r}, Ops::ADD);
  EXPECT_EQ(message(kernel(sum * 2.0f), block), "BLOCK of a reduction needs the REDUCE stored as it is (no epilogue)");
  EXPECT_EQ(message(kernel(UOp::Make(Ops::REDUCE, dtypes::float32, {mul, r}, Ops::MAX)), block),
            "BLOCK of a reduction needs a sum (the blocks' partial sums are added)");
  UOp reads_c = mul + c.index(std::vector<UOp>{i * 8 + j});
  EXPECT_EQ(message(kernel(UOp::Make(Ops::REDUCE, dtypes::float32, {reads_c, r}, Ops::ADD)), block),
            "BLOCK of a reduction needs a kernel that does not read its output");
  UOp half_out = DG(16 * 8, 0, dtypes::float16).index(std::vector<UOp>{i * 8 + j}, true);
  EXPECT_EQ(message(UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {half_out.store(sum.cast(dtypes::float16)), i, j})}), block),
            "BLOCK of a reduction needs the REDUCE stored as it is (no epilogue)");
  EXPECT_EQ(message(kernel(sum), {OptOps::BLOCK, 2, int64_t{32}}), "BLOCK 32 of axis 2 of size 32 is a single block");
  EXPECT_EQ(message(kernel(sum), block), "");
  // two sums: one of them cannot take the other's blocks
  UOp r2 = UOp::Range(32, 3, AxisType::REDUCE);
  UOp sum2 = UOp::Make(Ops::REDUCE, dtypes::float32, {a.index(std::vector<UOp>{i * 32 + r2}), r2}, Ops::ADD);
  EXPECT_EQ(message(kernel(sum + sum2), block), "BLOCK of a reduction needs a kernel with one REDUCE, this one has 2");
}

// PACK (ours) changes nothing in the Scheduler (PackOperands makes the copy after the opts):
// it checks that the buffer is read once and not written, that the copy fits, and records itself.
TEST(SchedulerTest, PackOptPreconditions) {
  CpuLike ren;
  Scheduler k(Matmul(), ren);  // c (0) = a (1) @ b (2), 16 x 32 @ 32 x 8
  const UOp ast = k.ast();
  auto message = [&](const Opt& o) { return std::string(k.ApplyOpt(o).message()); };
  EXPECT_EQ(message({OptOps::PACK, std::nullopt, int64_t{0}}), "PACK: buffer 0 is written by the kernel");
  EXPECT_EQ(message({OptOps::PACK, std::nullopt, int64_t{3}}), "PACK: the kernel reads no buffer 3");
  EXPECT_EQ(message({OptOps::PACK, std::nullopt, int64_t{-1}}), "PACK needs a buffer number");
  EXPECT_EQ(message({OptOps::PACK, std::nullopt, {}}), "PACK needs a buffer number");
  EXPECT_EQ(message({OptOps::PACK, 1, int64_t{2}}), "PACK takes no axis, its arg is the buffer to pack");
  EXPECT_EQ(k.ast(), ast);
  EXPECT_TRUE(k.applied_opts().empty());
  ASSERT_TRUE(k.ApplyOpt({OptOps::PACK, std::nullopt, int64_t{2}}).ok());
  EXPECT_EQ(k.ast(), ast);
  EXPECT_EQ(message({OptOps::PACK, std::nullopt, int64_t{2}}), "PACK of buffer 2 applied twice");
  EXPECT_TRUE(k.ApplyOpt({OptOps::PACK, std::nullopt, int64_t{1}}).ok());

  // all of a 512 x 512 B is more than a copy may hold: PACK moves the column loop outermost
  // (as BLOCK1:1), one column's K x 1 panel per iteration
  Scheduler big(Matmul(dtypes::float32, 64, 512, 512), ren);  // L0 64, L1 512, R0 512
  const UOp columns = big.rngs()[1];
  ASSERT_TRUE(big.ApplyOpt({OptOps::PACK, std::nullopt, int64_t{2}}).ok());
  EXPECT_EQ(big.full_shape(), (std::vector<SInt>{512, 64, 512}));
  EXPECT_LT(big.rngs()[0].arg()[0].int64(), 0);
  EXPECT_EQ(big.rngs()[0].src(0), columns.src(0));
  EXPECT_EQ(big.applied_opts(), (std::vector<Opt>{{OptOps::PACK, std::nullopt, int64_t{2}}}));
  // not when a BLOCK chose the loops (rows here, which B's load does not use)
  Scheduler rows(Matmul(dtypes::float32, 64, 512, 512), ren);
  ASSERT_TRUE(rows.ApplyOpt({OptOps::BLOCK, 0, int64_t{2}}).ok());
  EXPECT_EQ(std::string(rows.ApplyOpt({OptOps::PACK, std::nullopt, int64_t{2}}).message()),
            "PACK: the copy of buffer 2 would hold more than 131072 elements: block the loops that read it (BLOCK)");
  // nor when even one column is too long: the error, and nothing moved
  Scheduler tall(Matmul(dtypes::float32, 16, 262144, 8), ren);
  const UOp tall_ast = tall.ast();
  EXPECT_EQ(std::string(tall.ApplyOpt({OptOps::PACK, std::nullopt, int64_t{2}}).message()),
            "PACK: the copy of buffer 2 would hold more than 131072 elements: block the loops that read it (BLOCK)");
  EXPECT_EQ(tall.ast(), tall_ast);

  // on a GPU a local buffer is shared memory
  Scheduler gpu(Matmul(), CudaLikeRenderer());
  EXPECT_EQ(gpu.ApplyOpt({OptOps::PACK, std::nullopt, int64_t{2}}).message(),
            "PACK is for CPU kernels: on this renderer a local buffer is shared memory");
}

// The plan: inside BLOCK's loop over blocks of B's columns, the copy spans the column loop
// of the block, the reduce and the register tile's columns, in that order (B's panel as
// [j-tiles][K][nr], the first UPCAST innermost).
TEST(SchedulerTest, PackPlanOfABlockedMatmul) {
  CpuLike ren;
  Scheduler k(Matmul(dtypes::float32, 16, 32, 64), ren);  // L0 16, L1 64, R0 32
  ASSERT_TRUE(k.ApplyOpt({OptOps::UPCAST, 1, int64_t{4}}).ok());
  ASSERT_TRUE(k.ApplyOpt({OptOps::UPCAST, 1, int64_t{2}}).ok());
  ASSERT_TRUE(k.ApplyOpt({OptOps::UNROLL, 0, int64_t{4}}).ok());
  ASSERT_TRUE(k.ApplyOpt({OptOps::BLOCK, 1, int64_t{2}}).ok());  // 4 blocks of 2 x 8 columns
  absl::StatusOr<PackPlan> plan = PlanPack(k.ast(), 2);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->outer.size(), 1u);
  EXPECT_LT(plan->outer[0].arg()[0].int64(), 0);  // the loop over blocks
  std::vector<std::pair<AxisType, int64_t>> inner;
  for (const UOp& r : plan->inner) inner.emplace_back(RangeAxisType(r), r.vmax().to_int64() + 1);
  EXPECT_EQ(inner, (std::vector<std::pair<AxisType, int64_t>>{{AxisType::LOOP, 2},
                                                               {AxisType::REDUCE, 8},
                                                               {AxisType::UNROLL, 4},
                                                               {AxisType::UPCAST, 2},
                                                               {AxisType::UPCAST, 4}}));
  EXPECT_EQ(plan->elements, 2 * 32 * 8);
  // with THREAD on B's columns each thread copies only its half: the thread range is outside
  Scheduler threaded(Matmul(dtypes::float32, 16, 32, 64), ren);
  ASSERT_TRUE(threaded.ApplyOpt({OptOps::UPCAST, 1, int64_t{4}}).ok());
  ASSERT_TRUE(threaded.ApplyOpt({OptOps::THREAD, 1, int64_t{2}}).ok());
  absl::StatusOr<PackPlan> half = PlanPack(threaded.ast(), 2);
  ASSERT_TRUE(half.ok()) << half.status();
  ASSERT_EQ(half->outer.size(), 1u);
  EXPECT_EQ(RangeAxisType(half->outer[0]), AxisType::THREAD);
  EXPECT_EQ(half->elements, 64 / 2 * 32);
  // inside a K block (BLOCK of the reduce) the copy holds one block of K
  ASSERT_TRUE(threaded.ApplyOpt({OptOps::BLOCK, 4, int64_t{8}}).ok());
  absl::StatusOr<PackPlan> k_block = PlanPack(threaded.ast(), 2);
  ASSERT_TRUE(k_block.ok()) << k_block.status();
  EXPECT_EQ(k_block->outer.size(), 2u);  // the thread and the loop over K blocks
  EXPECT_EQ(k_block->elements, 64 / 2 * 8);
  // A is read by the row loop, inside the loop over blocks of B: all of A's rows would be copied
  absl::StatusOr<PackPlan> a = PlanPack(k.ast(), 1);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->outer.empty());
  EXPECT_EQ(a->elements, 16 * 32);
}

}  // namespace
}  // namespace tg
