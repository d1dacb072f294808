// File: tinygrad/runtime/cuda/ptx_compiler_test.cc
// Filling the placeholders needs nothing; assembling needs nvJitLink (a CUDA toolkit), not a
// GPU: those tests are skipped, with the reason printed, where it is not installed.
#include "tinygrad/runtime/cuda/ptx_compiler.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"

// For AddressSanitizer builds: nvJitLink 13.0 leaks allocations of its own when it refuses an
// arch and when it assembles for some archs newer than sm_90. Our handles are destroyed (the
// sm_75..sm_90a cases leak nothing), so those are the library's.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }

namespace tg {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Hand-written PTX with the PTX renderer's placeholders: out[0] = in[0] + 1.
constexpr std::string_view kAddOnePtx = R"(.version VERSION
.target TARGET
.address_size 64
.visible .entry tg_add_one(.param .u64 out, .param .u64 in)
{
  .reg .b64 %rd<5>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd3], %f2;
  ret;
}
)";

TEST(PtxCompilerTest, FillsTargetAndVersion) {
  EXPECT_EQ(FillPtxPlaceholders(".version VERSION\n.target TARGET\n", *ParseCudaArch("sm_90")),
            ".version 7.8\n.target sm_90\n");
  EXPECT_EQ(FillPtxPlaceholders(".version VERSION\n.target TARGET\n", *ParseCudaArch("sm_100")),
            ".version 8.6\n.target sm_100\n");
}

TEST(PtxCompilerTest, WithoutAssemblingThePtxIsTheBinaryAndNeedsNoLibrary) {
  absl::StatusOr<std::unique_ptr<PtxCompiler>> c = PtxCompiler::Create(nullptr, {.arch = "sm_80"});
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::string> ptx = (*c)->Compile(kAddOnePtx);
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx, StartsWith(".version 7.5\n.target sm_80\n"));
  EXPECT_EQ((*c)->compiler_id(), "ptx sm_80 7.5");
}

TEST(PtxCompilerTest, AssemblingNeedsNvJitLinkAndAWellFormedArch) {
  EXPECT_EQ(PtxCompiler::Create(nullptr, {.arch = "sm_90", .assemble = true}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PtxCompiler::Create(nullptr, {.arch = "90"}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

class PtxAssemblerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    libs_ = CudaLibraryOptions::FromEnvironment();
    absl::StatusOr<std::shared_ptr<const NvJitLinkApi>> api = NvJitLinkApi::Load(libs_);
    if (!api.ok()) GTEST_SKIP() << "nvJitLink is not available here: " << api.status();
    jitlink_ = *api;
  }

  absl::StatusOr<std::string> Assemble(const std::string& arch, std::string_view ptx) {
    absl::StatusOr<std::unique_ptr<PtxCompiler>> c =
        PtxCompiler::Create(jitlink_, {.arch = arch, .assemble = true});
    if (!c.ok()) return c.status();
    return (*c)->Compile(ptx);
  }

  CudaLibraryOptions libs_;
  std::shared_ptr<const NvJitLinkApi> jitlink_;
};

TEST_F(PtxAssemblerTest, AssemblesToACubinWithoutAGpu) {
  for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"}) {
    absl::StatusOr<std::string> cubin = Assemble(arch, kAddOnePtx);
    ASSERT_TRUE(cubin.ok()) << arch << ": " << cubin.status();
    EXPECT_THAT(*cubin, StartsWith("\x7f"
                                   "ELF"))
        << arch;
    EXPECT_THAT(*cubin, HasSubstr("tg_add_one")) << arch;
  }
}

// The ISA table (arch.h) against the assembler: every arch NVRTC of the same toolkit knows
// takes the version we write for it.
TEST_F(PtxAssemblerTest, EveryArchTheToolkitKnowsAcceptsItsIsaVersion) {
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(libs_);
  if (!nvrtc.ok()) GTEST_SKIP() << "NVRTC (the list of archs) is not available: " << nvrtc.status();
  ASSERT_FALSE((*nvrtc)->supported_archs.empty());
  for (int sm : (*nvrtc)->supported_archs) {
    const std::string arch = "sm_" + std::to_string(sm);
    absl::StatusOr<std::string> cubin = Assemble(arch, kAddOnePtx);
    EXPECT_TRUE(cubin.ok()) << arch << " with .version " << PtxIsaVersion(*ParseCudaArch(arch))
                            << ": " << cubin.status();
  }
}

TEST_F(PtxAssemblerTest, AssemblerErrorCarriesPtxassLog) {
  std::string bad(kAddOnePtx);
  bad.replace(bad.find("add.f32"), 7, "bogus.f32");
  absl::StatusOr<std::string> cubin = Assemble("sm_90", bad);
  ASSERT_FALSE(cubin.ok());
  EXPECT_EQ(cubin.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(cubin.status().message());
  EXPECT_THAT(message, HasSubstr("NVJITLINK_ERROR_PTX_COMPILE"));
  EXPECT_THAT(message, HasSubstr("bogus"));
  EXPECT_THAT(message, HasSubstr("line 13"));
}

TEST_F(PtxAssemblerTest, UnknownArchIsAnError) {
  absl::StatusOr<std::string> cubin = Assemble("sm_50", kAddOnePtx);
  ASSERT_FALSE(cubin.ok());
  EXPECT_THAT(std::string(cubin.status().message()), HasSubstr("sm_50"));
}

TEST_F(PtxAssemblerTest, NvrtcsPtxAssemblesToo) {
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(libs_);
  if (!nvrtc.ok()) GTEST_SKIP() << "NVRTC is not available: " << nvrtc.status();
  auto compiler = NvrtcCompiler::Create(*nvrtc, {.arch = "sm_90"});
  ASSERT_TRUE(compiler.ok());
  absl::StatusOr<std::string> ptx =
      (*compiler)->Compile("extern \"C\" __global__ void tg_k(int* a) { a[threadIdx.x] *= 2; }");
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  absl::StatusOr<std::string> cubin = Assemble("sm_90", *ptx);  // no placeholders: unchanged
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  EXPECT_THAT(*cubin, StartsWith("\x7f"
                                 "ELF"));
}

TEST_F(PtxAssemblerTest, CachesAndIdentifiesTheAssembler) {
  absl::StatusOr<std::unique_ptr<PtxCompiler>> c =
      PtxCompiler::Create(jitlink_, {.arch = "sm_90", .assemble = true});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ((*c)->compiler_id(), "nvjitlink " + std::to_string(jitlink_->version_major) + "." +
                                     std::to_string(jitlink_->version_minor) + " cubin sm_90 7.8");
  ASSERT_TRUE((*c)->Compile(kAddOnePtx).ok());
  ASSERT_TRUE((*c)->Compile(kAddOnePtx).ok());
  EXPECT_EQ((*c)->cache_stats().memory_hits, 1);
  auto text = PtxCompiler::Create(nullptr, {.arch = "sm_90"});
  EXPECT_NE((*text)->CacheKey(kAddOnePtx), (*c)->CacheKey(kAddOnePtx));
}

}  // namespace
}  // namespace tg
