// File: tinygrad/renderer/cuda/cuda_test.cc
// Golden tests of CudaRenderer against the reference CUDARenderer (testdata/ from
// tools/golden/gen_cuda_golden.py):
//   - every <case>.uops (a linear program from the reference) renders exactly <case>.cu;
//   - every <case>.ast (a scheduled kernel AST) lowered by our GetProgram with a CudaRenderer of
//     the case's arch, under the same opts (the reference's hand-coded optimizer's own choice, or
//     the listed ones), applies the same opts and renders <case>.cu too.
// Plus the per-arch capabilities (the arch itself is runtime/cuda/arch.h, tested there).
#include "tinygrad/renderer/cuda/cuda.h"

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
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/cuda/testdata";

std::string Path(const std::string& name, const std::string& ext) { return std::string(kTestdata) + "/" + name + ext; }

CudaRenderer RendererFor(const std::string& arch) {
  absl::StatusOr<CudaArch> a = ParseCudaArch(arch);
  TG_CHECK(a.ok()) << a.status();
  return CudaRenderer(*a);
}

class CudaRenderGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaRenderGoldenTest, RendersLikeTinygrad) {
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(ReadGoldenFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  EXPECT_EQ(RendererFor(ReadGoldenMeta(Path(GetParam(), ".meta")).arch).Render(*uops),
            ReadGoldenFile(Path(GetParam(), ".cu")));
}

INSTANTIATE_TEST_SUITE_P(Goldens, CudaRenderGoldenTest, ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".uops")),
                         [](const auto& info) { return info.param; });

class CudaPipelineGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaPipelineGoldenTest, LowersAndRendersLikeTinygrad) {
  ExpectLowersLikeGolden(kTestdata, GetParam(), ".cu",
                         [](const std::string& arch) { return std::make_unique<CudaRenderer>(RendererFor(arch)); });
}

INSTANTIATE_TEST_SUITE_P(Goldens, CudaPipelineGoldenTest, ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".ast")),
                         [](const auto& info) { return info.param; });

TEST(CudaRendererTest, TensorCoresPerArch) {
  // the reference's tables: none before Turing, sm_75 the m16n8k8 half shapes, sm_80 adds
  // m16n8k16 half/bf16 and tf32, sm_89 adds fp8; sm_90 uses sm_89's
  EXPECT_TRUE(RendererFor("sm_70").tensor_cores.empty());
  EXPECT_EQ(RendererFor("sm_75").tensor_cores.size(), tensor_cores::CudaSm75().size());
  EXPECT_EQ(RendererFor("sm_86").tensor_cores.size(), tensor_cores::CudaSm80().size());
  EXPECT_EQ(RendererFor("sm_89").tensor_cores.size(), tensor_cores::CudaSm89().size());
  EXPECT_EQ(RendererFor("sm_90").tensor_cores.size(), tensor_cores::CudaSm89().size());
  // by compute capability: an arch-specific variant (which the reference's int(arch[3:]) could
  // not parse) has its base arch's table
  EXPECT_EQ(RendererFor("sm_90a").tensor_cores.size(), tensor_cores::CudaSm89().size());
  std::vector<std::string> names;
  for (const TensorCore& t : RendererFor("sm_90").tensor_cores) names.push_back(t.ToString());
  EXPECT_EQ(absl::StrJoin(names, " "),
            "WMMA_8_16_16_half_float WMMA_8_16_16___bf16_float WMMA_8_16_16_half_half WMMA_8_16_8_half_float "
            "WMMA_8_16_8_half_half WMMA_8_16_8_float_float WMMA_8_16_32_float8_e4m3_float "
            "WMMA_8_16_32_float8_e5m2_float");
}

TEST(CudaRendererTest, Capabilities) {
  CudaRenderer ren = RendererFor("sm_89");
  EXPECT_EQ(ren.device, "CUDA");
  EXPECT_EQ(ren.arch().name(), "sm_89");
  EXPECT_TRUE(ren.has_local);
  EXPECT_TRUE(ren.has_shared);
  EXPECT_FALSE(ren.has_threads);
  EXPECT_EQ(ren.shared_max, 49152);
  ASSERT_TRUE(ren.global_max.has_value() && ren.local_max.has_value());
  EXPECT_EQ(*ren.global_max, (LaunchDims{2147483647, 65535, 65535}));
  EXPECT_EQ(*ren.local_max, (LaunchDims{1024, 1024, 64}));
  // the C-style ops: transcendental functions native, MAX and FDIV decomposed
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::RECIPROCAL, Ops::TRUNC, Ops::WHERE})
    EXPECT_TRUE(ren.code_for_op.contains(op)) << op;
  for (Ops op : {Ops::MAX, Ops::FDIV, Ops::MULACC}) EXPECT_FALSE(ren.code_for_op.contains(op)) << op;
  EXPECT_EQ(ren.extra_matcher, &CudaExtraMatcher());
}

TEST(CudaRendererTest, LaunchIndices) {
  CudaRenderer ren = RendererFor("sm_80");
  EXPECT_EQ(ren.CodeForWorkitem('g', "2"), "blockIdx.z");
  EXPECT_EQ(ren.CodeForWorkitem('l', "1"), "threadIdx.y");
  EXPECT_EQ(ren.CodeForWorkitem('i', "0"), "(blockIdx.x*blockDim.x+threadIdx.x)");
}

TEST(CudaRendererTest, HalfFunctionsOnlyForScalarHalfAndBf16) {
  CudaRenderer ren = RendererFor("sm_80");
  std::vector<std::string> x{"v"};
  EXPECT_EQ(ren.CodeForOp(Ops::SQRT, x, dtypes::float16), "hsqrt(v)");
  EXPECT_EQ(ren.CodeForOp(Ops::EXP2, x, dtypes::bfloat16), "hexp2(v)");
  EXPECT_EQ(ren.CodeForOp(Ops::RECIPROCAL, x, dtypes::float32), "(1/v)");
  // as the reference: a vector of halves is not `in (dtypes.half, dtypes.bfloat16)`
  EXPECT_EQ(ren.CodeForOp(Ops::SQRT, x, dtypes::float16.vec(2)), "sqrt(v)");
}

TEST(CudaRendererTest, ExtraMatcherDoesFp8MathInFloat) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::fp8e4m3.ptr(4), {}, Arg(0));
  UOp x = buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  UOp r = GraphRewrite((x + x).cast(dtypes::fp8e5m2), CudaExtraMatcher());
  // e4m3 + e4m3 is a float add cast back; e4m3 -> e5m2 goes through float
  ASSERT_EQ(r.op(), Ops::CAST);
  EXPECT_EQ(r.dtype(), dtypes::fp8e5m2);
  EXPECT_EQ(r.src(0).dtype(), dtypes::float32);
  for (const UOp& u : r.toposort())
    if (GroupOp::ALU.contains(u.op())) EXPECT_EQ(u.dtype(), dtypes::float32) << u.op();
}

}  // namespace
}  // namespace tg
