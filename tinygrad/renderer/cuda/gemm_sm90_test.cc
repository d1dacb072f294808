// The sm_90 matmul generator: which tilings it accepts and why not, the kernel's launch sizes and
// parameters, and (where NVRTC is available) that every tiling BEAM tries compiles for sm_90a
// with wgmma and without spilling. Whether the kernels compute the right product needs a GPU:
// tests/gpu:gemm_check runs them there (tools/gpu_check).
#include "tinygrad/renderer/cuda/gemm_sm90.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"

namespace tg {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr int64_t kH100Shared = 232448;

GemmProblem HalfMatmul(int64_t m, int64_t n, int64_t k) {
  return {.m = m,
          .n = n,
          .k = k,
          .in = dtypes::float16,
          .acc = dtypes::float32,
          .out = dtypes::float16};
}

TEST(GemmSm90Test, TilingsMustDivideTheProblemAndFitSharedMemory) {
  const GemmProblem p = HalfMatmul(4096, 4096, 4096);
  EXPECT_TRUE(CheckGemmSm90(p, {.bm = 128, .bn = 256, .stages = 4}, kH100Shared).ok());
  absl::Status odd = CheckGemmSm90(HalfMatmul(4096, 4000, 4096), {128, 128, 3}, kH100Shared);
  EXPECT_EQ(odd.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(odd.message()), HasSubstr("does not divide the 4096x4000x4096"));
  absl::Status k = CheckGemmSm90(HalfMatmul(256, 256, 96), {128, 128, 3}, kH100Shared);
  EXPECT_THAT(std::string(k.message()), HasSubstr("does not divide"));
  absl::Status shared = CheckGemmSm90(p, {128, 256, 5}, kH100Shared);
  EXPECT_EQ(shared.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(shared.message()), HasSubstr("bytes of shared memory"));
  EXPECT_THAT(std::string(CheckGemmSm90(p, {96, 128, 3}, kH100Shared).message()),
              HasSubstr("96 rows"));
  EXPECT_THAT(std::string(CheckGemmSm90(p, {128, 320, 3}, kH100Shared).message()),
              HasSubstr("320 columns"));
  EXPECT_THAT(
      std::string(
          CheckGemmSm90(HalfMatmul(64 * 70000, 128, 64), {64, 128, 3}, kH100Shared).message()),
      HasSubstr("65535 tile rows"));
  EXPECT_THAT(
      std::string(CheckGemmSm90(HalfMatmul(128, int64_t{1} << 32, 64), {64, 128, 3}, kH100Shared)
                      .message()),
      HasSubstr("past 2^31"));
  EXPECT_THAT(std::string(CheckGemmSm90(p, {128, 128, 2}, kH100Shared).message()),
              HasSubstr("2 stages"));
  EXPECT_THAT(std::string(CheckGemmSm90(p, {256, 256, 3}, kH100Shared).message()),
              HasSubstr("registers"));
}

TEST(GemmSm90Test, BeamsTilingsAllRenderForA4096Matmul) {
  const std::vector<GemmTiling> tilings = GemmSm90Tilings();
  EXPECT_GE(tilings.size(), 20u);
  for (const GemmTiling& t : tilings) {
    if (!CheckGemmSm90(HalfMatmul(4096, 4096, 4096), t, kH100Shared).ok()) continue;
    absl::StatusOr<GemmKernel> k = RenderGemmSm90(HalfMatmul(4096, 4096, 4096), t, "r_gemm");
    ASSERT_TRUE(k.ok()) << k.status();
    EXPECT_EQ(k->global_size, (std::array<int64_t, 3>{4096 / t.bn, 4096 / t.bm, 1}));
    EXPECT_EQ(k->local_size, (std::array<int64_t, 3>{t.bm / 64 * 128, 1, 1}));
    EXPECT_EQ(k->dynamic_shared_bytes, t.stages * (t.bm + t.bn) * 128 + 1024);
    EXPECT_THAT(k->src, HasSubstr(absl::StrCat("wgmma.mma_async.sync.aligned.m64n", t.bn,
                                               "k16.f32.f16.f16")));
  }
}

TEST(GemmSm90Test, ParametersFollowTheBufferSlotsAndDtypes) {
  GemmProblem p = HalfMatmul(128, 128, 64);
  p.in = dtypes::bfloat16;
  p.out = dtypes::float32;
  p.out_slot = 2;
  p.a_slot = 0;
  p.b_slot = 1;
  absl::StatusOr<GemmKernel> k = RenderGemmSm90(p, {64, 128, 3}, "gemm_k");
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_EQ(k->function_name, "gemm_k");
  EXPECT_THAT(k->src, HasSubstr("gemm_k(const __nv_bfloat16* __restrict__ data0, const "
                                "__nv_bfloat16* __restrict__ data1, float* __restrict__ data2)"));
  EXPECT_THAT(k->src, HasSubstr("k16.f32.bf16.bf16"));
  EXPECT_THAT(k->src, HasSubstr("__launch_bounds__(128, 1)"));
}

TEST(GemmSm90Test, CopyEngineLoadersTakeTensorMapsOfAAndBAfterTheBuffers) {
  GemmProblem p = HalfMatmul(512, 1024, 256);
  p.out_slot = 2;
  p.a_slot = 0;
  p.b_slot = 1;
  const std::vector<TensorMapSpec> maps = {
      {.buffer = 0, .element = dtypes::float16, .rows = 512, .cols = 256, .box_rows = 64,
       .box_cols = 64},
      {.buffer = 1, .element = dtypes::float16, .rows = 256, .cols = 1024, .box_rows = 64,
       .box_cols = 64}};
  for (GemmLoader loader : {GemmLoader::kTma, GemmLoader::kTmaWarpSpecialized}) {
    absl::StatusOr<GemmKernel> k = RenderGemmSm90(p, {128, 256, 4}, "g", loader);
    ASSERT_TRUE(k.ok()) << k.status();
    EXPECT_EQ(k->tensor_maps, maps);
    EXPECT_THAT(k->src, HasSubstr("g(const half* __restrict__ data0, const half* __restrict__ "
                                  "data1, half* __restrict__ data2,\n    const __grid_constant__ "
                                  "tg_tmap tma_a, const __grid_constant__ tg_tmap tma_b)"));
    EXPECT_THAT(k->src, HasSubstr("cp.async.bulk.tensor.2d"));
    EXPECT_THAT(k->src, Not(HasSubstr("cp.async.cg")));
    // a producer warpgroup more for the warp-specialized kernel
    const int64_t threads = loader == GemmLoader::kTma ? 256 : 384;
    EXPECT_EQ(k->local_size, (std::array<int64_t, 3>{threads, 1, 1}));
    EXPECT_THAT(k->src, HasSubstr(absl::StrCat("__launch_bounds__(", threads, ", 1)")));
    EXPECT_EQ(k->dynamic_shared_bytes, 4 * (128 + 256) * 128 + 1024);
    EXPECT_EQ(GemmLoaderFromName(GemmLoaderName(loader)), loader);
  }
  absl::StatusOr<GemmKernel> cp = RenderGemmSm90(p, {128, 256, 4}, "g");
  ASSERT_TRUE(cp.ok());
  EXPECT_TRUE(cp->tensor_maps.empty());
  EXPECT_EQ(GemmLoaderFromName("cp.async"), GemmLoader::kCpAsync);
  EXPECT_EQ(GemmLoaderFromName("tma-wss"), std::nullopt);
}

TEST(GemmSm90Test, TheProducerWarpgroupAndTheBarriersCountAgainstTheLimits) {
  const GemmProblem p = HalfMatmul(4096, 4096, 4096);
  // 256 rows: 4 MMA warpgroups and the producer, 640 threads, leave each too few registers
  EXPECT_TRUE(CheckGemmSm90(p, {256, 128, 4}, kH100Shared).ok());
  absl::Status ws = CheckGemmSm90(p, {256, 128, 4}, kH100Shared, GemmLoader::kTmaWarpSpecialized);
  EXPECT_THAT(std::string(ws.message()), HasSubstr("256x128 (tma-ws): its accumulators"));
  for (const GemmTiling& t : GemmSm90Tilings(GemmLoader::kTmaWarpSpecialized))
    EXPECT_FALSE(t.bm == 256 && t.bn >= 128) << t.bm << "x" << t.bn;
  // the mbarriers take shared memory beside the stages
  const GemmTiling t{128, 128, 3};
  const int64_t stages_bytes = 3 * 256 * 128 + 1024;
  EXPECT_TRUE(CheckGemmSm90(p, t, stages_bytes).ok());
  EXPECT_FALSE(CheckGemmSm90(p, t, stages_bytes, GemmLoader::kTma).ok());
  EXPECT_TRUE(CheckGemmSm90(p, t, stages_bytes + 48, GemmLoader::kTma).ok());
}

TEST(GemmSm90Test, WhatItCannotGenerateIsInvalidArgument) {
  GemmProblem f32 = HalfMatmul(128, 128, 64);
  f32.in = dtypes::float32;
  absl::StatusOr<GemmKernel> k = RenderGemmSm90(f32, {64, 128, 3}, "g");
  EXPECT_EQ(k.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(k.status().message()), HasSubstr("half or bfloat16 inputs"));
  GemmProblem slots = HalfMatmul(128, 128, 64);
  slots.b_slot = 0;
  EXPECT_THAT(std::string(RenderGemmSm90(slots, {64, 128, 3}, "g").status().message()),
              HasSubstr("slots"));
  EXPECT_FALSE(RenderGemmSm90(HalfMatmul(100, 128, 64), {64, 128, 3}, "g").ok());
}

TEST(GemmSm90Test, EveryTilingCompilesForSm90aWithoutSpillingOrSerializedMmas) {
  const CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs);
  if (!api.ok()) GTEST_SKIP() << "NVRTC is not available here: " << api.status();
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> compiler = NvrtcCompiler::Create(
      *api,
      {.arch = "sm_90a", .output = CudaBinaryKind::kPtx, .include_dirs = CudaIncludeDirs(libs)});
  ASSERT_TRUE(compiler.ok()) << compiler.status();
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> assembler = NvrtcCompiler::Create(
      *api,
      {.arch = "sm_90a", .output = CudaBinaryKind::kCubin, .include_dirs = CudaIncludeDirs(libs)});
  ASSERT_TRUE(assembler.ok()) << assembler.status();
  int compiled = 0;
  for (GemmLoader loader :
       {GemmLoader::kCpAsync, GemmLoader::kTma, GemmLoader::kTmaWarpSpecialized}) {
    for (const GemmTiling& t : GemmSm90Tilings(loader)) {
      // one stage count per tile shape: the stages change constants, not the code's shape
      if (t.stages != 3) continue;
      for (DType in : {dtypes::float16, dtypes::bfloat16}) {
        GemmProblem p = HalfMatmul(512, 512, 256);
        p.in = in;
        p.out = in;
        absl::StatusOr<GemmKernel> k = RenderGemmSm90(p, t, "gemm", loader);
        ASSERT_TRUE(k.ok()) << k.status();
        const std::string what =
            absl::StrCat(t.bm, "x", t.bn, " ", std::string(GemmLoaderName(loader)));
        absl::StatusOr<std::string> ptx = (*compiler)->CompileUncached(k->src);
        ASSERT_TRUE(ptx.ok()) << what << ": " << ptx.status() << "\n" << k->src;
        EXPECT_THAT(*ptx, HasSubstr("wgmma.mma_async.sync.aligned"));
        EXPECT_THAT(*ptx, HasSubstr(loader == GemmLoader::kCpAsync ? "cp.async.cg.shared.global"
                                                                   : "cp.async.bulk.tensor.2d"));
        EXPECT_THAT(*ptx, Not(HasSubstr(".local"))) << what << ": accumulators in local memory";
        if (in == dtypes::float16) {
          // ptxas accepts the inline PTX (wgmma's operands) and keeps the MMAs overlapped
          std::string log;
          absl::StatusOr<std::string> cubin = (*assembler)->CompileUncached(k->src, &log);
          EXPECT_TRUE(cubin.ok()) << what << ": " << cubin.status();
          EXPECT_THAT(PtxasPerformanceRemarks(log), IsEmpty()) << what << ": " << log;
        }
        ++compiled;
      }
    }
  }
  EXPECT_GE(compiled, 30);
}

}  // namespace
}  // namespace tg
