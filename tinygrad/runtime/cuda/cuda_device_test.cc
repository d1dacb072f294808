// File: tinygrad/runtime/cuda/cuda_device_test.cc
// The CUDA device (context, buffers, programs) against two drivers:
//   fake: fake_cuda_driver.cc, a stand-in libcuda that runs everywhere (the plumbing: symbol
//         binding, error names and codes, argument passing, copies, events, leaks);
//   gpu:  the real driver, on a machine with an NVIDIA GPU; skipped, with the reason printed,
//         where there is no libcuda or no GPU. The kernels then come from NVRTC (and nvJitLink).
#include <cmath>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/buffer.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/driver_api.h"
#include "tinygrad/runtime/cuda/graph.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/program.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"
#include "tinygrad/runtime/cuda/tensor_map.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// out[i] = in[i] + n for i < n: the fake driver's add_n does the same.
constexpr std::string_view kAddKernel = R"(
extern "C" __global__ void __launch_bounds__(32) add_n(float* out, const float* in, const int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + (float)n;
}
)";
constexpr char kFakeImage[] = "tg-fake-module\nadd_n\nfault\n";

// A library of the fake driver in this test's runfiles; "" outside Bazel.
std::string FakeDriverPath(const std::string& file) {
  const char *srcdir = std::getenv("TEST_SRCDIR"), *ws = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || ws == nullptr) return "";
  return std::string(srcdir) + "/" + ws + "/tinygrad/runtime/cuda/" + file;
}

template <typename T>
std::span<const std::byte> Bytes(const std::vector<T>& v) {
  return std::as_bytes(std::span(v));
}
template <typename T>
std::span<std::byte> Bytes(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

class CudaDeviceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
    if (fake()) {
      libs.driver_path = FakeDriverPath("libfake_cuda.so");
      if (libs.driver_path.empty())
        GTEST_SKIP() << "the fake driver is found through Bazel's runfiles";
    }
    absl::StatusOr<std::shared_ptr<const CudaDriverApi>> api = CudaDriverApi::Load(libs);
    if (!api.ok()) {
      ASSERT_FALSE(fake()) << api.status();
      GTEST_SKIP() << "no CUDA driver here: " << api.status();
    }
    ASSERT_TRUE(!fake() || (*api)->library.loaded_from() == libs.driver_path);
    absl::StatusOr<int> count = CudaContext::DeviceCount(**api);
    ASSERT_TRUE(count.ok()) << count.status();
    if (*count == 0) GTEST_SKIP() << "the CUDA driver sees no GPU";
    absl::StatusOr<std::shared_ptr<CudaContext>> ctx = CudaContext::Open(*api, 0);
    ASSERT_TRUE(ctx.ok()) << ctx.status();
    api_ = *api;
    ctx_ = *ctx;
    libs_ = libs;
  }

  bool fake() const { return GetParam() == "fake"; }

  // The add_n kernel as this driver loads it: the fake's image, or NVRTC's PTX for the GPU.
  std::string AddImage() {
    if (fake()) return kFakeImage;
    absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(libs_);
    if (!nvrtc.ok()) {
      ADD_FAILURE() << "a GPU without NVRTC: " << nvrtc.status();
      return "";
    }
    auto compiler = NvrtcCompiler::Create(*nvrtc, {.arch = ctx_->info().arch()});
    absl::StatusOr<std::string> ptx = (*compiler)->Compile(kAddKernel);
    EXPECT_TRUE(ptx.ok()) << ptx.status();
    return ptx.ok() ? *ptx : "";
  }

  CudaLibraryOptions libs_;
  std::shared_ptr<const CudaDriverApi> api_;
  std::shared_ptr<CudaContext> ctx_;
};

TEST_P(CudaDeviceTest, DescribesTheGpu) {
  const CudaDeviceInfo& info = ctx_->info();
  EXPECT_FALSE(info.name.empty());
  EXPECT_GE(info.cc_major, 7);
  EXPECT_EQ(info.arch(), "sm_" + std::to_string(info.cc_major) + std::to_string(info.cc_minor));
  EXPECT_GT(info.sm_count, 0);
  EXPECT_GT(info.total_memory, 0u);
  EXPECT_GE(info.driver_version, 11000);
  EXPECT_EQ(info.warp_size, 32);
  EXPECT_GE(info.max_threads_per_block, 1024);
  EXPECT_GE(info.max_shared_per_block_optin, info.max_shared_per_block);
  EXPECT_THAT(info.Describe(), HasSubstr(info.name));
  std::printf("%s\n", info.Describe().c_str());
  if (fake()) {
    EXPECT_EQ(info.name, "tinygrad-cc fake GPU");
    EXPECT_EQ(info.arch(), "sm_90");
    EXPECT_EQ(info.sm_count, 132);
    EXPECT_EQ(info.total_memory, size_t{80} << 30);
    EXPECT_EQ(info.driver_version, 13000);
    EXPECT_EQ(info.max_block_dims, (std::array<int, 3>{1024, 1024, 64}));
    EXPECT_EQ(info.max_grid_dims, (std::array<int, 3>{2147483647, 65535, 65535}));
    EXPECT_EQ(info.max_shared_per_block, 49152);
    EXPECT_EQ(info.l2_cache_bytes, 50 << 20);
  }
}

