// File: tinygrad/renderer/ptx/ptx_assemble_test.cc
// The PTX we render is accepted by the assembler: every golden linear program (testdata/, from
// tools/golden/gen_ptx_golden.py) rendered by PtxRenderer, and every golden kernel AST lowered
// with a PtxRenderer of its arch, goes through runtime/cuda's PtxCompiler (placeholders filled,
// nvJitLink to a CUBIN) for the case's arch. That is what BEAM does with each candidate under
// CUDA_PTX=1, and it needs no GPU. nvJitLink is loaded at run time: where it is missing, every
// test is skipped with the reason printed.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/golden_cases.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/renderer/ptx/ptx.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvjitlink_api.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"
#include "tinygrad/uop/kernel_info.h"

// For AddressSanitizer builds: nvJitLink leaks allocations of its own (see
// runtime/cuda/ptx_compiler_test.cc); our handles are destroyed.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/ptx/testdata";

std::string Path(const std::string& name, const std::string& ext) {
  return std::string(kTestdata) + "/" + name + ext;
}

class PtxAssembleTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::shared_ptr<const NvJitLinkApi>> api =
        NvJitLinkApi::Load(CudaLibraryOptions::FromEnvironment());
    if (api.ok()) {
      jitlink_ = *api;
    } else if (!reported_) {
      // the search log once; each skipped test then names the reason in one line
      std::cerr << "nvJitLink is not available here, nothing is assembled: " << api.status()
                << "\n";
      reported_ = true;
    }
  }

  void SetUp() override {
    if (jitlink_ == nullptr)
      GTEST_SKIP() << "nvJitLink is not available here (the search is printed above)";
  }

  // The renderer and the assembler for `arch`.
  static PtxRenderer RendererFor(const std::string& arch) {
    absl::StatusOr<CudaArch> a = ParseCudaArch(arch);
    EXPECT_TRUE(a.ok()) << a.status();
    return PtxRenderer(a.ok() ? *a : CudaArch{8, 9, 0});
  }
  static absl::StatusOr<std::string> Assemble(const std::string& arch, const std::string& ptx) {
    absl::StatusOr<std::unique_ptr<PtxCompiler>> c =
        PtxCompiler::Create(jitlink_, {.arch = arch, .assemble = true});
    if (!c.ok()) return c.status();
    return (*c)->CompileUncached(ptx);
  }
  // A CUBIN is an ELF file that defines the kernel.
  static void ExpectCubinOf(const absl::StatusOr<std::string>& cubin,
                            const std::string& function_name) {
    ASSERT_TRUE(cubin.ok()) << cubin.status();
    EXPECT_EQ(cubin->substr(0, 4),
              "\x7f"
              "ELF");
    EXPECT_NE(cubin->find(function_name), std::string::npos)
        << "no " << function_name << " in the CUBIN";
  }

  static void TearDownTestSuite() { jitlink_.reset(); }

  static std::shared_ptr<const NvJitLinkApi> jitlink_;  // null: not found
  static bool reported_;
};
std::shared_ptr<const NvJitLinkApi> PtxAssembleTest::jitlink_;
bool PtxAssembleTest::reported_ = false;

class PtxAssembleRenderedTest : public PtxAssembleTest {};

TEST_P(PtxAssembleRenderedTest, RenderedProgramAssembles) {
  const std::string arch = ReadGoldenMeta(Path(GetParam(), ".meta")).arch;
  absl::StatusOr<std::vector<UOp>> uops =
      ParseLinearProgram(ReadGoldenFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  std::string ptx = RendererFor(arch).Render(*uops);
  std::string name = KernelInfo::FromArg(uops->back().arg()).function_name();
  ExpectCubinOf(Assemble(arch, ptx), name);
}

INSTANTIATE_TEST_SUITE_P(Goldens, PtxAssembleRenderedTest,
                         ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".uops")),
                         [](const auto& info) { return info.param; });

class PtxAssembleLoweredTest : public PtxAssembleTest {};

TEST_P(PtxAssembleLoweredTest, LoweredKernelAssembles) {
  GoldenMeta meta = ReadGoldenMeta(Path(GetParam(), ".meta"));
  UOp ast = ReadGoldenAst(Path(GetParam(), ".ast"));
  ASSERT_TRUE(static_cast<bool>(ast));
  absl::StatusOr<ProgramSpec> p =
      GetProgram(GoldenAstWithOpts(ast, meta), RendererFor(meta.arch), GoldenCodegenOptions(meta));
  ASSERT_TRUE(p.ok()) << p.status();
  ExpectCubinOf(Assemble(meta.arch, p->src), p->function_name);
}

INSTANTIATE_TEST_SUITE_P(Goldens, PtxAssembleLoweredTest,
                         ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".ast")),
                         [](const auto& info) { return info.param; });

// The rendered PTX names no ISA or target of its own: one rendering assembles for every arch of
// its tensor-core table (as the reference's PTXCompiler fills them per device).
TEST_F(PtxAssembleTest, OneRenderingAssemblesForEveryArchFromSm80) {
  absl::StatusOr<std::vector<UOp>> uops =
      ParseLinearProgram(ReadGoldenFile(Path("lin_wmma_sm80_8_16_16_half_float", ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  std::string ptx = RendererFor("sm_80").Render(*uops);
  for (const char* arch : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_120"}) {
    SCOPED_TRACE(arch);
    EXPECT_EQ(RendererFor(arch).Render(*uops), ptx);
    ExpectCubinOf(Assemble(arch, ptx), "wmma");
  }
}

// A tensor core the arch lacks is the assembler's error, with its log (a renderer for sm_80 used
// for sm_75: tf32 mma.sync needs sm_80).
TEST_F(PtxAssembleTest, TensorCoreTheArchLacksIsAnAssemblerError) {
  absl::StatusOr<std::vector<UOp>> uops =
      ParseLinearProgram(ReadGoldenFile(Path("lin_wmma_sm80_8_16_8_float_float", ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  absl::StatusOr<std::string> cubin = Assemble("sm_75", RendererFor("sm_80").Render(*uops));
  ASSERT_FALSE(cubin.ok());
  EXPECT_EQ(cubin.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(cubin.status().message().find("requires .target sm_80"), std::string::npos)
      << cubin.status();
}

}  // namespace
}  // namespace tg
