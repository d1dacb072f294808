// File: tinygrad/renderer/ptx/ptx_test.cc
// Golden tests of PtxRenderer against the reference PTXRenderer (testdata/ from
// tools/golden/gen_ptx_golden.py), as cuda_test.cc does for CUDA:
//   - every <case>.uops (a linear program from the reference) renders exactly <case>.ptx;
//   - every <case>.ast (a scheduled kernel AST) lowered by our GetProgram with a PtxRenderer of
//     the case's arch, under the same opts, applies the same opts and renders <case>.ptx too.
// Plus the per-arch capabilities, the extra matcher's rewrites and render_val's spellings.
#include "tinygrad/renderer/ptx/ptx.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/renderer/c/golden_cases.h"
#include "tinygrad/renderer/c/uops_text.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/ptx/testdata";

std::string Path(const std::string& name, const std::string& ext) { return std::string(kTestdata) + "/" + name + ext; }

PtxRenderer RendererFor(const std::string& arch) {
  absl::StatusOr<CudaArch> a = ParseCudaArch(arch);
  TG_CHECK(a.ok()) << a.status();
  return PtxRenderer(*a);
}

class PtxRenderGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PtxRenderGoldenTest, RendersLikeTinygrad) {
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearUOps(ReadGoldenFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  EXPECT_EQ(RendererFor(ReadGoldenMeta(Path(GetParam(), ".meta")).arch).Render(*uops),
            ReadGoldenFile(Path(GetParam(), ".ptx")));
}

INSTANTIATE_TEST_SUITE_P(Goldens, PtxRenderGoldenTest, ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".uops")),
                         [](const auto& info) { return info.param; });

class PtxPipelineGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PtxPipelineGoldenTest, LowersAndRendersLikeTinygrad) {
  GoldenMeta meta = ReadGoldenMeta(Path(GetParam(), ".meta"));
  UOp ast = ReadGoldenAst(Path(GetParam(), ".ast"));
  ASSERT_TRUE(static_cast<bool>(ast));
  absl::StatusOr<ProgramSpec> p =
      GetProgram(GoldenAstWithOpts(ast, meta), RendererFor(meta.arch), GoldenCodegenOptions(meta));
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<std::string> want, got;
  for (const Arg& a : meta.applied) want.push_back(a.repr());
  for (const Arg& a : p->applied_opts) got.push_back(a.repr());
  EXPECT_EQ(absl::StrJoin(got, " "), absl::StrJoin(want, " "));
  EXPECT_EQ(WithoutKernelNameSuffix(p->src), WithoutKernelNameSuffix(ReadGoldenFile(Path(GetParam(), ".ptx"))));
}

INSTANTIATE_TEST_SUITE_P(Goldens, PtxPipelineGoldenTest, ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".ast")),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tg