TEST_P(CudaDeviceTest, AnOrdinalTheDriverDoesNotHaveIsUnavailable) {
  absl::StatusOr<std::shared_ptr<CudaContext>> ctx = CudaContext::Open(api_, 4096);
  EXPECT_EQ(ctx.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(ctx.status().message()), HasSubstr("no CUDA device 4096"));
}

TEST_P(CudaDeviceTest, CopiesRoundTripWithOffsetsAndRangeChecks) {
  absl::StatusOr<CudaBuffer> buf = CudaBuffer::Allocate(ctx_, 64 * sizeof(float));
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_NE(buf->address(), 0u);
  std::vector<float> in(64), out(64, -1.0f);
  for (int i = 0; i < 64; ++i) in[i] = static_cast<float>(i) * 0.5f;
  ASSERT_TRUE(buf->CopyIn(Bytes(in)).ok());
  ASSERT_TRUE(buf->CopyOut(Bytes(out)).ok());
  EXPECT_EQ(in, out);

  std::vector<float> part = {100.0f, 101.0f};
  ASSERT_TRUE(buf->CopyIn(Bytes(part), 10 * sizeof(float)).ok());
  std::vector<float> back(3);
  ASSERT_TRUE(buf->CopyOut(Bytes(back), 9 * sizeof(float)).ok());
  EXPECT_EQ(back, (std::vector<float>{4.5f, 100.0f, 101.0f}));

  EXPECT_EQ(buf->CopyIn(Bytes(part), 63 * sizeof(float)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(buf->CopyOut(Bytes(out), 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(buf->CopyOut(Bytes(out), SIZE_MAX).code(), absl::StatusCode::kInvalidArgument);

  absl::StatusOr<CudaBuffer> empty = CudaBuffer::Allocate(ctx_, 0);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_TRUE(empty->CopyIn({}).ok());
}

TEST_P(CudaDeviceTest, CopiesFromBufferToBufferWithOffsetsAndRangeChecks) {
  absl::StatusOr<CudaBuffer> a = CudaBuffer::Allocate(ctx_, 8 * sizeof(float));
  absl::StatusOr<CudaBuffer> b = CudaBuffer::Allocate(ctx_, 8 * sizeof(float));
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<float> in = {0, 1, 2, 3, 4, 5, 6, 7}, zeros(8, 0.0f), out(8);
  ASSERT_TRUE(a->CopyIn(Bytes(in)).ok());
  ASSERT_TRUE(b->CopyIn(Bytes(zeros)).ok());
  // a[2..5) -> b[4..7)
  ASSERT_TRUE(b->CopyFrom(*a, 2 * sizeof(float), 4 * sizeof(float), 3 * sizeof(float)).ok());
  ASSERT_TRUE(b->CopyOut(Bytes(out)).ok());
  EXPECT_EQ(out, (std::vector<float>{0, 0, 0, 0, 2, 3, 4, 0}));
  EXPECT_EQ(b->CopyFrom(*a, 0, 4 * sizeof(float), 5 * sizeof(float)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(b->CopyFrom(*a, 6 * sizeof(float), 0, 3 * sizeof(float)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(b->CopyFrom(*a, 8 * sizeof(float), 0, 0).ok()) << "nothing to copy";
}

TEST_P(CudaDeviceTest, FillSetsEveryByte) {
  absl::StatusOr<CudaBuffer> buf = CudaBuffer::Allocate(ctx_, 1000);
  ASSERT_TRUE(buf.ok()) << buf.status();
  ASSERT_TRUE(buf->Fill(0xab).ok());
  std::vector<uint8_t> out(1000);
  ASSERT_TRUE(buf->CopyOut(Bytes(out)).ok());
  EXPECT_EQ(out, std::vector<uint8_t>(1000, 0xab));
  absl::StatusOr<CudaBuffer> empty = CudaBuffer::Allocate(ctx_, 0);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->Fill(1).ok());
}

TEST_P(CudaDeviceTest, OutOfMemoryIsResourceExhaustedNamingTheError) {
  absl::StatusOr<CudaBuffer> huge = CudaBuffer::Allocate(ctx_, size_t{1} << 46);  // 64 TiB
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(huge.status().message()), HasSubstr("CUDA_ERROR_OUT_OF_MEMORY (2)"));
  EXPECT_EQ(CudaErrorCode(huge.status()), 2);
  EXPECT_EQ(CudaErrorCode(absl::InternalError("x")), std::nullopt);
}

TEST_P(CudaDeviceTest, LaunchesWithBuffersAndAVariableAndTimesIt) {
  const std::string image = AddImage();
  ASSERT_FALSE(image.empty());
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(ctx_, "add_n", image);
  ASSERT_TRUE(prg.ok()) << prg.status();
  EXPECT_EQ(prg->function_name(), "add_n");
  auto out = CudaBuffer::Allocate(ctx_, 64 * sizeof(float));
  auto in = CudaBuffer::Allocate(ctx_, 64 * sizeof(float));
  ASSERT_TRUE(out.ok() && in.ok());
  std::vector<float> host_in(64), host_out(64, -1.0f);
  for (int i = 0; i < 64; ++i) host_in[i] = static_cast<float>(i);
  ASSERT_TRUE(in->CopyIn(Bytes(host_in)).ok());
  ASSERT_TRUE(out->CopyIn(Bytes(host_out)).ok());

  const int32_t n = 50;  // fewer than the 64 threads launched: the tail stays -1
  absl::StatusOr<double> seconds =
      prg->Launch(std::vector<CudaBuffer::CUdeviceptr>{out->address(), in->address()},
                  std::vector<int32_t>{n}, {.grid = {2, 1, 1}, .block = {32, 1, 1}}, /*wait=*/true);
  ASSERT_TRUE(seconds.ok()) << seconds.status();
  EXPECT_GE(*seconds, 0.0);
  EXPECT_TRUE(std::isfinite(*seconds));
  ASSERT_TRUE(out->CopyOut(Bytes(host_out)).ok());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(host_out[i], i < n ? i + 50.0f : -1.0f) << i;
}

TEST_P(CudaDeviceTest, LaunchWithoutWaitingIsSeenAfterSynchronize) {
  const std::string image = AddImage();
  ASSERT_FALSE(image.empty());
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(ctx_, "add_n", image);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto buf = CudaBuffer::Allocate(ctx_, 32 * sizeof(float));
  ASSERT_TRUE(buf.ok());
  std::vector<float> host(32, 1.0f);
  ASSERT_TRUE(buf->CopyIn(Bytes(host)).ok());
  // in place: out and in are the same buffer
  absl::StatusOr<double> queued =
      prg->Launch(std::vector<CudaBuffer::CUdeviceptr>{buf->address(), buf->address()},
                  std::vector<int32_t>{32}, {.block = {32, 1, 1}}, false);
  ASSERT_TRUE(queued.ok()) << queued.status();
  EXPECT_EQ(*queued, 0.0);
  ASSERT_TRUE(ctx_->Synchronize().ok());
  ASSERT_TRUE(buf->CopyOut(Bytes(host)).ok());
  EXPECT_EQ(host, std::vector<float>(32, 33.0f));
}

TEST_P(CudaDeviceTest, BadLaunchConfigurationsAreInvalidArgument) {
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(ctx_, "add_n", AddImage());
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto buf = CudaBuffer::Allocate(ctx_, 4);
  ASSERT_TRUE(buf.ok());
  std::vector<CudaBuffer::CUdeviceptr> bufs = {buf->address(), buf->address()};
  std::vector<int32_t> vals = {0};
  absl::StatusOr<double> zero = prg->Launch(bufs, vals, {.grid = {0, 1, 1}}, true);
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(zero.status().message()), HasSubstr("zero dimension"));
  // 2048 threads in a block: more than any NVIDIA GPU (and add_n's launch bounds) allows
  absl::StatusOr<double> big = prg->Launch(bufs, vals, {.block = {2048, 1, 1}}, true);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument) << big.status();
  EXPECT_THAT(std::string(big.status().message()), HasSubstr("cuLaunchKernel(add_n)"));
  EXPECT_TRUE(ctx_->Synchronize().ok()) << "a refused launch leaves the context usable";
}

TEST_P(CudaDeviceTest, DynamicSharedMemoryPastTheDefaultRaisesTheLimitUpToTheOptIn) {
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(ctx_, "add_n", AddImage());
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto buf = CudaBuffer::Allocate(ctx_, 32 * sizeof(float));
  ASSERT_TRUE(buf.ok());
  std::vector<float> host(32, 1.0f);
  ASSERT_TRUE(buf->CopyIn(Bytes(host)).ok());
  std::vector<CudaBuffer::CUdeviceptr> bufs = {buf->address(), buf->address()};
  const uint32_t optin = static_cast<uint32_t>(ctx_->info().max_shared_per_block_optin);
  ASSERT_GT(optin, 64u * 1024) << "every GPU from Volta on opts in to more than 64 KiB";
  // past the 48 KiB any function may take: the launch raises the function's limit first
  absl::StatusOr<double> ran = prg->Launch(bufs, std::vector<int32_t>{32},
                                           {.block = {32, 1, 1}, .shared_bytes = 64 * 1024}, true);
  ASSERT_TRUE(ran.ok()) << ran.status();
  ASSERT_TRUE(buf->CopyOut(Bytes(host)).ok());
  EXPECT_EQ(host, std::vector<float>(32, 33.0f));
  // past the opt-in maximum: refused, naming the call, and the context stays usable
  absl::StatusOr<double> refused = prg->Launch(
      bufs, std::vector<int32_t>{32}, {.block = {32, 1, 1}, .shared_bytes = optin + 1024}, true);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << refused.status();
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("cuFuncSetAttribute(add_n"));
  EXPECT_TRUE(ctx_->Synchronize().ok());
}

TEST_P(CudaDeviceTest, AnImageThatDoesNotLoadCarriesTheJitLog) {
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(
      ctx_, "add_n", ".version 7.8\n.target sm_75\n.address_size 64\nthis is not ptx;\n");
  ASSERT_FALSE(prg.ok());
  EXPECT_EQ(prg.status().code(), absl::StatusCode::kInvalidArgument) << prg.status();
  EXPECT_THAT(std::string(prg.status().message()), HasSubstr("cuModuleLoadData: CUDA_ERROR_"));
  EXPECT_THAT(std::string(prg.status().message()), HasSubstr("line"));  // the JIT's log
  EXPECT_TRUE(CudaErrorCode(prg.status()).has_value());
  EXPECT_EQ(CudaProgram::Load(ctx_, "add_n", "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_P(CudaDeviceTest, AKernelTheImageLacksIsNotFound) {
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(ctx_, "no_such_kernel", AddImage());
  ASSERT_FALSE(prg.ok());
  EXPECT_EQ(prg.status().code(), absl::StatusCode::kNotFound) << prg.status();
  EXPECT_THAT(std::string(prg.status().message()),
              HasSubstr("cuModuleGetFunction(no_such_kernel)"));
}

TEST_P(CudaDeviceTest, AGraphRunsItsLaunchesInOrderAndTakesNewArgumentsBetweenLaunches) {
  const std::string image = AddImage();
  ASSERT_FALSE(image.empty());
  absl::StatusOr<CudaProgram> prg = CudaProgram::Load(ctx_, "add_n", image);
  ASSERT_TRUE(prg.ok()) << prg.status();
  auto a = CudaBuffer::Allocate(ctx_, 32 * sizeof(float));
  auto b = CudaBuffer::Allocate(ctx_, 32 * sizeof(float));
  auto c = CudaBuffer::Allocate(ctx_, 32 * sizeof(float));
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  std::vector<float> host(32);
  for (int i = 0; i < 32; ++i) host[i] = static_cast<float>(i);
  ASSERT_TRUE(a->CopyIn(Bytes(host)).ok());
  const CudaLaunchDims dims{.block = {32, 1, 1}};
  using Ptrs = std::vector<CudaBuffer::CUdeviceptr>;

  absl::StatusOr<CudaGraph> graph = CudaGraph::Create(ctx_);
  ASSERT_TRUE(graph.ok()) << graph.status();
  // b = a + 32, then c = b + 32; the arguments' storage is gone before the launch (the driver
  // keeps copies)
  absl::StatusOr<size_t> first =
      graph->AddKernel(*prg, CudaKernelArgs(Ptrs{b->address(), a->address()}, {{32}}), dims, {});
  ASSERT_TRUE(first.ok()) << first.status();
  const size_t after[] = {*first};
  absl::StatusOr<size_t> second =
      graph->AddKernel(*prg, CudaKernelArgs(Ptrs{c->address(), b->address()}, {{32}}), dims, after);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(graph->SetKernel(0, CudaKernelArgs({}, {}), dims).code(),
            absl::StatusCode::kFailedPrecondition);  // not instantiated yet
  ASSERT_TRUE(graph->Instantiate().ok());
  const size_t bad[] = {7};
  EXPECT_EQ(graph->AddKernel(*prg, CudaKernelArgs({}, {}), dims, bad).status().code(),
            absl::StatusCode::kFailedPrecondition);  // nothing is added once instantiated
  absl::StatusOr<double> seconds = graph->Launch(/*wait=*/true);
  ASSERT_TRUE(seconds.ok()) << seconds.status();
  EXPECT_GE(*seconds, 0.0);
  ASSERT_TRUE(c->CopyOut(Bytes(host)).ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(host[i], i + 64.0f) << i;

  // the second launch now reads a, for 16 elements; the first is skipped (a zero grid)
  std::vector<float> minus(32, -1.0f);
  ASSERT_TRUE(b->CopyIn(Bytes(minus)).ok());
  ASSERT_TRUE(
      graph->SetKernel(*second, CudaKernelArgs(Ptrs{c->address(), a->address()}, {{16}}), dims)
          .ok());
  ASSERT_TRUE(graph
                  ->SetKernel(*first, CudaKernelArgs(Ptrs{b->address(), a->address()}, {{32}}),
                              {.grid = {0, 1, 1}, .block = {32, 1, 1}})
                  .ok());
  ASSERT_TRUE(graph->Launch(/*wait=*/false).ok());
  ASSERT_TRUE(ctx_->Synchronize().ok());
  ASSERT_TRUE(c->CopyOut(Bytes(host)).ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(host[i], i < 16 ? i + 16.0f : i + 64.0f) << i;
  ASSERT_TRUE(b->CopyOut(Bytes(host)).ok());
  EXPECT_EQ(host, minus);
  // and runs again once it has sizes
  ASSERT_TRUE(
      graph->SetKernel(*first, CudaKernelArgs(Ptrs{b->address(), a->address()}, {{32}}), dims)
          .ok());
  ASSERT_TRUE(graph->Launch(/*wait=*/true).ok());
  ASSERT_TRUE(b->CopyOut(Bytes(host)).ok());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(host[i], i + 32.0f) << i;
  EXPECT_EQ(graph->SetKernel(2, CudaKernelArgs({}, {}), dims).code(),
            absl::StatusCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(Drivers, CudaDeviceTest, ::testing::Values("fake", "gpu"),
                         [](const auto& info) { return info.param; });

// ** the fake driver alone **

class FakeCudaDriverTest : public ::testing::Test {
 protected:
  absl::StatusOr<std::shared_ptr<const CudaDriverApi>> LoadFake(const std::string& file) {
    CudaLibraryOptions libs;
    libs.driver_path = FakeDriverPath(file);
    if (libs.driver_path.empty()) return absl::FailedPreconditionError("not run by Bazel");
    return CudaDriverApi::Load(libs);
  }
  void SetUp() override {
    if (FakeDriverPath("libfake_cuda.so").empty())
      GTEST_SKIP() << "the fake driver is found through Bazel's runfiles";
  }
  // The fake's own counters, looked up like any entry point.
  int LiveObjects(const CudaDriverApi& api) {
    int (*live)() = nullptr;
    EXPECT_TRUE(api.library.Bind(live, {"tgFakeCudaLiveObjects"}).ok());
    return live ? live() : -1;
  }
};

TEST_F(FakeCudaDriverTest, EverythingIsReleasedWhenItsOwnersGo) {
  auto api = LoadFake("libfake_cuda.so");
  ASSERT_TRUE(api.ok()) << api.status();
  int (*refs)() = nullptr;
  ASSERT_TRUE((*api)->library.Bind(refs, {"tgFakeCudaContextRefs"}).ok());
  const int live_before = LiveObjects(**api), refs_before = refs();
  {
    auto ctx = CudaContext::Open(*api, 0);
    ASSERT_TRUE(ctx.ok());
    auto buf = CudaBuffer::Allocate(*ctx, 16);
    auto prg = CudaProgram::Load(*ctx, "add_n", kFakeImage);
    ASSERT_TRUE(buf.ok() && prg.ok());
    CudaBuffer moved = std::move(*buf);
    ASSERT_TRUE(prg->Launch(std::vector<CudaBuffer::CUdeviceptr>{moved.address(), moved.address()},
                            std::vector<int32_t>{0}, {}, true)
                    .ok());
    EXPECT_EQ(LiveObjects(**api), live_before + 2);  // the buffer and the module; no event left
    ctx->reset();  // the buffer and the program still hold the context
    EXPECT_EQ(refs(), refs_before + 1);
  }
  EXPECT_EQ(LiveObjects(**api), live_before);
  EXPECT_EQ(refs(), refs_before);
}

TEST_F(FakeCudaDriverTest, AKernelFaultShowsAtTheNextSyncAsInternalWithItsCode) {
  auto api = LoadFake("libfake_cuda.so");
  ASSERT_TRUE(api.ok()) << api.status();
  auto ctx = CudaContext::Open(*api, 0);
  ASSERT_TRUE(ctx.ok());
  auto prg = CudaProgram::Load(*ctx, "fault", kFakeImage);
  ASSERT_TRUE(prg.ok());
  ASSERT_TRUE(prg->Launch({}, {}, {}, /*wait=*/false).ok());
  absl::Status sync = (*ctx)->Synchronize();
  EXPECT_EQ(sync.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(sync.message()), HasSubstr("CUDA_ERROR_ILLEGAL_ADDRESS (700)"));
  EXPECT_EQ(CudaErrorCode(sync), 700);
  // every later call fails too, as in a poisoned context
  EXPECT_EQ(CudaBuffer::Allocate(*ctx, 4).status().code(), absl::StatusCode::kInternal);
  void (*reset)() = nullptr;
  ASSERT_TRUE((*api)->library.Bind(reset, {"tgFakeCudaReset"}).ok());
  reset();
}

// Two GPUs: a buffer of one copied into a buffer of the other by the driver (cuMemcpyPeer);
// a driver that cannot reach one from the other answers an error naming it.
TEST_F(FakeCudaDriverTest, BuffersOfTwoGpusCopyPeerToPeer) {
  auto api = LoadFake("libfake_cuda.so");
  ASSERT_TRUE(api.ok()) << api.status();
  void (*set_devices)(int) = nullptr;
  int (*peer_copies)() = nullptr;
  void (*fail_peer_copies)(int) = nullptr;
  ASSERT_TRUE((*api)->library.Bind(set_devices, {"tgFakeCudaSetDevices"}).ok());
  ASSERT_TRUE((*api)->library.Bind(peer_copies, {"tgFakeCudaPeerCopies"}).ok());
  ASSERT_TRUE((*api)->library.Bind(fail_peer_copies, {"tgFakeCudaFailPeerCopies"}).ok());
  set_devices(2);
  auto gpu0 = CudaContext::Open(*api, 0);
  auto gpu1 = CudaContext::Open(*api, 1);
  ASSERT_TRUE(gpu0.ok() && gpu1.ok()) << gpu0.status() << gpu1.status();
  EXPECT_NE((*gpu0)->handle(), (*gpu1)->handle());
  auto src = CudaBuffer::Allocate(*gpu0, 4 * sizeof(int32_t));
  auto dst = CudaBuffer::Allocate(*gpu1, 4 * sizeof(int32_t));
  ASSERT_TRUE(src.ok() && dst.ok());
  std::vector<int32_t> in = {7, -8, 9, 10}, out(4);
  ASSERT_TRUE(src->CopyIn(Bytes(in)).ok());
  const int before = peer_copies();
  ASSERT_TRUE(dst->CopyFrom(*src, 0, 0, 16).ok());
  EXPECT_EQ(peer_copies(), before + 1);
  ASSERT_TRUE(dst->CopyOut(Bytes(out)).ok());
  EXPECT_EQ(out, in);

  fail_peer_copies(217);
  absl::Status s = dst->CopyFrom(*src, 0, 0, 16);
  fail_peer_copies(0);
  set_devices(1);
  EXPECT_THAT(std::string(s.message()), HasSubstr("cuMemcpyPeer: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (217)"));
  EXPECT_EQ(CudaErrorCode(s), 217);
  EXPECT_EQ(peer_copies(), before + 1);
}

TEST_F(FakeCudaDriverTest, ADriverWithoutAGpuIsUnavailableNamingTheError) {
  auto api = LoadFake("libfake_cuda_no_device.so");
  ASSERT_FALSE(api.ok());
  EXPECT_EQ(api.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(api.status().message()), HasSubstr("cuInit: CUDA_ERROR_NO_DEVICE (100)"));
}

TEST_F(FakeCudaDriverTest, AMissingEntryPointIsNotFoundNamingIt) {
  auto api = LoadFake("libfake_cuda_without_launch.so");
  ASSERT_FALSE(api.ok());
  EXPECT_EQ(api.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(api.status().message()), HasSubstr("has no symbol cuLaunchKernel"));
}

TEST_F(FakeCudaDriverTest, TensorMapsAreCheckedThenPassedByValueAfterTheBuffers) {
  auto api = LoadFake("libfake_cuda.so");
  ASSERT_TRUE(api.ok()) << api.status();
  auto ctx = CudaContext::Open(*api, 0);
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  auto a = CudaBuffer::Allocate(*ctx, 256 * 128 * 2);
  auto out = CudaBuffer::Allocate(*ctx, 64);
  ASSERT_TRUE(a.ok() && out.ok());
  const TiledTensorMap2D good{.element = TensorMapElement::kFloat16,
                              .address = a->address(),
                              .cols = 256,
                              .rows = 128,
                              .row_stride_bytes = 512,
                              .box_cols = 64,
                              .box_rows = 64};
  absl::StatusOr<cuda_abi::CUtensorMap> map = EncodeTiledTensorMap(**api, good);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->opaque[0], a->address());

  // each rule names its field; the driver is not asked
  auto refused = [&](TiledTensorMap2D m, const std::string& says) {
    absl::StatusOr<cuda_abi::CUtensorMap> r = EncodeTiledTensorMap(**api, m);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << says;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(says));
  };
  TiledTensorMap2D m = good;
  m.address += 8;
  refused(m, "not a multiple of 16 bytes");
  m = good;
  m.row_stride_bytes = 520;
  refused(m, "row stride of 520 bytes");
  m = good;
  m.row_stride_bytes = 256;  // less than a row of 256 halves
  refused(m, "at least a row (512 bytes)");
  m = good;
  m.box_rows = 300;
  refused(m, "a box of 300 x 64");
  m = good;
  m.box_cols = 100;  // 200 bytes: past the swizzle's 128
  refused(m, "a box row of 200 bytes: must be a multiple of 16");
  m = good;
  m.box_cols = 128;
  refused(m, "the 128-byte swizzle takes at most 128");
  m.swizzle_128b = false;
  EXPECT_TRUE(EncodeTiledTensorMap(**api, m).ok()) << "without the swizzle a 256-byte row is fine";

  // a launch passes the maps after the buffers and variables, as whole 128-byte values
  auto prg = CudaProgram::Load(*ctx, "tma_box", "tg-fake-module\ntma_box\n");
  ASSERT_TRUE(prg.ok()) << prg.status();
  void (*record)(int) = nullptr;
  void (*last)(char*, int, unsigned*, unsigned long long*) = nullptr;
  ASSERT_TRUE((*api)->library.Bind(record, {"tgFakeCudaRecordParams"}).ok());
  ASSERT_TRUE((*api)->library.Bind(last, {"tgFakeCudaLastLaunch"}).ok());
  record(3);
  m = good;
  m.address = a->address() + 16 * 1024;
  absl::StatusOr<cuda_abi::CUtensorMap> second = EncodeTiledTensorMap(**api, m);
  ASSERT_TRUE(second.ok()) << second.status();
  const std::vector<cuda_abi::CUtensorMap> maps = {*map, *second};
  absl::StatusOr<double> ran = prg->Launch(std::vector<CudaBuffer::CUdeviceptr>{out->address()},
                                           {}, {.block = {128, 1, 1}}, true, maps);
  ASSERT_TRUE(ran.ok()) << ran.status();
  unsigned dims[6];
  unsigned long long params[3];
  last(nullptr, 0, dims, params);
  record(0);
  EXPECT_EQ(params[0], out->address());
  EXPECT_EQ(params[1], a->address());
  EXPECT_EQ(params[2], a->address() + 16 * 1024);
}

TEST_F(FakeCudaDriverTest, ADriverBeforeCuda12HasNoTensorMaps) {
  auto api = LoadFake("libfake_cuda_without_tensor_maps.so");
  ASSERT_TRUE(api.ok()) << "the entry point is optional: " << api.status();
  absl::StatusOr<cuda_abi::CUtensorMap> map = EncodeTiledTensorMap(
      **api, {.address = 4096, .cols = 64, .rows = 64, .row_stride_bytes = 128, .box_cols = 64,
              .box_rows = 64});
  EXPECT_EQ(map.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(map.status().message()),
              HasSubstr("has no cuTensorMapEncodeTiled: tensor maps need a CUDA 12 driver"));
}

TEST_F(FakeCudaDriverTest, AGraphIsLaunchedAsOneCallAndReleasedWithItsOwner) {
  auto api = LoadFake("libfake_cuda.so");
  ASSERT_TRUE(api.ok()) << api.status();
  ASSERT_TRUE((*api)->HasGraphs());
  int (*graph_launches)() = nullptr;
  ASSERT_TRUE((*api)->library.Bind(graph_launches, {"tgFakeCudaGraphLaunches"}).ok());
  auto ctx = CudaContext::Open(*api, 0);
  ASSERT_TRUE(ctx.ok());
  auto prg = CudaProgram::Load(*ctx, "add_n", kFakeImage);
  auto buf = CudaBuffer::Allocate(*ctx, 16);
  ASSERT_TRUE(prg.ok() && buf.ok());
  const int live_before = LiveObjects(**api), launches_before = graph_launches();
  {
    auto graph = CudaGraph::Create(*ctx);
    ASSERT_TRUE(graph.ok()) << graph.status();
    using Ptrs = std::vector<CudaBuffer::CUdeviceptr>;
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE(
          graph
              ->AddKernel(*prg, CudaKernelArgs(Ptrs{buf->address(), buf->address()}, {{0}}), {}, {})
              .ok());
    ASSERT_TRUE(graph->Instantiate().ok());
    EXPECT_EQ(graph->Instantiate().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_EQ(LiveObjects(**api), live_before + 2);  // the graph and its executable form
    ASSERT_TRUE(graph->Launch(true).ok());
    ASSERT_TRUE(graph->Launch(false).ok());
    EXPECT_EQ(graph_launches(), launches_before + 2);
    CudaGraph moved = std::move(*graph);
    EXPECT_EQ(moved.size(), 3u);
  }
  EXPECT_EQ(LiveObjects(**api), live_before);
}

TEST_F(FakeCudaDriverTest, ADriverBeforeCuda12HasNoGraphs) {
  auto api = LoadFake("libfake_cuda_without_tensor_maps.so");
  ASSERT_TRUE(api.ok()) << "graphs are optional: " << api.status();
  EXPECT_FALSE((*api)->HasGraphs());
  auto ctx = CudaContext::Open(*api, 0);
  ASSERT_TRUE(ctx.ok());
  absl::StatusOr<CudaGraph> graph = CudaGraph::Create(*ctx);
  EXPECT_EQ(graph.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(graph.status().message()), HasSubstr("this CUDA driver has no graphs"));
}

TEST(CudaDriverLoadTest, NoDriverIsNotFoundNamingTheLibrary) {
  CudaLibraryOptions libs;
  libs.driver_path = "/nonexistent/libcuda.so.1";
  absl::StatusOr<std::shared_ptr<const CudaDriverApi>> api = CudaDriverApi::Load(libs);
  if (api.ok()) GTEST_SKIP() << "a CUDA driver is installed here";
  // Where a driver library exists but has no GPU, cuInit's error is what we get instead.
  if (api.status().code() != absl::StatusCode::kNotFound)
    GTEST_SKIP() << "a CUDA driver is installed here without a GPU: " << api.status();
  const std::string message(api.status().message());
  EXPECT_THAT(message, HasSubstr("the CUDA driver (libcuda) not found"));
  EXPECT_THAT(message, HasSubstr("/nonexistent/libcuda.so.1"));
  EXPECT_THAT(message, HasSubstr("libcuda.so.1:"));
}

// ** a real GPU alone: the three ways to a loadable kernel **

TEST(CudaGpuTest, PtxJitCubinAndAssembledPtxAllRun) {
  CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  auto api = CudaDriverApi::Load(libs);
  if (!api.ok()) GTEST_SKIP() << "no CUDA driver here: " << api.status();
  auto ctx = CudaContext::Open(*api, 0);
  if (!ctx.ok()) GTEST_SKIP() << "no GPU: " << ctx.status();
  auto nvrtc = NvrtcApi::Load(libs);
  ASSERT_TRUE(nvrtc.ok()) << "a GPU without NVRTC: " << nvrtc.status();
  const std::string arch = (*ctx)->info().arch();
  auto to_ptx = NvrtcCompiler::Create(*nvrtc, {.arch = arch});
  auto to_cubin = NvrtcCompiler::Create(*nvrtc, {.arch = arch, .output = CudaBinaryKind::kCubin});
  ASSERT_TRUE(to_ptx.ok() && to_cubin.ok());
  absl::StatusOr<std::string> ptx = (*to_ptx)->Compile(kAddKernel);
  absl::StatusOr<std::string> cubin = (*to_cubin)->Compile(kAddKernel);
  ASSERT_TRUE(ptx.ok() && cubin.ok());
  std::vector<std::pair<std::string, std::string>> images = {{"ptx (driver JIT)", *ptx},
                                                             {"cubin (NVRTC)", *cubin}};
  if (auto jitlink = NvJitLinkApi::Load(libs); jitlink.ok()) {
    auto ptxas = PtxCompiler::Create(*jitlink, {.arch = arch, .assemble = true});
    absl::StatusOr<std::string> assembled = (*ptxas)->Compile(*ptx);
    ASSERT_TRUE(assembled.ok()) << assembled.status();
    images.emplace_back("cubin (nvJitLink)", *assembled);
  } else {
    std::printf("nvJitLink not found, its path untested: %s\n",
                jitlink.status().ToString().c_str());
  }
  for (const auto& [how, image] : images) {
    auto prg = CudaProgram::Load(*ctx, "add_n", image);
    ASSERT_TRUE(prg.ok()) << how << ": " << prg.status();
    auto buf = CudaBuffer::Allocate(*ctx, 1024 * sizeof(float));
    ASSERT_TRUE(buf.ok());
    std::vector<float> host(1024, 2.0f);
    ASSERT_TRUE(buf->CopyIn(Bytes(host)).ok());
    absl::StatusOr<double> s =
        prg->Launch(std::vector<CudaBuffer::CUdeviceptr>{buf->address(), buf->address()},
                    std::vector<int32_t>{1000}, {.grid = {32, 1, 1}, .block = {32, 1, 1}}, true);
    ASSERT_TRUE(s.ok()) << how << ": " << s.status();
    EXPECT_GT(*s, 0.0) << how;
    ASSERT_TRUE(buf->CopyOut(Bytes(host)).ok());
    EXPECT_EQ(host[0], 1002.0f) << how;
    EXPECT_EQ(host[999], 1002.0f) << how;
    EXPECT_EQ(host[1000], 2.0f) << how;
    std::printf("%s: %.3f us\n", how.c_str(), *s * 1e6);
  }
}

// One 64 x 64 box of a half matrix through the copy engine into shared memory, as the GEMM
// experiments load their tiles (same PTX), and out again byte for byte.
constexpr std::string_view kTmaBoxKernel = R"(
struct __align__(64) tg_tmap { unsigned long long v[16]; };
extern "C" __global__ void tma_box(unsigned short* out, int x, int y, const __grid_constant__ tg_tmap map) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned box = ((unsigned)__cvta_generic_to_shared(smem) + 1023u) & ~1023u;
  const unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(sbar), "r"(1) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(sbar), "r"(64 * 128) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 :: "r"(box), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(x), "r"(y), "r"(sbar) : "memory");
  }
  asm volatile("{\n.reg .pred p;\nTG_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra TG_WAIT;\n}\n" :: "r"(sbar), "r"(0) : "memory");
  const unsigned char* start = smem + (box - (unsigned)__cvta_generic_to_shared(smem));
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[i] = ((const unsigned short*)start)[i];
}
)";

TEST(CudaGpuTest, TheCopyEngineLandsABoxInThe128ByteSwizzle) {
  CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  auto api = CudaDriverApi::Load(libs);
  if (!api.ok()) GTEST_SKIP() << "no CUDA driver here: " << api.status();
  auto ctx = CudaContext::Open(*api, 0);
  if (!ctx.ok()) GTEST_SKIP() << "no GPU: " << ctx.status();
  if ((*ctx)->info().cc_major < 9) GTEST_SKIP() << "the copy engine is Hopper's (sm_90 on)";
  auto nvrtc = NvrtcApi::Load(libs);
  ASSERT_TRUE(nvrtc.ok()) << "a GPU without NVRTC: " << nvrtc.status();
  auto compiler = NvrtcCompiler::Create(
      *nvrtc, {.arch = (*ctx)->info().arch(), .output = CudaBinaryKind::kCubin});
  ASSERT_TRUE(compiler.ok()) << compiler.status();
  absl::StatusOr<std::string> cubin = (*compiler)->Compile(kTmaBoxKernel);
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  auto prg = CudaProgram::Load(*ctx, "tma_box", *cubin);
  ASSERT_TRUE(prg.ok()) << prg.status();

  // a 128 x 256 matrix whose every element says where it is
  constexpr int kRows = 128, kCols = 256, kX = 64, kY = 8;
  std::vector<uint16_t> src(kRows * kCols);
  for (int i = 0; i < kRows * kCols; ++i) src[i] = static_cast<uint16_t>(i);
  auto a = CudaBuffer::Allocate(*ctx, src.size() * 2);
  auto out = CudaBuffer::Allocate(*ctx, 64 * 64 * 2);
  ASSERT_TRUE(a.ok() && out.ok());
  ASSERT_TRUE(a->CopyIn(Bytes(src)).ok());
  absl::StatusOr<cuda_abi::CUtensorMap> map =
      EncodeTiledTensorMap(**api, {.element = TensorMapElement::kFloat16,
                                   .address = a->address(),
                                   .cols = kCols,
                                   .rows = kRows,
                                   .row_stride_bytes = kCols * 2,
                                   .box_cols = 64,
                                   .box_rows = 64});
  ASSERT_TRUE(map.ok()) << map.status();
  absl::StatusOr<double> ran = prg->Launch(
      std::vector<CudaBuffer::CUdeviceptr>{out->address()}, std::vector<int32_t>{kX, kY},
      {.block = {128, 1, 1}, .shared_bytes = 64 * 128 + 1024}, true, std::span(&*map, 1));
  ASSERT_TRUE(ran.ok()) << ran.status();
  std::vector<uint16_t> got(64 * 64);
  ASSERT_TRUE(out->CopyOut(Bytes(got)).ok());
  // row r's 16-byte chunk c (8 elements) lies at chunk c ^ (r % 8) of the 128-byte row
  int wrong = 0;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 8; ++c)
      for (int e = 0; e < 8; ++e) {
        const uint16_t want = src[(kY + r) * kCols + kX + c * 8 + e];
        if (got[r * 64 + ((c ^ (r % 8)) * 8) + e] != want && ++wrong <= 5)
          ADD_FAILURE() << "row " << r << " chunk " << c << " element " << e;
      }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace tg
