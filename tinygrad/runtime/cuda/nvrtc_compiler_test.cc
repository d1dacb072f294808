// File: tinygrad/runtime/cuda/nvrtc_compiler_test.cc
// Needs NVRTC (a CUDA toolkit), not a GPU: skipped, with the reason printed, where NVRTC is not
// installed.
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_copy.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A kernel shaped like the CUDA renderer's: extern "C", launch bounds, a variable.
constexpr std::string_view kAddKernel = R"(
extern "C" __global__ void __launch_bounds__(32) tg_add_n(float* out, const float* in, const int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + (float)n;
}
)";

class NvrtcCompilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    libs_ = CudaLibraryOptions::FromEnvironment();
    absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs_);
    if (!api.ok()) GTEST_SKIP() << "NVRTC is not available here: " << api.status();
    api_ = *api;
  }

  std::unique_ptr<NvrtcCompiler> Make(const std::string& arch,
                                      CudaBinaryKind output = CudaBinaryKind::kPtx) {
    absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c = NvrtcCompiler::Create(
        api_, {.arch = arch, .output = output, .include_dirs = CudaIncludeDirs(libs_)});
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? std::move(*c) : nullptr;
  }

  CudaLibraryOptions libs_;
  std::shared_ptr<const NvrtcApi> api_;
};

TEST_F(NvrtcCompilerTest, PtxNamesTheEntryAndTheTarget) {
  for (const char* arch : {"sm_75", "sm_80", "sm_89", "sm_90"}) {
    auto compiler = Make(arch);
    ASSERT_NE(compiler, nullptr);
    absl::StatusOr<std::string> ptx = compiler->Compile(kAddKernel);
    ASSERT_TRUE(ptx.ok()) << arch << ": " << ptx.status();
    EXPECT_THAT(*ptx, HasSubstr(".visible .entry tg_add_n(")) << arch;
    EXPECT_THAT(*ptx, HasSubstr(std::string(".target ") + arch + "\n")) << arch;
    EXPECT_THAT(*ptx, HasSubstr(".maxntid 32")) << arch;  // __launch_bounds__ reached PTX
    EXPECT_NE(ptx->back(), '\0') << "the PTX keeps no NUL of NVRTC's";
  }
}

TEST_F(NvrtcCompilerTest, CubinIsAnElfObject) {
  auto compiler = Make("sm_90", CudaBinaryKind::kCubin);
  ASSERT_NE(compiler, nullptr);
  absl::StatusOr<std::string> cubin = compiler->Compile(kAddKernel);
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  EXPECT_THAT(*cubin, StartsWith("\x7f"
                                 "ELF"));
  // the kernel's name is in the symbol table
  EXPECT_THAT(*cubin, HasSubstr("tg_add_n"));
}

TEST_F(NvrtcCompilerTest, CompileErrorCarriesNvrtcsLog) {
  auto compiler = Make("sm_90");
  ASSERT_NE(compiler, nullptr);
  absl::StatusOr<std::string> ptx =
      compiler->Compile("extern \"C\" __global__ void broken() { int x = ; }");
  ASSERT_FALSE(ptx.ok());
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(ptx.status().message()), HasSubstr("NVRTC_ERROR_COMPILATION"));
  EXPECT_THAT(std::string(ptx.status().message()), HasSubstr("expected an expression"));
}

// A warpgroup MMA loop whose accumulator is read while its MMA may still run (every 4th
// k-step): ptxas has to wait for the MMAs itself there, and says so. (The descriptors are
// never dereferenced: it only compiles.)
constexpr std::string_view kAccumulatorReadInFlight = R"(
extern "C" __global__ void tg_mma_loop(float* out, unsigned long long da, unsigned long long db) {
  float d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 64; ++i) {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    if (i % 4 == 3) out[i] = d[0];
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  out[threadIdx.x] = d[1];
}
)";

