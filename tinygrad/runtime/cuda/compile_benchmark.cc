// File: tinygrad/runtime/cuda/compile_benchmark.cc
// What one GPU BEAM candidate costs to compile, without a GPU: NVRTC from CUDA C++ to PTX and to
// CUBIN (the CUDA renderer's path), against nvJitLink assembling PTX to CUBIN (the PTX
// renderer's path, CUDA_PTX=1, which skips the C++ front end). Uncached, one kernel shaped like
// a tuned matmul candidate (locals, an unrolled 4x4 accumulator, a reduce loop).
//
//   bazel run -c opt //tinygrad/runtime/cuda:compile_benchmark
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"

namespace tg {
namespace {

constexpr const char* kArch = "sm_90";

constexpr std::string_view kMatmulCandidate = R"(
extern "C" __global__ void __launch_bounds__(256) r_64_64_16_16_4_4_256(float* data0, const float* data1, const float* data2) {
  int gidx0 = blockIdx.x; int gidx1 = blockIdx.y; int lidx0 = threadIdx.x; int lidx1 = threadIdx.y;
  float acc[16];
  for (int i = 0; i < 16; i++) acc[i] = 0.0f;
  for (int ridx0 = 0; ridx0 < 1024; ridx0++) {
    float a0 = data1[(gidx1 * 64 + lidx1 * 4 + 0) * 1024 + ridx0];
    float a1 = data1[(gidx1 * 64 + lidx1 * 4 + 1) * 1024 + ridx0];
    float a2 = data1[(gidx1 * 64 + lidx1 * 4 + 2) * 1024 + ridx0];
    float a3 = data1[(gidx1 * 64 + lidx1 * 4 + 3) * 1024 + ridx0];
    float4 b = *((const float4*)(data2 + ridx0 * 1024 + gidx0 * 64 + lidx0 * 4));
    acc[0] += a0 * b.x; acc[1] += a0 * b.y; acc[2] += a0 * b.z; acc[3] += a0 * b.w;
    acc[4] += a1 * b.x; acc[5] += a1 * b.y; acc[6] += a1 * b.z; acc[7] += a1 * b.w;
    acc[8] += a2 * b.x; acc[9] += a2 * b.y; acc[10] += a2 * b.z; acc[11] += a2 * b.w;
    acc[12] += a3 * b.x; acc[13] += a3 * b.y; acc[14] += a3 * b.z; acc[15] += a3 * b.w;
  }
  for (int r = 0; r < 4; r++)
    *((float4*)(data0 + (gidx1 * 64 + lidx1 * 4 + r) * 1024 + gidx0 * 64 + lidx0 * 4)) =
        make_float4(acc[r * 4], acc[r * 4 + 1], acc[r * 4 + 2], acc[r * 4 + 3]);
}
)";

std::unique_ptr<NvrtcCompiler> MakeNvrtc(CudaBinaryKind output) {
  CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  auto api = NvrtcApi::Load(libs);
  if (!api.ok()) return nullptr;
  auto c = NvrtcCompiler::Create(
      *api, {.arch = kArch, .output = output, .include_dirs = CudaIncludeDirs(libs)});
  return c.ok() ? std::move(*c) : nullptr;
}

void RunNvrtc(benchmark::State& state, CudaBinaryKind output) {
  std::unique_ptr<NvrtcCompiler> c = MakeNvrtc(output);
  if (c == nullptr) {
    state.SkipWithError("NVRTC is not available");
    return;
  }
  for (auto _ : state) {
    absl::StatusOr<std::string> out = c->CompileUncached(kMatmulCandidate);
    if (!out.ok()) {
      state.SkipWithError(std::string(out.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(out->data());
  }
}

void BM_NvrtcToPtx(benchmark::State& state) { RunNvrtc(state, CudaBinaryKind::kPtx); }
void BM_NvrtcToCubin(benchmark::State& state) { RunNvrtc(state, CudaBinaryKind::kCubin); }

void BM_NvJitLinkPtxToCubin(benchmark::State& state) {
  std::unique_ptr<NvrtcCompiler> nvrtc = MakeNvrtc(CudaBinaryKind::kPtx);
  auto jitlink = NvJitLinkApi::Load(CudaLibraryOptions::FromEnvironment());
  if (nvrtc == nullptr || !jitlink.ok()) {
    state.SkipWithError("NVRTC or nvJitLink is not available");
    return;
  }
  absl::StatusOr<std::string> ptx = nvrtc->CompileUncached(kMatmulCandidate);
  auto ptxas = PtxCompiler::Create(*jitlink, {.arch = kArch, .assemble = true});
  if (!ptx.ok() || !ptxas.ok()) {
    state.SkipWithError("no PTX to assemble");
    return;
  }
  for (auto _ : state) {
    absl::StatusOr<std::string> cubin = (*ptxas)->CompileUncached(*ptx);
    if (!cubin.ok()) {
      state.SkipWithError(std::string(cubin.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(cubin->data());
  }
}

BENCHMARK(BM_NvrtcToPtx)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NvrtcToCubin)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NvJitLinkPtxToCubin)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
