// File: tinygrad/renderer/ptx/ptx_compile_benchmark.cc
// What a GPU BEAM candidate costs before it runs, without a GPU: lower + render + compile each
// kernel of a workload for sm_89, along the PTX renderer's path (CUDA_PTX=1: PtxRenderer, then
// nvJitLink assembles the PTX to a CUBIN) and the CUDA renderer's (CudaRenderer, then NVRTC to PTX,
// which the driver still has to assemble at load, or NVRTC to a CUBIN, the like-for-like
// comparison). Kernels are the hand-coded optimizer's (locals, upcasts, tensor cores for half);
// compiles bypass the caches.
//
//   bazel run -c opt //tinygrad/renderer/ptx:ptx_compile_benchmark
//
// Benchmarks, per workload (its kernels each iteration):
//   BM_LowerRender/<ptx|cuda>       GetProgram: the pipeline and the renderer
//   BM_Compile/<path>               the compiler alone on the rendered sources
//   BM_Candidate/<path>             both: what one candidate costs
// Counter per_kernel: seconds per kernel. A missing library skips its benchmarks with the reason.
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/renderer/ptx/ptx.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvjitlink_api.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

constexpr char kArch[] = "sm_89";

enum class Path { kPtxNvJitLink, kCudaNvrtcPtx, kCudaNvrtcCubin };
bool UsesPtxRenderer(Path p) { return p == Path::kPtxNvJitLink; }

Tensor Graph(const std::string& name) {
  if (name == "matmul1024_f32")
    return Tensor::Empty({1024, 1024}).matmul(Tensor::Empty({1024, 1024}));
  if (name == "matmul1024_f16")
    return Tensor::Empty({1024, 1024}, {.dtype = dtypes::float16})
        .matmul(Tensor::Empty({1024, 1024}, {.dtype = dtypes::float16}));
  if (name == "conv2d") {
    Conv2dOpts o;
    o.padding = {1};
    return Tensor::Empty({8, 16, 32, 32}).conv2d(Tensor::Empty({32, 16, 3, 3}), std::nullopt, o);
  }
  TG_CHECK(name == "softmax") << name;
  return Tensor::Empty({64, 512}).softmax(-1);
}

std::vector<UOp> KernelAsts(const std::string& name) {
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({Graph(name).uop()}));
  TG_CHECK(s.ok()) << s.status();
  std::vector<UOp> asts;
  for (const ScheduleItem& si : s->items)
    if (si.ast.op() == Ops::SINK) asts.push_back(si.ast);
  return asts;
}

const CudaArch& Arch() {
  static const CudaArch kA = *ParseCudaArch(kArch);
  return kA;
}
const PtxRenderer& Ptx() {
  static const auto* const kR = new PtxRenderer(Arch());
  return *kR;
}
const CudaRenderer& Cuda() {
  static const auto* const kR = new CudaRenderer(Arch());
  return *kR;
}

std::string Lower(const UOp& ast, bool ptx) {
  absl::StatusOr<ProgramSpec> p = ptx ? GetProgram(ast, Ptx()) : GetProgram(ast, Cuda());
  TG_CHECK(p.ok()) << p.status();
  return std::move(p->src);
}

// The path's compiler, or why there is none here.
class Compiler {
 public:
  explicit Compiler(Path path) {
    CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
    if (path == Path::kPtxNvJitLink) {
      absl::StatusOr<std::shared_ptr<const NvJitLinkApi>> api = NvJitLinkApi::Load(libs);
      if (!api.ok()) {
        Fail(api.status());
        return;
      }
      absl::StatusOr<std::unique_ptr<PtxCompiler>> c =
          PtxCompiler::Create(*api, {.arch = kArch, .assemble = true, .cachelevel = 0});
      if (!c.ok()) {
        Fail(c.status());
        return;
      }
      ptx_ = std::move(*c);
    } else {
      absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs);
      if (!api.ok()) {
        Fail(api.status());
        return;
      }
      absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c = NvrtcCompiler::Create(
          *api,
          {.arch = kArch,
           .output = path == Path::kCudaNvrtcCubin ? CudaBinaryKind::kCubin : CudaBinaryKind::kPtx,
           .include_dirs = CudaIncludeDirs(libs),
           .cachelevel = 0});
      if (!c.ok()) {
        Fail(c.status());
        return;
      }
      nvrtc_ = std::move(*c);
    }
  }
  const std::string& missing() const { return missing_; }
  std::string Compile(const std::string& src) const {
    absl::StatusOr<std::string> out =
        ptx_ ? ptx_->CompileUncached(src) : nvrtc_->CompileUncached(src);
    TG_CHECK(out.ok()) << out.status();
    return *std::move(out);
  }

 private:
  void Fail(const absl::Status& s) { missing_ = std::string(s.message()); }
  std::unique_ptr<PtxCompiler> ptx_;
  std::unique_ptr<NvrtcCompiler> nvrtc_;
  std::string missing_;
};

void PerKernel(benchmark::State& state, size_t kernels) {
  state.counters["kernels"] = static_cast<double>(kernels);
  state.counters["per_kernel"] = benchmark::Counter(
      static_cast<double>(kernels),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_LowerRender(benchmark::State& state, std::string workload, bool ptx) {
  std::vector<UOp> asts = KernelAsts(workload);
  for (auto _ : state)
    for (const UOp& ast : asts) benchmark::DoNotOptimize(Lower(ast, ptx));
  PerKernel(state, asts.size());
}

void BM_Compile(benchmark::State& state, std::string workload, Path path) {
  Compiler c(path);
  if (!c.missing().empty()) return state.SkipWithError(c.missing().c_str());
  std::vector<std::string> srcs;
  for (const UOp& ast : KernelAsts(workload)) srcs.push_back(Lower(ast, UsesPtxRenderer(path)));
  for (auto _ : state)
    for (const std::string& src : srcs) benchmark::DoNotOptimize(c.Compile(src));
  PerKernel(state, srcs.size());
}

void BM_Candidate(benchmark::State& state, std::string workload, Path path) {
  Compiler c(path);
  if (!c.missing().empty()) return state.SkipWithError(c.missing().c_str());
  std::vector<UOp> asts = KernelAsts(workload);
  for (auto _ : state)
    for (const UOp& ast : asts)
      benchmark::DoNotOptimize(c.Compile(Lower(ast, UsesPtxRenderer(path))));
  PerKernel(state, asts.size());
}

void Register() {
  const std::pair<const char*, Path> paths[] = {{"ptx_nvjitlink_cubin", Path::kPtxNvJitLink},
                                                {"cuda_nvrtc_ptx", Path::kCudaNvrtcPtx},
                                                {"cuda_nvrtc_cubin", Path::kCudaNvrtcCubin}};
  for (const char* w : {"matmul1024_f32", "matmul1024_f16", "conv2d", "softmax"}) {
    const std::string ws(w);
    for (bool ptx : {true, false})
      benchmark::RegisterBenchmark(
          ("BM_LowerRender/" + std::string(ptx ? "ptx/" : "cuda/") + ws).c_str(), BM_LowerRender,
          ws, ptx)
          ->Unit(benchmark::kMillisecond);
    for (const auto& [pname, path] : paths) {
      benchmark::RegisterBenchmark(("BM_Compile/" + std::string(pname) + "/" + ws).c_str(),
                                   BM_Compile, ws, path)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("BM_Candidate/" + std::string(pname) + "/" + ws).c_str(),
                                   BM_Candidate, ws, path)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  tg::Register();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
