// File: tinygrad/renderer/hip/hip_test.cc
// Golden tests of HipRenderer against the reference AMDHIPRenderer (testdata/ from
// tools/golden/gen_hip_golden.py), as cuda_test.cc does for CUDA: every <case>.uops renders
// exactly <case>.hip, and every <case>.ast lowered by our GetProgram for the case's arch under
// the reference's opts applies the same opts and renders <case>.hip. Plus the arch parsing and
// per-family capabilities.
#include "tinygrad/renderer/hip/hip.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/renderer/c/golden_cases.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/hip/testdata";

std::string Path(const std::string& name, const std::string& ext) { return std::string(kTestdata) + "/" + name + ext; }

HipRenderer RendererFor(const std::string& arch) {
  absl::StatusOr<AmdArch> a = AmdArch::Parse(arch);
  TG_CHECK(a.ok()) << a.status();
  return HipRenderer(*a);
}

class HipRenderGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HipRenderGoldenTest, RendersLikeTinygrad) {
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(ReadGoldenFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  EXPECT_EQ(RendererFor(ReadGoldenMeta(Path(GetParam(), ".meta")).arch).Render(*uops),
            ReadGoldenFile(Path(GetParam(), ".hip")));
}

INSTANTIATE_TEST_SUITE_P(Goldens, HipRenderGoldenTest, ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".uops")),
                         [](const auto& info) { return info.param; });

class HipPipelineGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HipPipelineGoldenTest, LowersAndRendersLikeTinygrad) {
  ExpectLowersLikeGolden(kTestdata, GetParam(), ".hip",
                         [](const std::string& arch) { return std::make_unique<HipRenderer>(RendererFor(arch)); });
}

INSTANTIATE_TEST_SUITE_P(Goldens, HipPipelineGoldenTest, ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".ast")),
                         [](const auto& info) { return info.param; });

TEST(AmdArchTest, PicksTheReferenceFamily) {
  struct Case {
    const char* arch;
    AmdArch::Family family;
  };
  for (const Case& c : {Case{"gfx1100", AmdArch::Family::kRdna3}, Case{"gfx1101", AmdArch::Family::kRdna3},
                        Case{"gfx90a:sramecc+:xnack-", AmdArch::Family::kRdna3},  // the reference's default
                        Case{"gfx1200", AmdArch::Family::kRdna4}, Case{"gfx1201", AmdArch::Family::kRdna4},
                        Case{"gfx942", AmdArch::Family::kCdna3}, Case{"gfx942:sramecc+:xnack-", AmdArch::Family::kCdna3},
                        Case{"gfx950", AmdArch::Family::kCdna4}}) {
    absl::StatusOr<AmdArch> a = AmdArch::Parse(c.arch);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_EQ(a->name, c.arch);
    EXPECT_EQ(a->family, c.family) << c.arch;
  }
}

TEST(AmdArchTest, RejectsOtherNames) {
  for (const char* bad : {"", "gfx", "sm_89", "GFX1100", "gfx-1100", ":gfx1100", "gfx11 00"}) {
    absl::StatusOr<AmdArch> a = AmdArch::Parse(bad);
    EXPECT_FALSE(a.ok()) << bad;
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(HipRendererTest, TensorCoresPerFamily) {
  EXPECT_EQ(RendererFor("gfx1100").tensor_cores.size(), tensor_cores::AmdRdna3().size());
  EXPECT_EQ(RendererFor("gfx1201").tensor_cores.size(), tensor_cores::AmdRdna4().size());
  EXPECT_EQ(RendererFor("gfx942").tensor_cores.size(), tensor_cores::AmdCdna3().size());
  EXPECT_EQ(RendererFor("gfx950").tensor_cores.size(), tensor_cores::AmdCdna4().size());
  EXPECT_EQ(RendererFor("gfx950").tensor_cores[0].ToString(), "WMMA_16_16_128_float8_e5m2_float");
}

TEST(HipRendererTest, Capabilities) {
  HipRenderer ren = RendererFor("gfx1100");
  EXPECT_EQ(ren.device, "AMD");
  EXPECT_TRUE(ren.has_local);
  EXPECT_TRUE(ren.has_shared);
  EXPECT_EQ(ren.shared_max, 65536);
  ASSERT_TRUE(ren.global_max.has_value() && ren.local_max.has_value());
  EXPECT_EQ(*ren.global_max, (LaunchDims{2147483647, 65535, 65535}));
  EXPECT_EQ(*ren.local_max, (LaunchDims{0x8FFFFFFF, 0x8FFFFFFF, 0x8FFFFFFF}));
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::TRUNC}) EXPECT_TRUE(ren.code_for_op.contains(op)) << op;
  for (Ops op : {Ops::MAX, Ops::FDIV}) EXPECT_FALSE(ren.code_for_op.contains(op)) << op;
  EXPECT_EQ(ren.extra_matcher, &HipExtraMatcher());
}

TEST(HipRendererTest, DeviceLibrarySpellings) {
  HipRenderer ren = RendererFor("gfx1100");
  std::vector<std::string> x{"v"};
  EXPECT_EQ(ren.CodeForOp(Ops::SQRT, x, dtypes::float16), "__ocml_sqrt_f16(v)");
  EXPECT_EQ(ren.CodeForOp(Ops::EXP2, x, dtypes::float64), "__ocml_exp2_f64(v)");
  EXPECT_EQ(ren.CodeForOp(Ops::SIN, x, dtypes::float32), "__ocml_sin_f32(v)");
  EXPECT_EQ(ren.CodeForOp(Ops::RECIPROCAL, x, dtypes::float32), "(1/v)");
  EXPECT_EQ(ren.CodeForWorkitem('g', "1"), "__ockl_get_group_id(1)");
  EXPECT_EQ(ren.CodeForWorkitem('i', "0"), "(__ockl_get_group_id(0)*__ockl_get_local_size(0)+__ockl_get_local_id(0))");
}

TEST(HipRendererTest, ExtraMatcherBitcastsFp8MfmaOperands) {
  UOp a = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::fp8e4m3.vec(8).ptr(4), {}, Arg(0));
  UOp c = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.vec(4).ptr(4), {}, Arg(1));
  UOp av = a.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  UOp cv = c.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  const TensorCore& t = tensor_cores::AmdCdna3()[1];
  Arg arg = Arg::Tuple({t.ToString(), Arg::Tuple({16, 16, 32}), t.dtype_in.repr(), t.dtype_out.repr(), "AMD", 64,
                        Arg::Tuple({}), Arg::Tuple({})});
  UOp w = GraphRewrite(UOp::Make(Ops::WMMA, dtypes::float32.vec(4), {av, av, cv}, arg), HipExtraMatcher());
  ASSERT_EQ(w.op(), Ops::WMMA);
  EXPECT_EQ(w.src(0).op(), Ops::BITCAST);
  EXPECT_EQ(w.src(0).dtype(), dtypes::uint64);
  EXPECT_EQ(w.src(1).dtype(), dtypes::uint64);
}

}  // namespace
}  // namespace tg
