// File: tinygrad/codegen/pipeline_test.cc
// Tests of GetProgram's contract (errors, KernelInfo handling, ProgramSpec fields, estimates)
// and of the no-opt kernel naming. Names and estimates are the reference's for the same ASTs.
#include "tinygrad/codegen/pipeline.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/stack_probe.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/program.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/rewrite_trace.h"

namespace tg {
namespace {

class CpuRenderer : public Renderer {
 public:
  CpuRenderer() {
    device = "CPU";
    has_local = false;
    global_max = LaunchDims{1, 0, 0};
    code_for_op = OpSet{Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::RECIPROCAL};
  }
  std::string Render(std::span<const UOp> uops) const override {
    return "kernel of " + std::to_string(uops.size()) + " uops";
  }
};

UOp DG(int64_t size, int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(size), {}, slot); }

// x.sum(axis=1) of a 64x32 float tensor (design note 4.5 (b)).
UOp SumAst() {
  UOp c0 = DG(64, 0), c2 = UOp::Range(64, 1), c4 = DG(2048, 1), c7 = UOp::Range(32, 0, AxisType::REDUCE);
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {c4.index(std::vector<UOp>{c2 * 32 + c7}), c7}, Ops::ADD);
  UOp st = c0.index(std::vector<UOp>{c2}, true).store(red);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {st, c2})});
}

const CodegenOptions kNoOpt{.noopt = true};

TEST(PipelineTest, ProgramSpecOfASum) {
  ResetKernelNameCounts();
  CpuRenderer ren;
  absl::StatusOr<ProgramSpec> p = GetProgram(SumAst(), ren, kNoOpt);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->function_name, "r_64_32");
  EXPECT_EQ(p->device, "CPU");
  EXPECT_EQ(p->src, "kernel of " + std::to_string(p->uops.size()) + " uops");
  EXPECT_EQ(p->globals, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(p->outs, (std::vector<int64_t>{0}));
  EXPECT_EQ(p->ins, (std::vector<int64_t>{1}));
  EXPECT_TRUE(p->vars.empty());
  ASSERT_TRUE(p->local_size.has_value());
  // reference Estimates: ops=2048 (one ADD per element), lds=8448, mem=8448
  EXPECT_EQ(p->estimates.ops, UOp::Const(dtypes::index, 2048));
  EXPECT_EQ(p->estimates.lds, UOp::Const(dtypes::index, 8448));
  EXPECT_EQ(p->estimates.mem, UOp::Const(dtypes::index, 8448));
  // the same function name again gets a counter
  absl::StatusOr<ProgramSpec> again = GetProgram(SumAst(), ren, kNoOpt);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->function_name, "r_64_32n1");
}

// max_devectorized_nodes: a program that big stops after devectorize (ResourceExhausted), one
// under it is the program lowered without the limit.
TEST(PipelineTest, AProgramPastMaxDevectorizedNodesStopsAfterDevectorize) {
  CpuRenderer ren;
  absl::StatusOr<ProgramSpec> whole = GetProgram(SumAst(), ren, kNoOpt);
  ASSERT_TRUE(whole.ok()) << whole.status();
  CodegenOptions limited = kNoOpt;
  limited.max_devectorized_nodes = static_cast<int64_t>(whole->uops.size()) * 2;
  absl::StatusOr<ProgramSpec> under = GetProgram(SumAst(), ren, limited);
  ASSERT_TRUE(under.ok()) << under.status();
  EXPECT_EQ(under->uops.size(), whole->uops.size());
  EXPECT_EQ(under->src, whole->src);

  limited.max_devectorized_nodes = 2;
  std::vector<std::string> passes;
  absl::StatusOr<UOp> sink = FullRewriteToSinkTraced(SumAst(), ren, true, limited,
                                                     [&](std::string_view name, const UOp&) { passes.emplace_back(name); });
  ASSERT_FALSE(sink.ok());
  EXPECT_EQ(sink.status().code(), absl::StatusCode::kResourceExhausted) << sink.status();
  EXPECT_THAT(std::string(sink.status().message()), ::testing::HasSubstr("too many uops"));
  ASSERT_FALSE(passes.empty());
  EXPECT_EQ(passes.back(), "devectorize");  // nothing lowered past it
  absl::StatusOr<ProgramSpec> over = GetProgram(SumAst(), ren, limited);
  EXPECT_EQ(over.status().code(), absl::StatusCode::kResourceExhausted) << over.status();
}

