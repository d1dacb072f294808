// File: tinygrad/codegen/late_passes_test.cc
// Tests of the expander, gpudims and linearizer passes. Expected values are the reference's
// answers on the same graphs (tinygrad 35900290): the PrettyPrint strings are its print(uop).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/codegen/expander.h"
#include "tinygrad/codegen/gpudims.h"
#include "tinygrad/codegen/linearizer.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

UOp R(int64_t n, int64_t id, AxisType t = AxisType::LOOP) { return UOp::Range(n, id, t); }
UOp Buf(int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(64), {}, slot); }
UOp Idx(const UOp& buf, const UOp& i, bool ptr = false) { return buf.index(std::vector<UOp>{i}, ptr); }
UOp F(double v) { return UOp::Const(dtypes::float32, v); }
UOp C(int64_t v) { return UOp::Const(dtypes::index, v); }

UOp RunExpander(const UOp& sink) {
  static const auto* const kPm = new PatternMatcher(Sym() + PmPreExpander() + PmGroupForReduce() + Expander());
  return GraphRewrite(sink, *kPm, {.name = "expander"});
}

TEST(ExpanderTest, UpcastStoreBecomesVectorStore) {
  UOp r0 = R(4, 0, AxisType::UPCAST), r1 = R(8, 1);
  UOp st = Idx(Buf(0), r1 * 4 + r0, true).store(Idx(Buf(1), r1 * 4 + r0) * 2.0);
  std::vector<UOp> rngs{r1, r0};
  UOp out = RunExpander(UOp::Sink({End(st, rngs)}));
  EXPECT_EQ(PrettyPrint(out), R"(UOp(Ops.SINK, dtypes.void, arg=None, src=(
  UOp(Ops.END, dtypes.void, arg=None, src=(
    UOp(Ops.STORE, dtypes.void, arg=None, src=(
      UOp(Ops.INDEX, dtypes.float.ptr(64).vec(4), arg=None, src=(
        UOp(Ops.VECTORIZE, dtypes.float.ptr(64).vec(4), arg=None, src=(
          x4:=UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), arg=0, src=()),
          x4,
          x4,
          x4,)),
        x5:=UOp(Ops.ADD, dtypes.index.vec(4), arg=None, src=(
          UOp(Ops.VECTORIZE, dtypes.index.vec(4), arg=None, src=(
            x7:=UOp(Ops.MUL, dtypes.index, arg=None, src=(
              x8:=UOp(Ops.RANGE, dtypes.index, arg=(1, AxisType.LOOP), src=(
                UOp(Ops.CONST, dtypes.index, arg=8, src=()),)),
              UOp(Ops.CONST, dtypes.index, arg=4, src=()),)),
            x7,
            x7,
            x7,)),
          UOp(Ops.VCONST, dtypes.index.vec(4), arg=(0, 1, 2, 3), src=()),)),)),
      UOp(Ops.MUL, dtypes.float.vec(4), arg=None, src=(
        UOp(Ops.INDEX, dtypes.float.vec(4), arg=None, src=(
          UOp(Ops.VECTORIZE, dtypes.float.ptr(64).vec(4), arg=None, src=(
            x15:=UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), arg=1, src=()),
            x15,
            x15,
            x15,)),
          x5,)),
        UOp(Ops.CONST, dtypes.float.vec(4), arg=2.0, src=()),)),)),
    x8,)),)))");
}

TEST(ExpanderTest, UnrollReduceBecomesHorizontalReduce) {
  UOp ru = R(4, 0, AxisType::UNROLL), r1 = R(8, 1);
  UOp red = Reduce(Idx(Buf(1), r1 * 4 + ru), std::span<const UOp>(&ru, 1), Ops::ADD);
  UOp st = Idx(Buf(0), r1, true).store(red);
  UOp out = RunExpander(UOp::Sink({End(st, std::span<const UOp>(&r1, 1))}));
  EXPECT_EQ(PrettyPrint(out), R"(UOp(Ops.SINK, dtypes.void, arg=None, src=(
  UOp(Ops.END, dtypes.void, arg=None, src=(
    UOp(Ops.STORE, dtypes.void, arg=None, src=(
      UOp(Ops.INDEX, dtypes.float.ptr(64), arg=None, src=(
        UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), arg=0, src=()),
        x4:=UOp(Ops.RANGE, dtypes.index, arg=(1, AxisType.LOOP), src=(
          UOp(Ops.CONST, dtypes.index, arg=8, src=()),)),)),
      UOp(Ops.REDUCE, dtypes.float, arg=Ops.ADD, src=(
        UOp(Ops.INDEX, dtypes.float.vec(4), arg=None, src=(
          UOp(Ops.VECTORIZE, dtypes.float.ptr(64).vec(4), arg=None, src=(
            x9:=UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), arg=1, src=()),
            x9,
            x9,
            x9,)),
          UOp(Ops.ADD, dtypes.index.vec(4), arg=None, src=(
            UOp(Ops.VECTORIZE, dtypes.index.vec(4), arg=None, src=(
              x12:=UOp(Ops.MUL, dtypes.index, arg=None, src=(
                x4,
                UOp(Ops.CONST, dtypes.index, arg=4, src=()),)),
              x12,
              x12,
              x12,)),
            UOp(Ops.VCONST, dtypes.index.vec(4), arg=(0, 1, 2, 3), src=()),)),)),)),)),
    x4,)),)))");
}