TEST_F(NvrtcCompilerTest, PtxasRemarksOfLostSpeedComeWithTheLog) {
  auto compiler = Make("sm_90a", CudaBinaryKind::kCubin);
  ASSERT_NE(compiler, nullptr);
  std::string log;
  absl::StatusOr<std::string> cubin = compiler->CompileUncached(kAccumulatorReadInFlight, &log);
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  std::vector<std::string> remarks = PtxasPerformanceRemarks(log);
  ASSERT_FALSE(remarks.empty()) << log;
  EXPECT_THAT(remarks[0], HasSubstr("warpgroup.wait is injected"));
  // the same loop reading its accumulators only after the last wait, at most one k-step's
  // MMAs in flight (as the generated matmuls): nothing to remark
  std::string clean(kAccumulatorReadInFlight);
  const std::string read = "if (i % 4 == 3) out[i] = d[0];";
  clean.replace(clean.find(read), read.size(), R"(asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");)");
  cubin = compiler->CompileUncached(clean, &log);
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  EXPECT_THAT(PtxasPerformanceRemarks(log), ::testing::IsEmpty()) << log;
}

TEST(PtxasPerformanceRemarksTest, PicksTheLinesThatCostSpeed) {
  EXPECT_THAT(PtxasPerformanceRemarks(""), ::testing::IsEmpty());
  EXPECT_THAT(PtxasPerformanceRemarks("ptxas info    : Used 124 registers, used 1 barriers\n"), ::testing::IsEmpty());
  EXPECT_THAT(PtxasPerformanceRemarks(
                  "ptxas info    : Used 90 registers\n"
                  "ptxas info    : (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized "
                  "due to insufficient register resources for the function 'gemm'\n"
                  "ptxas info    : (C7517) warpgroup.wait is injected in around line 9 by compiler to allow use of "
                  "registers defined by GMMA in function 'gemm'\n"),
              ::testing::ElementsAre(HasSubstr("C7510"), HasSubstr("C7517")));
}

TEST_F(NvrtcCompilerTest, UnsupportedArchListsTheSupportedOnes) {
  auto compiler = Make("sm_50");  // well formed, but older than any CUDA 12/13 NVRTC supports
  ASSERT_NE(compiler, nullptr);
  absl::StatusOr<std::string> ptx = compiler->Compile(kAddKernel);
  ASSERT_FALSE(ptx.ok());
  EXPECT_EQ(ptx.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(ptx.status().message()), HasSubstr("NVRTC_ERROR_INVALID_OPTION"));
  EXPECT_THAT(std::string(ptx.status().message()), HasSubstr("supports sm_"));
}

