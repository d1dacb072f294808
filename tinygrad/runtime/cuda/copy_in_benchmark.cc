// File: tinygrad/runtime/cuda/copy_in_benchmark.cc
// What a copy to the GPU costs the host while a kernel runs (needs a GPU and NVRTC; skips
// without): a spinning kernel is queued, then a buffer is copied in and only the copy-in call is
// timed. /synchronous is cuMemcpyHtoD from pageable memory (what CUDA buffers did before: it
// waits for the queued kernel first, so it costs about the kernel's time); /staged goes through
// a PinnedUploader (the engine's CUDA buffers now: page-locked staging and cuMemcpyHtoDAsync,
// returning once the bytes are staged). The kernel's own time is a counter (kernel_ms).
//
//   bazel run -c opt //tinygrad/runtime/cuda:copy_in_benchmark
// (tools/gpu_check's copy_in step). Not measured yet: no GPU has run it.
#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/runtime/cuda/buffer.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/pinned_uploader.h"
#include "tinygrad/runtime/cuda/program.h"

namespace tg {
namespace {

// One warp's dependent chain of multiply-adds: a kernel that keeps the GPU busy for about a
// millisecond (n iterations) without touching memory until its end.
constexpr std::string_view kSpin = R"(
extern "C" __global__ void spin(float* out, int n) {
  float x = (float)threadIdx.x;
  for (int i = 0; i < n; i++) x = x * 0.9999f + 1.0f;
  out[threadIdx.x] = x;
}
)";
constexpr int kSpinIterations = 1 << 20;

struct Setup {
  std::shared_ptr<CudaContext> ctx;
  std::unique_ptr<CudaProgram> spin;
  std::unique_ptr<CudaBuffer> out;
  std::string error;
};

const Setup& GetSetup() {
  static const Setup* const setup = [] {
    auto* s = new Setup;
    const CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
    absl::StatusOr<std::shared_ptr<const CudaDriverApi>> api = CudaDriverApi::Load(libs);
    absl::StatusOr<std::shared_ptr<CudaContext>> ctx =
        api.ok() ? CudaContext::Open(*api, 0)
                 : absl::StatusOr<std::shared_ptr<CudaContext>>(api.status());
    absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(libs);
    if (!ctx.ok() || !nvrtc.ok()) {
      s->error = std::string((ctx.ok() ? nvrtc.status() : ctx.status()).message());
      return s;
    }
    auto compiler = NvrtcCompiler::Create(*nvrtc, {.arch = (*ctx)->info().arch()});
    absl::StatusOr<std::string> image =
        compiler.ok() ? (*compiler)->Compile(kSpin) : compiler.status();
    absl::StatusOr<CudaProgram> spin =
        image.ok() ? CudaProgram::Load(*ctx, "spin", *image) : image.status();
    absl::StatusOr<CudaBuffer> out = CudaBuffer::Allocate(*ctx, 32 * sizeof(float));
    if (!spin.ok() || !out.ok()) {
      s->error = std::string((spin.ok() ? out.status() : spin.status()).message());
      return s;
    }
    s->ctx = *ctx;
    s->spin = std::make_unique<CudaProgram>(*std::move(spin));
    s->out = std::make_unique<CudaBuffer>(*std::move(out));
    return s;
  }();
  return *setup;
}

// args: bytes copied; `staged`: through a PinnedUploader, else cuMemcpyHtoD.
void BM_CopyInBehindAKernel(benchmark::State& state, bool staged) {
  const Setup& s = GetSetup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  const size_t bytes = static_cast<size_t>(state.range(0));
  absl::StatusOr<CudaBuffer> dst = CudaBuffer::Allocate(s.ctx, bytes);
  if (!dst.ok()) {
    state.SkipWithError(std::string(dst.status().message()).c_str());
    return;
  }
  std::vector<std::byte> host(bytes, std::byte{1});
  PinnedUploader uploader(s.ctx);
  const std::vector<CudaBuffer::CUdeviceptr> args = {s.out->address()};
  const std::vector<int32_t> vals = {kSpinIterations};
  const CudaLaunchDims dims{.grid = {1, 1, 1}, .block = {32, 1, 1}};
  absl::StatusOr<double> kernel = s.spin->Launch(args, vals, dims, /*wait=*/true);  // warm, timed
  for (auto _ : state) {
    absl::Status st = s.spin->Launch(args, vals, dims, /*wait=*/false).status();
    const auto t0 = std::chrono::steady_clock::now();
    if (st.ok()) st = staged ? dst->CopyIn(host, 0, uploader) : dst->CopyIn(host);
    const auto t1 = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    const uint64_t mark = uploader.Mark();
    if (st.ok()) st = s.ctx->Synchronize();
    uploader.Completed(mark);
    if (!st.ok()) {
      state.SkipWithError(std::string(st.message()).c_str());
      return;
    }
  }
  if (kernel.ok()) state.counters["kernel_ms"] = *kernel * 1e3;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

BENCHMARK_CAPTURE(BM_CopyInBehindAKernel, synchronous, false)
    ->Arg(64 << 10)
    ->Arg(4 << 20)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CopyInBehindAKernel, staged, true)
    ->Arg(64 << 10)
    ->Arg(4 << 20)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