struct GroupedDimsCase {
  std::vector<int64_t> dims;
  LaunchDims max;
  bool reverse;
  std::vector<std::string> renders;
  std::vector<std::pair<std::string, int64_t>> specials;  // sorted by name
};

TEST(GpudimsTest, GetGroupedDimsMatchesReference) {
  const std::vector<GroupedDimsCase> cases = {
      {{4096, 4096}, {65535, 65535, 65535}, true, {"gidx1", "gidx0"}, {{"gidx0", 4096}, {"gidx1", 4096}}},
      {{2, 3, 4, 5}, {16, 16, 16}, false, {"(gidx0%2)", "(gidx0//2)", "gidx1", "gidx2"},
       {{"gidx0", 6}, {"gidx1", 4}, {"gidx2", 5}}},
      {{100000}, {65535, 65535, 65535}, false, {"(gidx1+gidx0*2)"}, {{"gidx0", 50000}, {"gidx1", 2}}},
      {{3, 5, 7}, {1024, 1024, 64}, false, {"gidx0", "gidx1", "gidx2"},
       {{"gidx0", 3}, {"gidx1", 5}, {"gidx2", 7}}},
  };
  for (const GroupedDimsCase& c : cases) {
    std::vector<UOp> dims;
    for (int64_t d : c.dims) dims.push_back(C(d));
    std::vector<UOp> idxs = GetGroupedDims("gidx", dims, c.max, c.reverse);
    std::vector<std::string> renders;
    std::vector<std::pair<std::string, int64_t>> specials;
    for (const UOp& x : idxs) {
      renders.push_back(Render(Simplify(x)));
      for (const UOp& u : x.toposort())
        if (u.op() == Ops::SPECIAL) specials.emplace_back(u.arg().str(), u.src(0).arg().int64());
    }
    std::sort(specials.begin(), specials.end());
    specials.erase(std::unique(specials.begin(), specials.end()), specials.end());
    EXPECT_EQ(renders, c.renders) << c.dims.size() << " dims";
    EXPECT_EQ(specials, c.specials) << c.dims.size() << " dims";
  }
}

// Launch dims that cannot fit: a prime axis beyond every limit, more symbolic dims than the
// launch has. tinygrad raises "cannot limit dim"; we answer an error before add gpudims.
TEST(GpudimsTest, CheckLaunchDimsRefusesDimsThatCannotFit) {
  // CUDA's launch limits
  struct : Renderer {
    std::string Render(std::span<const UOp>) const override { return ""; }
  } ren;
  ren.global_max = LaunchDims{0x7FFFFFFF, 65535, 65535};
  ren.local_max = LaunchDims{1024, 1024, 64};
  auto kernel = [](std::vector<UOp> bounds) {
    DType p = dtypes::float32.ptr(1 << 20);
    UOp g0 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 0);
    std::vector<UOp> rngs;
    UOp idx = C(0);
    for (size_t i = 0; i < bounds.size(); ++i) {
      rngs.push_back(UOp::Make(Ops::RANGE, dtypes::index, {bounds[i]}, Arg::Tuple({static_cast<int>(i), AxisType::GLOBAL})));
      idx = idx + rngs.back();
    }
    UOp st = UOp::Make(Ops::STORE, dtypes::void_, {UOp::Make(Ops::INDEX, p, {g0, idx}), UOp::Const(dtypes::float32, 1.0)});
    std::vector<UOp> end{st};
    end.insert(end.end(), rngs.begin(), rngs.end());
    return UOp::Make(Ops::SINK, dtypes::void_, {UOp::Make(Ops::END, dtypes::void_, end)}, KernelInfo{}.ToArg());
  };
  EXPECT_TRUE(CheckLaunchDims(kernel({C(4096), C(4096)}), ren).ok());
  // the last dim goes to x: 3 * 65537 fits x, the other 65537 (a prime) neither y nor z
  absl::Status s = CheckLaunchDims(kernel({C(65537), C(65537), C(3)}), ren);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("cannot limit global dims (65537, 65537, 3)"), absl::string_view::npos) << s;
  EXPECT_TRUE(CheckLaunchDims(kernel({C(3), C(65537)}), ren).ok());
  UOp n = UOp::Make(Ops::DEFINE_VAR, dtypes::index, {}, Arg::Tuple({"n", 1, 8}));
  s = CheckLaunchDims(kernel({n, n + 1, n + 2, n + 3}), ren);
  EXPECT_NE(s.message().find("cannot limit 4 symbolic global dims"), absl::string_view::npos) << s;
  // dims whose products pass int64 (found by UBSan: grouping and splitting multiplied them
  // unchecked): refused, as the reference's unbounded ints refuse them
  s = CheckLaunchDims(kernel({C(int64_t{1} << 32), C(int64_t{1} << 31), C(3)}), ren);
  EXPECT_NE(s.message().find("cannot limit global dims"), absl::string_view::npos) << s;
  s = CheckLaunchDims(kernel({C(int64_t{1} << 62), C(int64_t{1} << 40)}), ren);
  EXPECT_NE(s.message().find("cannot limit global dims"), absl::string_view::npos) << s;
  // and GetProgram answers it
  absl::StatusOr<ProgramSpec> p = GetProgram(kernel({C(65537), C(65537), C(3)}).replace_arg(KernelInfo{.opts_to_apply = std::vector<Arg>{}}.ToArg()), ren);
  EXPECT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("cannot limit global dims"), absl::string_view::npos) << p.status();
}