TEST_F(NvrtcCompilerTest, MalformedArchOrSourceIsRejectedBeforeNvrtc) {
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c =
      NvrtcCompiler::Create(api_, {.arch = "compute_90"});
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  auto compiler = Make("sm_90");
  ASSERT_NE(compiler, nullptr);
  EXPECT_EQ(compiler->Compile(std::string_view("__global__ void f() {}\0junk", 27)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(NvrtcCompilerTest, HalfHeadersComeFromTheToolkitsIncludeDir) {
  if (CudaIncludeDirs(libs_).empty())
    GTEST_SKIP() << "no CUDA include dir found (set CUDA_PATH): cuda_fp16.h can't be compiled";
  auto compiler = Make("sm_80");
  ASSERT_NE(compiler, nullptr);
  absl::StatusOr<std::string> ptx = compiler->Compile(R"(#include <cuda_fp16.h>
extern "C" __global__ void tg_half(half* out, const half* in) {
  out[threadIdx.x] = __hadd(in[threadIdx.x], __float2half(1.0f));
})");
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx, HasSubstr(".entry tg_half("));
}

// The headers are read when the compiler is made: a compile opens no file (a sandboxed worker
// child can open none). Here the include dir is a copy that is gone before the compile.
TEST_F(NvrtcCompilerTest, KernelHeadersComeFromMemoryNotFromFiles) {
  if (CudaIncludeDirs(libs_).empty())
    GTEST_SKIP() << "no CUDA include dir found (set CUDA_PATH): cuda_fp16.h can't be compiled";
  absl::StatusOr<std::vector<NvrtcHeader>> headers = ReadHeaderClosure(CudaIncludeDirs(libs_), kCudaKernelHeaders);
  ASSERT_TRUE(headers.ok()) << headers.status();
  const std::filesystem::path copy = std::filesystem::path(::testing::TempDir()) / "nvrtc_include_copy";
  std::filesystem::remove_all(copy);
  for (const NvrtcHeader& h : *headers) {
    std::filesystem::create_directories((copy / h.name).parent_path());
    std::ofstream(copy / h.name, std::ios::binary) << h.text;
  }
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> compiler =
      NvrtcCompiler::Create(api_, {.arch = "sm_90", .include_dirs = {copy.string()}, .cachelevel = 0});
  ASSERT_TRUE(compiler.ok()) << compiler.status();
  EXPECT_EQ((*compiler)->headers(), *headers);
  std::filesystem::remove_all(copy);
  absl::StatusOr<std::string> ptx = (*compiler)->Compile(R"(#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
extern "C" __global__ void tg_types(half* a, __nv_bfloat16* b, __nv_fp8_e4m3* c) {
  a[0] = __hadd(a[1], __float2half(1.0f));
  b[0] = b[1] * b[2];
  c[0] = __nv_fp8_e4m3(float(c[1]) * 2.0f);
})");
  ASSERT_TRUE(ptx.ok()) << ptx.status();
  EXPECT_THAT(*ptx, HasSubstr(".entry tg_types("));
}

TEST_F(NvrtcCompilerTest, FlagsAreTheReferencesAndIdentifyTheCompiler) {
  auto compiler = Make("sm_90");
  ASSERT_NE(compiler, nullptr);
  const std::vector<std::string>& flags = compiler->flags();
  const std::vector<std::string> include_dirs = CudaIncludeDirs(libs_);
  ASSERT_GT(flags.size(), include_dirs.size());
  for (size_t i = 0; i < include_dirs.size(); ++i) EXPECT_EQ(flags[i], "-I" + include_dirs[i]);
  EXPECT_EQ(flags[include_dirs.size()], "--gpu-architecture=sm_90");
  const bool minimal =
      api_->version_major > 12 || (api_->version_major == 12 && api_->version_minor >= 4);
  EXPECT_EQ(std::count(flags.begin(), flags.end(), "--minimal"), minimal ? 1 : 0);
  const std::string version =
      std::to_string(api_->version_major) + "." + std::to_string(api_->version_minor);
  EXPECT_THAT(compiler->compiler_id(),
              StartsWith("nvrtc " + version + " ptx --gpu-architecture=sm_90"));
  EXPECT_THAT(compiler->compiler_id(), ::testing::Not(HasSubstr("-I")));
}

TEST_F(NvrtcCompilerTest, CacheKeySeparatesArchAndOutputAndHitsInMemory) {
  auto sm80 = Make("sm_80"), sm90 = Make("sm_90"),
       sm90_cubin = Make("sm_90", CudaBinaryKind::kCubin);
  ASSERT_TRUE(sm80 && sm90 && sm90_cubin);
  EXPECT_NE(sm80->CacheKey(kAddKernel), sm90->CacheKey(kAddKernel));
  EXPECT_NE(sm90->CacheKey(kAddKernel), sm90_cubin->CacheKey(kAddKernel));
  EXPECT_NE(sm90->CacheKey(kAddKernel), sm90->CacheKey("// other\n"));
  EXPECT_EQ(sm90->CacheKey(kAddKernel), Make("sm_90")->CacheKey(kAddKernel));

  absl::StatusOr<std::string> first = sm90->Compile(kAddKernel);
  absl::StatusOr<std::string> second = sm90->Compile(kAddKernel);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(sm90->cache_stats().misses, 1);
  EXPECT_EQ(sm90->cache_stats().memory_hits, 1);
}

TEST_F(NvrtcCompilerTest, DiskCacheIsSharedAcrossCompilersInTheReferencesTable) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_nvrtc_cache_");
  ASSERT_TRUE(dir.ok());
  NvrtcCompilerOptions o{
      .arch = "sm_90", .include_dirs = CudaIncludeDirs(libs_), .cache_dir = dir->path()};
  auto a = NvrtcCompiler::Create(api_, o), b = NvrtcCompiler::Create(api_, o);
  ASSERT_TRUE(a.ok() && b.ok());
  absl::StatusOr<std::string> from_nvrtc = (*a)->Compile(kAddKernel);
  absl::StatusOr<std::string> from_disk = (*b)->Compile(kAddKernel);
  ASSERT_TRUE(from_nvrtc.ok() && from_disk.ok());
  EXPECT_EQ(*from_nvrtc, *from_disk);
  EXPECT_EQ((*b)->cache_stats().disk_hits, 1);
  struct stat st;
  EXPECT_EQ(::stat((dir->path() + "/compile_cuda_sm_90").c_str(), &st), 0)
      << "PTX is cached under the reference's table name";
}

// ** Private instances of NVRTC (nvrtc_copy.h) and compiles spread over them **

// Sources: a float kernel and a tensor-core BEAM candidate of a half matmul as the CUDA renderer
// renders it (cuda_fp16.h from memory, mma.sync).
class NvrtcCopyTest : public NvrtcCompilerTest {
 protected:
  void SetUp() override {
    NvrtcCompilerTest::SetUp();
    if (IsSkipped()) return;
    temp_ = std::filesystem::path(::testing::TempDir()) / "nvrtc_copies";
    std::filesystem::remove_all(temp_);
    std::filesystem::create_directories(temp_);
    std::ifstream in("tinygrad/runtime/cuda/testdata/tc_half_heuristic_sm90.cu");
    std::ostringstream tc;
    tc << in.rdbuf();
    ASSERT_FALSE(tc.str().empty()) << "testdata missing";
    sources_ = {std::string(kAddKernel), tc.str()};
  }

  std::unique_ptr<NvrtcCompiler> MakeOn(std::shared_ptr<const NvrtcApi> api) {
    absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c = NvrtcCompiler::Create(
        std::move(api),
        {.arch = "sm_90", .output = CudaBinaryKind::kCubin, .include_dirs = CudaIncludeDirs(libs_), .cachelevel = 0});
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // What compiling `sources_` serially on the one library gives.
  std::vector<std::string> SerialCubins() {
    std::vector<std::string> out;
    std::unique_ptr<NvrtcCompiler> c = MakeOn(api_);
    for (const std::string& src : sources_) {
      absl::StatusOr<std::string> cubin = c->CompileUncached(src);
      EXPECT_TRUE(cubin.ok()) << cubin.status();
      out.push_back(cubin.ok() ? *cubin : "");
    }
    return out;
  }

  std::filesystem::path temp_;
  std::vector<std::string> sources_;
};

TEST_F(NvrtcCopyTest, CopyIsAnotherInstanceAndLeavesNoFile) {
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> copy = LoadNvrtcCopy(*api_, temp_.string());
  ASSERT_TRUE(copy.ok()) << copy.status();
  // other code: the copy's entry points are not the library's
  EXPECT_NE((*copy)->nvrtcCompileProgram, api_->nvrtcCompileProgram);
  EXPECT_EQ((*copy)->version_major, api_->version_major);
  EXPECT_EQ((*copy)->version_minor, api_->version_minor);
  EXPECT_TRUE(std::filesystem::is_empty(temp_)) << "the copy's file and directory are deleted once loaded";
}

TEST_F(NvrtcCopyTest, CopyMakesTheSameBinaries) {
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> copy = LoadNvrtcCopy(*api_, temp_.string());
  ASSERT_TRUE(copy.ok()) << copy.status();
  std::unique_ptr<NvrtcCompiler> on_copy = MakeOn(*copy);
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
  std::unique_ptr<NvrtcCompiler> c = MakeOn(api_);
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
  std::unique_ptr<NvrtcCompiler> c = MakeOn(api_);
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
