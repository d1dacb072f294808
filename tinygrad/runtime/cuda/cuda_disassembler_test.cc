// File: tinygrad/runtime/cuda/cuda_disassembler_test.cc
// DEBUG=7 for CUDA binaries: PTX is shown as it is, a CUBIN goes to nvdisasm (a stand-in script
// here, found where the toolkit of NVRTC's library is), and where NVRTC and a real nvdisasm are
// installed, a compiled kernel's SASS (skipped, with the reason printed, where either is not).
#include "tinygrad/runtime/cuda/cuda_disassembler.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/nvjitlink_api.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr std::string_view kKernel = R"(
extern "C" __global__ void tg_scale(float* out, const float* in) {
  out[threadIdx.x] = in[threadIdx.x] * 2.0f;
}
)";

// An ELF header's first bytes: what DisassembleCuda takes for a CUBIN.
const std::string kElfBytes = std::string("\x7f" "ELF\x02\x01\x01", 7);

void MakeDirs(const std::string& path) { std::filesystem::create_directories(path); }

void WriteScript(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
}

bool OnPath(const std::string& tool) {
  absl::StatusOr<ProcessResult> r = RunProcess({tool, "--version"});
  return r.ok();
}

TEST(CudaDisassemblerTest, PtxIsItsOwnDisassembly) {
  const std::string ptx = ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n";
  absl::StatusOr<std::string> text = DisassembleCuda(ptx, {});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, ptx);
}

TEST(CudaDisassemblerTest, BytesThatAreNeitherAreInvalidArgument) {
  EXPECT_EQ(DisassembleCuda(std::string("\0\1\2", 3), {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CudaDisassemblerTest, ToolDirsAreTheToolkitOfNvrtcThenTheInstallDirs) {
  absl::StatusOr<TempDir> tmp = TempDir::Create("tg_cuda_tools_");
  ASSERT_TRUE(tmp.ok()) << tmp.status();
  const std::string root = tmp->path();
  MakeDirs(root + "/toolkit/bin");
  MakeDirs(root + "/toolkit/lib64");
  MakeDirs(root + "/toolkit/targets/x86_64-linux/lib");
  MakeDirs(root + "/other/bin");
  CudaLibraryOptions libs;
  libs.cuda_dirs = {root + "/other", root + "/toolkit", root + "/missing"};
  EXPECT_THAT(CudaToolDirs(libs, root + "/toolkit/lib64/libnvrtc.so.13"),
              ElementsAre(root + "/toolkit/bin", root + "/other/bin"));
  EXPECT_THAT(CudaToolDirs(libs, root + "/toolkit/targets/x86_64-linux/lib/libnvrtc.so.13"),
              ElementsAre(root + "/toolkit/bin", root + "/other/bin"));
  EXPECT_THAT(CudaToolDirs(libs, ""), ElementsAre(root + "/other/bin", root + "/toolkit/bin"));
}

TEST(CudaDisassemblerTest, ACubinGoesToNvdisasmBesideNvrtcsToolkit) {
  if (OnPath("nvdisasm")) GTEST_SKIP() << "a real nvdisasm is on PATH: it, not the stand-in, would be run";
  absl::StatusOr<TempDir> tmp = TempDir::Create("tg_cuda_tools_");
  ASSERT_TRUE(tmp.ok()) << tmp.status();
  const std::string toolkit = tmp->path() + "/toolkit";
  MakeDirs(toolkit + "/bin");
  MakeDirs(toolkit + "/lib64");
  WriteScript(toolkit + "/bin/nvdisasm", R"sh(echo "SASS of $(head -c 4 "$1" | tail -c 3)")sh");
  absl::StatusOr<std::string> text =
      DisassembleCuda(kElfBytes, CudaToolDirs(CudaLibraryOptions{.cuda_dirs = {}}, toolkit + "/lib64/libnvrtc.so.13"));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "SASS of ELF\n");
}

TEST(CudaDisassemblerTest, NoDisassemblerIsNotFoundNamingTheTools) {
  if (OnPath("nvdisasm") || OnPath("cuobjdump")) GTEST_SKIP() << "a CUDA disassembler is on PATH";
  absl::StatusOr<std::string> text = DisassembleCuda(kElfBytes, {});
  ASSERT_EQ(text.status().code(), absl::StatusCode::kNotFound) << text.status();
  EXPECT_THAT(text.status().message(), HasSubstr("nvdisasm, cuobjdump"));
}

// The real tools: NVRTC's CUBIN and nvJitLink's (from NVRTC's PTX) as SASS.
TEST(CudaDisassemblerTest, ACompiledKernelIsShownAsSass) {
  CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(libs);
  if (!nvrtc.ok()) GTEST_SKIP() << "NVRTC is not available here: " << nvrtc.status();
  const std::vector<std::string> dirs = CudaToolDirs(libs, (*nvrtc)->library.file());
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> compiler = NvrtcCompiler::Create(
      *nvrtc, {.arch = "sm_90", .output = CudaBinaryKind::kCubin, .include_dirs = CudaIncludeDirs(libs),
               .cachelevel = 0});
  ASSERT_TRUE(compiler.ok()) << compiler.status();
  absl::StatusOr<std::string> cubin = (*compiler)->Compile(kKernel);
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  absl::StatusOr<std::string> sass = DisassembleCuda(*cubin, dirs);
  if (sass.status().code() == absl::StatusCode::kNotFound) GTEST_SKIP() << sass.status();
  ASSERT_TRUE(sass.ok()) << sass.status();
  EXPECT_THAT(*sass, HasSubstr("tg_scale"));
  EXPECT_THAT(*sass, HasSubstr("EXIT")) << "SASS ends a kernel with EXIT";

  absl::StatusOr<std::shared_ptr<const NvJitLinkApi>> jitlink = NvJitLinkApi::Load(libs);
  if (!jitlink.ok()) GTEST_SKIP() << "nvJitLink is not available here: " << jitlink.status();
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> to_ptx =
      NvrtcCompiler::Create(*nvrtc, {.arch = "sm_90", .include_dirs = CudaIncludeDirs(libs), .cachelevel = 0});
  ASSERT_TRUE(to_ptx.ok()) << to_ptx.status();
  absl::StatusOr<std::string> ptx = (*to_ptx)->Compile(kKernel);
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  absl::StatusOr<std::unique_ptr<PtxCompiler>> ptxas =
      PtxCompiler::Create(*jitlink, {.arch = "sm_90", .assemble = true, .cachelevel = 0});
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<std::string> assembled = (*ptxas)->Compile(*ptx);
  ASSERT_TRUE(assembled.ok()) << assembled.status();
  absl::StatusOr<std::string> assembled_sass = DisassembleCuda(*assembled, dirs);
  ASSERT_TRUE(assembled_sass.ok()) << assembled_sass.status();
  EXPECT_THAT(*assembled_sass, HasSubstr("EXIT"));
}

}  // namespace
}  // namespace tg