TEST(LinearizerTest, SplitEndsNestsLargestRangeInnermost) {
  UOp ra = R(4, 0), rb = R(8, 1);
  UOp st = Idx(Buf(0), ra * 8 + rb, true).store(F(1.0));
  UOp e = UOp::Make(Ops::END, dtypes::void_, {st, ra, rb});
  UOp se = GraphRewrite(e, PmSplitEnds());
  ASSERT_EQ(se.op(), Ops::END);
  EXPECT_EQ(se.src(1), ra);
  ASSERT_EQ(se.src(0).op(), Ops::END);
  EXPECT_EQ(se.src(0).src(1), rb);
}

TEST(LinearizerTest, SiblingLoopsAreOrderedAndLinearized) {
  UOp rc = R(4, 0), rd = R(4, 1);
  UOp s1 = End(Idx(Buf(0), rc, true).store(F(1.0)), std::span<const UOp>(&rc, 1));
  UOp s2 = End(Idx(Buf(1), rd, true).store(F(2.0)), std::span<const UOp>(&rd, 1));
  UOp sink = UOp::Sink({s1, s2});
  CFGContext cfg(sink);
  ASSERT_EQ(cfg.edges().size(), 1u);
  EXPECT_EQ(cfg.edges().at(rd), s1);  // reference: RANGE 1 waits for the END of RANGE 0
  UOp out = GraphRewrite(sink, PmAddControlFlow(), {.bottom_up = true, .ctx = RewriteCtx::Of(cfg)});
  std::vector<std::string> got;
  for (const UOp& u : Linearize(out)) {
    std::string s(OpName(u.op()));
    if (u.op() == Ops::RANGE || u.op() == Ops::CONST || u.op() == Ops::DEFINE_GLOBAL) s += " " + u.arg().repr();
    got.push_back(s);
  }
  const std::vector<std::string> want = {
      "DEFINE_GLOBAL 0", "DEFINE_GLOBAL 1", "CONST 1.0", "CONST 2.0", "CONST 4",
      "RANGE (0, AxisType.LOOP)", "INDEX", "STORE", "END",
      "RANGE (1, AxisType.LOOP)", "INDEX", "STORE", "END", "SINK"};
  EXPECT_EQ(got, want);
}

TEST(LinearizerTest, GatedStoreGetsIfEndif) {
  UOp r = R(4, 0);
  UOp gate = r.lt(2);
  UOp idx = UOp::Make(Ops::INDEX, dtypes::float32.ptr(64), {Buf(0), r, gate});
  UOp st = idx.store(F(1.0));
  std::vector<UOp> lst = LinearizeCleanups(Linearize(UOp::Sink({End(st, std::span<const UOp>(&r, 1))})));
  std::vector<Ops> ops;
  for (const UOp& u : lst) ops.push_back(u.op());
  auto it = std::find(ops.begin(), ops.end(), Ops::STORE);
  ASSERT_NE(it, ops.end());
  ASSERT_NE(it, ops.begin());
  EXPECT_EQ(*(it - 1), Ops::IF);
  EXPECT_EQ(*(it + 1), Ops::ENDIF);
}

}  // namespace
}  // namespace tg