TEST(PipelineTest, NamedKernelKeepsItsName) {
  CpuRenderer ren;
  UOp ast = SumAst().replace_arg(KernelInfo{.name = "my_sum"}.ToArg());
  absl::StatusOr<ProgramSpec> p = GetProgram(ast, ren, kNoOpt);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->name, "my_sum");
}

TEST(PipelineTest, OptsToApplyAreAppliedAndBeamAloneFallsThrough) {
  CpuRenderer ren;
  {
    KernelInfo ki;
    ki.opts_to_apply = std::vector<Arg>{Arg::Tuple({"UPCAST", 0, 4})};
    absl::StatusOr<ProgramSpec> p = GetProgram(SumAst().replace_arg(ki.ToArg()), ren, kNoOpt);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->applied_opts, ki.opts_to_apply);
  }
  {
    // an opt that does not apply: the KernelOptError, naming the opt
    KernelInfo ki;
    ki.opts_to_apply = std::vector<Arg>{Arg::Tuple({"LOCAL", 0, 4})};
    absl::StatusOr<ProgramSpec> p = GetProgram(SumAst().replace_arg(ki.ToArg()), ren, kNoOpt);
    EXPECT_TRUE(IsKernelOptError(p.status())) << p.status();
    EXPECT_EQ(p.status().message(), "Opt(op=OptOps.LOCAL, axis=0, arg=4): locals needed for opt");
  }
  {
    // BEAM runs in autotune/: it is no input of GetProgram, whatever the environment says
    Config c = GetConfig();
    c.beam = 2;
    ScopedConfig scoped(c);
    EXPECT_TRUE(GetProgram(SumAst(), ren, kNoOpt).ok());
  }
}

constexpr size_t kSmallStack = size_t{256} << 10;

// A 16x16x16 float matmul upcast 16x16 and unrolled 16: 256 accumulators of 16 products, so
// the lowering meets VECTORIZE/CONTRACT/GEP nodes with hundreds to thousands of sources.
UOp MatmulAst() {
  UOp out = DG(256, 0), a = DG(256, 1), b = DG(256, 2);
  UOp i = UOp::Range(16, 0), j = UOp::Range(16, 1), k = UOp::Range(16, 2, AxisType::REDUCE);
  UOp mul = a.index(std::vector<UOp>{i * 16 + k}) * b.index(std::vector<UOp>{k * 16 + j});
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {mul, k}, Ops::ADD);
  UOp st = out.index(std::vector<UOp>{i * 16 + j}, true).store(red);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {st, i, j})});
}

// out = a + b over a 4x16x16 float tensor, every axis upcast: one 1024-lane vector of each.
UOp AddAst() {
  UOp out = DG(1024, 0), a = DG(1024, 1), b = DG(1024, 2);
  UOp i = UOp::Range(4, 0), j = UOp::Range(16, 1), k = UOp::Range(16, 2);
  UOp idx = i * 256 + j * 16 + k;
  UOp st = out.index(std::vector<UOp>{idx}, true).store(a.index(std::vector<UOp>{idx}) + b.index(std::vector<UOp>{idx}));
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {st, i, j, k})});
}

// The lowering's stack use does not grow with the number of sources of a node (the pattern
// matcher once recursed per source, and these kernels needed 0.25 to 1 MiB of stack, 4 times
// that under ASan): big-upcast kernels lower on a 256 KiB stack, smaller than the threads a
// BEAM search may lower on. The most they used is printed for the record.
TEST(PipelineTest, BigUpcastKernelsLowerOnASmallStack) {
  CpuRenderer ren;
  struct Case {
    UOp ast;
    std::vector<Arg> opts;
  };
  const Case cases[] = {
      {MatmulAst(), {Arg::Tuple({"UPCAST", 0, 16}), Arg::Tuple({"UPCAST", 0, 16}), Arg::Tuple({"UNROLL", 0, 16})}},
      {AddAst(), {Arg::Tuple({"UPCAST", 0, 4}), Arg::Tuple({"UPCAST", 0, 16}), Arg::Tuple({"UPCAST", 0, 16})}},
  };
  for (const Case& c : cases) {
    KernelInfo ki;
    ki.opts_to_apply = c.opts;
    absl::StatusOr<ProgramSpec> p;
    size_t used = RunOnSmallStack(kSmallStack, [&] { p = GetProgram(c.ast.replace_arg(ki.ToArg()), ren, kNoOpt); });
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->applied_opts, ki.opts_to_apply);
    std::printf("lowering %s used %zu KiB of stack\n", p->function_name.c_str(), used >> 10);
  }
}

