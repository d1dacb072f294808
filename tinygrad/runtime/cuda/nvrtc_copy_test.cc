// File: tinygrad/runtime/cuda/nvrtc_copy_test.cc
// Private instances of NVRTC (nvrtc_copy.h) and a compiler's compiles spread over them
// (NvrtcCompiler::ReserveInstances). Needs NVRTC (a CUDA toolkit), not a GPU: skipped, with the
// reason printed, where NVRTC is not installed.
#include "tinygrad/runtime/cuda/nvrtc_copy.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"

namespace tg {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A float kernel, a half one (cuda_fp16.h from memory) and a tensor-core BEAM candidate of a
// half matmul as the CUDA renderer renders it (mma.sync).
constexpr std::string_view kAddKernel = R"(
extern "C" __global__ void __launch_bounds__(32) tg_add_n(float* out, const float* in, const int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + (float)n;
}
)";
constexpr std::string_view kHalfKernel = R"(
#include <cuda_fp16.h>
extern "C" __global__ void __launch_bounds__(256) E_256(half* data0, const half* data1) {
  data0[blockIdx.x * 256 + threadIdx.x] = data1[blockIdx.x * 256 + threadIdx.x] * (half)2.0f;
}
)";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class NvrtcCopyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    libs_ = CudaLibraryOptions::FromEnvironment();
    absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs_);
    if (!api.ok()) GTEST_SKIP() << "NVRTC is not available here: " << api.status();
    api_ = *api;
    temp_ = fs::path(testing::TempDir()) / "nvrtc_copies";
    fs::remove_all(temp_);
    fs::create_directories(temp_);
    sources_ = {std::string(kAddKernel), std::string(kHalfKernel),
                ReadFile("tinygrad/runtime/cuda/testdata/tc_half_heuristic_sm90.cu")};
    ASSERT_FALSE(sources_.back().empty()) << "testdata missing";
  }

  std::unique_ptr<NvrtcCompiler> Make(std::shared_ptr<const NvrtcApi> api) {
    absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c =
        NvrtcCompiler::Create(std::move(api), {.arch = "sm_90",
                                               .output = CudaBinaryKind::kCubin,
                                               .include_dirs = CudaIncludeDirs(libs_),
                                               .cachelevel = 0});
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // What compiling `sources_` serially on the one library gives.
  std::vector<std::string> SerialCubins() {
    std::vector<std::string> out;
    std::unique_ptr<NvrtcCompiler> c = Make(api_);
    for (const std::string& src : sources_) {
      absl::StatusOr<std::string> cubin = c->CompileUncached(src);
      EXPECT_TRUE(cubin.ok()) << cubin.status();
      out.push_back(cubin.ok() ? *cubin : "");
    }
    return out;
  }

  CudaLibraryOptions libs_;
  std::shared_ptr<const NvrtcApi> api_;
  fs::path temp_;
  std::vector<std::string> sources_;
};

TEST_F(NvrtcCopyTest, CopyIsAnotherInstanceAndLeavesNoFile) {
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> copy = LoadNvrtcCopy(*api_, temp_.string());
  ASSERT_TRUE(copy.ok()) << copy.status();
  // other code: the copy's entry points are not the library's
  EXPECT_NE((*copy)->nvrtcCompileProgram, api_->nvrtcCompileProgram);
  EXPECT_EQ((*copy)->version_major, api_->version_major);
  EXPECT_EQ((*copy)->version_minor, api_->version_minor);
  EXPECT_TRUE(fs::is_empty(temp_)) << "the copy's file and directory are deleted once loaded";
}

TEST_F(NvrtcCopyTest, CopyMakesTheSameBinaries) {
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> copy = LoadNvrtcCopy(*api_, temp_.string());
  ASSERT_TRUE(copy.ok()) << copy.status();
  std::unique_ptr<NvrtcCompiler> on_copy = Make(*copy);
  ASSERT_NE(on_copy, nullptr);
  const std::vector<std::string> serial = SerialCubins();
  for (size_t i = 0; i < sources_.size(); ++i) {
    absl::StatusOr<std::string> cubin = on_copy->CompileUncached(sources_[i]);
    ASSERT_TRUE(cubin.ok()) << cubin.status();
    EXPECT_TRUE(*cubin == serial[i]) << "kernel " << i << ": the copy's CUBIN differs";
  }
}

TEST_F(NvrtcCopyTest, ParallelCompilesMakeTheSameBinariesAsSerial) {
  const std::vector<std::string> serial = SerialCubins();
  std::unique_ptr<NvrtcCompiler> c = Make(api_);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->instances(), 1);
  ASSERT_TRUE(c->ReserveInstances(3, temp_.string()).ok());
  EXPECT_EQ(c->instances(), 3);
  EXPECT_TRUE(c->ReserveInstances(2, temp_.string()).ok()) << "already has them";
  EXPECT_EQ(c->instances(), 3);
  // four threads on three instances: each compile on an instance of its own, or a shared one
  constexpr int kThreads = 4, kRounds = 2;
  std::vector<std::vector<std::string>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r)
        for (const std::string& src : sources_) {
          absl::StatusOr<std::string> cubin = c->CompileUncached(src);
          got[t].push_back(cubin.ok() ? *cubin : std::string(cubin.status().message()));
        }
    });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t)
    for (size_t i = 0; i < got[t].size(); ++i)
      EXPECT_TRUE(got[t][i] == serial[i % sources_.size()]) << "thread " << t << ", compile " << i << ": "
                                                            << got[t][i].substr(0, 200);
}

TEST_F(NvrtcCopyTest, FailedCopyKeepsCompilingOnWhatThereIsAndSaysWhy) {
  std::unique_ptr<NvrtcCompiler> c = Make(api_);
  ASSERT_NE(c, nullptr);
  const std::string missing = (temp_ / "no" / "such" / "dir").string();
  absl::Status s = c->ReserveInstances(4, missing);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(s.message()), HasSubstr("NVRTC compiles on 1 instance, not 4"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("process-wide lock"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("cannot make a directory in " + missing));
  EXPECT_EQ(c->instances(), 1);
  absl::StatusOr<std::string> cubin = c->CompileUncached(kAddKernel);
  EXPECT_TRUE(cubin.ok()) << cubin.status();

  // a copy that cannot be written: the same, with what copy_file said
  std::ofstream(temp_ / "a_file") << "not a directory";
  s = c->ReserveInstances(2, (temp_ / "a_file").string());
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("cannot make a directory in"));

  EXPECT_EQ(LoadNvrtcCopy(*api_, "").status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace tg