// TRACK_MATCH_STATS=2: the kernel's rewrites form one trace group named after the kernel, as
// the reference's track_rewrites on get_program.
TEST(PipelineTest, TraceGroupIsNamedAfterTheKernel) {
  CpuRenderer ren;
  ResetRewriteTrace();
  SetTrackMatchStats(2);
  absl::StatusOr<ProgramSpec> p = GetProgram(SumAst(), ren, kNoOpt);
  SetTrackMatchStats(0);
  ASSERT_TRUE(p.ok()) << p.status();
  RewriteTrace t = SnapshotRewriteTrace();
  ResetRewriteTrace();
  ASSERT_EQ(t.groups, std::vector<std::string>{StripAnsi(p->name)});
  ASSERT_GE(t.rewrites.size(), 5u);
  std::vector<std::string> passes;
  for (const TracedRewrite& r : t.rewrites) {
    EXPECT_EQ(r.group, 0u);
    passes.push_back(r.name);
  }
  EXPECT_NE(std::find(passes.begin(), passes.end(), "early movement ops"), passes.end())
      << absl::StrJoin(passes, ", ");
  EXPECT_GT(t.num_matches(), 0u);
}

// out[r0 * 2**33 + r1] = 1 over two loops of 2**33: the simplifier merges them into one range
// of 2**66 iterations. The reference counts with Python ints; a count past int64 is a number
// here too, not a CHECK-failure (lowering_fuzz_test's train_cnn mutants found it: a decoded task
// may hold such ranges, and its program's source is what fails then, to compile).
TEST(PipelineTest, EstimatesCountPastInt64) {
  CpuRenderer ren;
  const int64_t n = int64_t{1} << 33;
  UOp r0 = UOp::Range(n, 0), r1 = UOp::Range(n, 1);
  UOp st = DG(16, 0).index(std::vector<UOp>{r0 * n + r1}, true).store(UOp::Const(dtypes::float32, 1.0));
  UOp ast = UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {st, r0, r1})});
  absl::StatusOr<ProgramSpec> p = GetProgram(ast, ren, kNoOpt);
  ASSERT_TRUE(p.ok()) << p.status();
  // 2**66 stores of 4 bytes
  EXPECT_EQ(p->estimates.lds, UOp::Const(dtypes::index, i128{1} << 68));
}

TEST(PipelineTest, RejectsANonSinkAst) {
  CpuRenderer ren;
  EXPECT_EQ(GetProgram(UOp::Const(dtypes::float32, 1.0), ren).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PostrangeTest, KernelNamesAreColoredByAxisType) {
  ResetKernelNameCounts();
  CpuRenderer ren;
  UOp named = Scheduler(SumAst(), ren).GetOptimizedAst();
  KernelInfo ki = KernelInfo::FromArg(named.arg());
  EXPECT_EQ(ki.function_name(), "r_64_32");
  // tinygrad: "r" + BLACK "_" + WHITE "64" + BLACK "_" + red "32" + BLACK ""
  EXPECT_EQ(ki.name, "r\x1b[90m_\x1b[0m\x1b[97m64\x1b[0m\x1b[90m_\x1b[0m\x1b[31m32\x1b[0m\x1b[90m\x1b[0m");
  EXPECT_EQ(named.tag(), Arg(1));
}

TEST(ProgramTest, PrintUopsLooksLikeTinygrad) {
  UOp g = DG(4, 0);
  std::vector<UOp> uops{g, UOp::Const(dtypes::int32, 0), UOp::Sink({})};
  std::string s = PrintUops(uops);
  EXPECT_NE(s.find("   0 Ops.DEFINE_GLOBAL"), std::string::npos) << s;
  EXPECT_NE(s.find("dtypes.float.ptr(4)"), std::string::npos) << s;
}

}  // namespace
}  // namespace tg
