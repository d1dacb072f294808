// File: tinygrad/runtime/cuda/compile_benchmark.cc
// What one GPU BEAM candidate costs to compile, without a GPU: NVRTC from CUDA C++ to PTX and to
// CUBIN (the CUDA renderer's path), against nvJitLink assembling PTX to CUBIN (the PTX
// renderer's path, CUDA_PTX=1, which skips the C++ front end). Uncached. Kernels: one shaped
// like a tuned float matmul candidate (locals, an unrolled 4x4 accumulator, a reduce loop,
// no #include), and two tensor-core candidates of a 4096 half matmul as the CUDA renderer
// renders them (testdata/tc_half_*_sm90.cu: mma.sync, #include <cuda_fp16.h>).
//
// BM_NvrtcHeaders compares the ways cuda_fp16.h can reach NVRTC: the include closure from
// memory (what NvrtcCompiler does), -I only (the reference: NVRTC reads the files), and only
// the headers NVRTC does not carry built in. The /threads:2 runs compile on two threads of one
// process at once; CPU time is the process's (NVRTC may use threads of its own), and asleep_ms
// is the time a compile spent blocked (neither running nor waiting for a CPU), which a busy
// machine does not blur as it does real time. BM_NvrtcPrivateCopyPerThread gives each thread
// its own instance of the library (NvrtcCompiler::ReserveInstances). BM_NvJitLinkPtxToCubin's
// /threads:2 run asks the same of nvJitLink.
//
//   bazel run -c opt //tinygrad/runtime/cuda:compile_benchmark
//
// Measured 2026-11-27 on 2 vCPUs of an AMD EPYC (busy), NVRTC 13.0, CPU ms per compile
// (heuristic / winner candidate): to PTX 82 / 311, to CUBIN 80 / 303 (NVRTC runs ptxas for an
// sm_ arch either way; tinygrad's CUDACompiler, PTX for sm_90, 79 / 311 on the same sources),
// nvJitLink PTX to CUBIN 16 / 55. cuda_fp16.h's closure from memory vs -I: 23.5 vs 22.2 ms for
// a one-line half kernel, no difference on the candidates. Two threads: each compile slept 2
// to 32 ms (NVRTC's lock: a futex in libnvrtc, woken from under nvrtcCompileProgram); with a
// private copy each, 0.1 to 3.6 ms (what is left is the process's: the allocator, the address
// space); two processes, 0 to 2 ms. Sixteen threads on those 2 vCPUs (which overstates it: a
// preempted holder keeps the lock): 2.2 s asleep per compile on one instance, 54 ms on a
// copy each. nvJitLink on two threads (load 8 on the 2 vCPUs): 1.9 ms asleep per 16 ms
// assembly, some waiting of its own (the CUDA device's CUDA_PTX path does not use it: the
// driver assembles at module load).
//
// BM_DriverPtxJit (needs a GPU; skips without) loads a candidate's PTX as a module, the driver
// assembling it, on 1, 2 and 16 threads of one process, as the measurer's compile threads load
// CUDA_PTX candidates: whether the driver's JIT makes them wait for each other as NVRTC's lock
// did (asleep_ms), and what a load costs against nvJitLink's assembly of the same PTX.
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/base/asleep_meter.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/program.h"
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

// A tensor-core candidate's source from testdata/ ("heuristic", "winner"); "" if missing.
const std::string& TcHalfCandidate(const std::string& which) {
  static auto* const cache = new std::map<std::string, std::string>;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto [it, fresh] = cache->try_emplace(which);
  if (fresh) {
    std::ifstream in("tinygrad/runtime/cuda/testdata/tc_half_" + which + "_sm90.cu");
    std::ostringstream text;
    text << in.rdbuf();
    it->second = text.str();
  }
  return it->second;
}

// The least a half kernel is: what the headers cost NVRTC on their own.
constexpr std::string_view kHalfCopy = R"(
#include <cuda_fp16.h>
extern "C" __global__ void __launch_bounds__(256) E_256(half* data0, const half* data1) {
  data0[blockIdx.x * 256 + threadIdx.x] = data1[blockIdx.x * 256 + threadIdx.x] * (half)2.0f;
}
)";

std::string_view Source(std::string_view name) {
  if (name == "float_matmul") return kMatmulCandidate;
  if (name == "half_copy") return kHalfCopy;
  return TcHalfCandidate(std::string(name));
}

std::unique_ptr<NvrtcCompiler> MakeNvrtc(CudaBinaryKind output) {
  CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  auto api = NvrtcApi::Load(libs);
  if (!api.ok()) return nullptr;
  auto c = NvrtcCompiler::Create(
      *api, {.arch = kArch, .output = output, .include_dirs = CudaIncludeDirs(libs)});
  return c.ok() ? std::move(*c) : nullptr;
}

// Compiles `src` with `c` (an NvrtcCompiler or a PtxCompiler) for every iteration, with the time
// asleep per compile as a counter.
template <typename Compiler>
void CompileLoop(benchmark::State& state, const Compiler& c, std::string_view src) {
  const AsleepMeter meter;
  for (auto _ : state) {
    absl::StatusOr<std::string> out = c.CompileUncached(src);
    if (!out.ok()) {
      state.SkipWithError(std::string(out.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(out->data());
  }
  state.counters["asleep_ms"] = benchmark::Counter(meter.AsleepSeconds() * 1e3, benchmark::Counter::kAvgIterations);
}

void RunNvrtc(benchmark::State& state, CudaBinaryKind output, std::string_view kernel) {
  // One compiler for all threads of a /threads:2 run, as the measurer shares one.
  static NvrtcCompiler* const to_ptx = MakeNvrtc(CudaBinaryKind::kPtx).release();
  static NvrtcCompiler* const to_cubin = MakeNvrtc(CudaBinaryKind::kCubin).release();
  const NvrtcCompiler* c = output == CudaBinaryKind::kPtx ? to_ptx : to_cubin;
  const std::string_view src = Source(kernel);
  if (c == nullptr || src.empty()) {
    state.SkipWithError(c == nullptr ? "NVRTC is not available" : "kernel source not found (run from the workspace)");
    return;
  }
  CompileLoop(state, *c, src);
}

void BM_NvrtcToPtx(benchmark::State& state, std::string_view kernel) {
  RunNvrtc(state, CudaBinaryKind::kPtx, kernel);
}
void BM_NvrtcToCubin(benchmark::State& state, std::string_view kernel) {
  RunNvrtc(state, CudaBinaryKind::kCubin, kernel);
}

// How the CUDA headers reach NVRTC (see the file comment).
enum class Headers { kClosureFromMemory, kIncludeDirOnly, kNotBuiltInFromMemory };

// The headers of the closure NVRTC has no built-in copy of: NVRTC 12+ carries the C/C++ library
// headers and its own, not cuda_fp16.h and friends.
bool IsCudaToolkitHeader(const NvrtcHeader& h) {
  return h.name.starts_with("cuda_fp16") || h.name.starts_with("cuda_bf16") ||
         h.name.starts_with("cuda_fp8") || h.name.starts_with("cuda_fp6") || h.name.starts_with("cuda_fp4");
}

void BM_NvrtcHeaders(benchmark::State& state, Headers how, std::string_view kernel) {
  CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  auto api = NvrtcApi::Load(libs);
  const std::string_view src = Source(kernel);
  if (!api.ok() || src.empty()) {
    state.SkipWithError("NVRTC or the kernel source is not available");
    return;
  }
  std::vector<std::string> dirs = CudaIncludeDirs(libs);
  absl::StatusOr<std::vector<NvrtcHeader>> closure = ReadHeaderClosure(dirs, kCudaKernelHeaders);
  if (!closure.ok()) {
    state.SkipWithError("the CUDA headers are not readable");
    return;
  }
  std::vector<const char*> texts, names;
  size_t bytes = 0;
  for (const NvrtcHeader& h : *closure) {
    if (how == Headers::kIncludeDirOnly) break;
    if (how == Headers::kNotBuiltInFromMemory && !IsCudaToolkitHeader(h)) continue;
    texts.push_back(h.text.c_str());
    names.push_back(h.name.c_str());
    bytes += h.text.size();
  }
  std::vector<std::string> flags = {"--gpu-architecture=" + std::string(kArch), "--minimal"};
  for (const std::string& d : dirs) flags.push_back("-I" + d);
  std::vector<const char*> argv;
  for (const std::string& f : flags) argv.push_back(f.c_str());
  const std::string source(src);
  const NvrtcApi& nv = **api;
  const AsleepMeter meter;
  for (auto _ : state) {
    cuda_abi::nvrtcProgram prog = nullptr;
    if (nv.nvrtcCreateProgram(&prog, source.c_str(), "<null>", static_cast<int>(texts.size()), texts.data(),
                              names.data()) != cuda_abi::NVRTC_SUCCESS) {
      state.SkipWithError("nvrtcCreateProgram failed");
      return;
    }
    const bool ok = nv.nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data()) == cuda_abi::NVRTC_SUCCESS;
    size_t size = 0;
    if (ok) nv.nvrtcGetCUBINSize(prog, &size);
    nv.nvrtcDestroyProgram(&prog);
    if (!ok || size == 0) {
      state.SkipWithError("NVRTC compile failed");
      return;
    }
  }
  state.counters["asleep_ms"] = benchmark::Counter(meter.AsleepSeconds() * 1e3, benchmark::Counter::kAvgIterations);
  state.counters["headers"] = benchmark::Counter(static_cast<double>(texts.size()), benchmark::Counter::kAvgThreads);
  state.counters["header_KiB"] = benchmark::Counter(static_cast<double>(bytes) / 1024, benchmark::Counter::kAvgThreads);
}

// NVRTC takes a process-wide lock for part of every compile: two threads of one process sleep
// on it (asleep_ms of BM_NvrtcToCubin/threads:2) where two processes do not. One compiler with
// an instance of NVRTC per thread (NvrtcCompiler::ReserveInstances: private copies of the
// library, nvrtc_copy.h), as the measurer compiles: the same threads stop waiting for each other.
void BM_NvrtcPrivateCopyPerThread(benchmark::State& state, std::string_view kernel) {
  static NvrtcCompiler* const c = [] {
    std::unique_ptr<NvrtcCompiler> c = MakeNvrtc(CudaBinaryKind::kCubin);
    std::error_code ec;
    const std::string temp = std::filesystem::temp_directory_path(ec).string();
    // Threads(16) at most; each instance's first compile (its start-up) is not timed
    if (c == nullptr || !c->ReserveInstances(16, temp).ok()) return static_cast<NvrtcCompiler*>(nullptr);
    return c.release();
  }();
  const std::string_view src = Source(kernel);
  if (c == nullptr || src.empty()) {
    state.SkipWithError("could not load private copies of NVRTC");
    return;
  }
  CompileLoop(state, *c, src);
}

void BM_NvJitLinkPtxToCubin(benchmark::State& state, std::string_view kernel) {
  std::unique_ptr<NvrtcCompiler> nvrtc = MakeNvrtc(CudaBinaryKind::kPtx);
  auto jitlink = NvJitLinkApi::Load(CudaLibraryOptions::FromEnvironment());
  if (nvrtc == nullptr || !jitlink.ok()) {
    state.SkipWithError("NVRTC or nvJitLink is not available");
    return;
  }
  absl::StatusOr<std::string> ptx = nvrtc->CompileUncached(Source(kernel));
  auto ptxas = PtxCompiler::Create(*jitlink, {.arch = kArch, .assemble = true});
  if (!ptx.ok() || !ptxas.ok()) {
    state.SkipWithError("no PTX to assemble");
    return;
  }
  CompileLoop(state, **ptxas, *ptx);
}

// A GPU's context and a candidate's PTX with its kernel's name, made once for every thread.
struct DriverJitSetup {
  std::shared_ptr<CudaContext> ctx;
  std::string ptx, function_name, error;
};

const DriverJitSetup& JitSetup(std::string_view kernel) {
  static auto* const setups = new std::map<std::string, DriverJitSetup>;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto [it, fresh] = setups->try_emplace(std::string(kernel));
  DriverJitSetup& s = it->second;
  if (!fresh) return s;
  const CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  auto api = CudaDriverApi::Load(libs);
  auto ctx = api.ok() ? CudaContext::Open(*api, 0) : api.status();
  std::unique_ptr<NvrtcCompiler> nvrtc = MakeNvrtc(CudaBinaryKind::kPtx);
  if (!ctx.ok() || nvrtc == nullptr) {
    s.error = ctx.ok() ? "NVRTC is not available" : std::string(ctx.status().message());
    return s;
  }
  absl::StatusOr<std::string> ptx = nvrtc->CompileUncached(Source(kernel));
  const size_t entry = ptx.ok() ? ptx->find(".entry ") : std::string::npos;
  if (entry == std::string::npos) {
    s.error = "no PTX entry for the kernel (its source is read from the workspace)";
    return s;
  }
  const size_t name_start = entry + 7;
  s.function_name = ptx->substr(name_start, ptx->find('(', name_start) - name_start);
  s.ctx = *ctx;
  s.ptx = *std::move(ptx);
  return s;
}

void BM_DriverPtxJit(benchmark::State& state, std::string_view kernel) {
  const DriverJitSetup& s = JitSetup(kernel);
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  const AsleepMeter meter;
  for (auto _ : state) {
    absl::StatusOr<CudaProgram> p = CudaProgram::Load(s.ctx, s.function_name, s.ptx);
    if (!p.ok()) {
      state.SkipWithError(std::string(p.status().message()).c_str());
      return;
    }
  }
  state.counters["asleep_ms"] =
      benchmark::Counter(meter.AsleepSeconds() * 1e3, benchmark::Counter::kAvgIterations);
}

// CPU time is the process's: NVRTC may compile on threads of its own.
#define TG_COMPILE_BENCHMARKS(kernel)                                                              \
  BENCHMARK_CAPTURE(BM_NvrtcToPtx, kernel, #kernel)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();   \
  BENCHMARK_CAPTURE(BM_NvrtcToCubin, kernel, #kernel)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime(); \
  BENCHMARK_CAPTURE(BM_NvJitLinkPtxToCubin, kernel, #kernel)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()
TG_COMPILE_BENCHMARKS(float_matmul);
TG_COMPILE_BENCHMARKS(heuristic);
TG_COMPILE_BENCHMARKS(winner);
// Threads(16): as many compiling threads as the measurer runs on a 16-core GPU machine (on a
// smaller one it measures little but the queue for CPUs).
BENCHMARK_CAPTURE(BM_NvrtcToCubin, heuristic, "heuristic")
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Threads(1)
    ->Threads(2)
    ->Threads(16);
#define TG_HEADER_BENCHMARKS(kernel)                                                             \
  BENCHMARK_CAPTURE(BM_NvrtcHeaders, closure_from_memory/kernel, Headers::kClosureFromMemory, #kernel) \
      ->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();                                       \
  BENCHMARK_CAPTURE(BM_NvrtcHeaders, include_dir_only/kernel, Headers::kIncludeDirOnly, #kernel)       \
      ->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();                                       \
  BENCHMARK_CAPTURE(BM_NvrtcHeaders, not_built_in_from_memory/kernel, Headers::kNotBuiltInFromMemory, #kernel) \
      ->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()
TG_HEADER_BENCHMARKS(half_copy);
TG_HEADER_BENCHMARKS(heuristic);
BENCHMARK_CAPTURE(BM_NvrtcPrivateCopyPerThread, heuristic, "heuristic")
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Threads(2)
    ->Threads(16);
// Whether nvJitLink (the PTX renderer's assembler) makes two threads wait for each other too.
BENCHMARK_CAPTURE(BM_NvJitLinkPtxToCubin, heuristic, "heuristic")
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Threads(1)
    ->Threads(2);
// The driver's PTX JIT on the measurer's thread counts, beside nvJitLink on as many.
BENCHMARK_CAPTURE(BM_DriverPtxJit, heuristic, "heuristic")
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Threads(1)
    ->Threads(2)
    ->Threads(16);
BENCHMARK_CAPTURE(BM_NvJitLinkPtxToCubin, heuristic, "heuristic")
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Threads(16);
// Whether the headers change how much two compiling threads wait for each other.
BENCHMARK_CAPTURE(BM_NvrtcHeaders, closure_from_memory/heuristic, Headers::kClosureFromMemory, "heuristic")
    ->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime()->Threads(2);
BENCHMARK_CAPTURE(BM_NvrtcHeaders, include_dir_only/heuristic, Headers::kIncludeDirOnly, "heuristic")
    ->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime()->Threads(2);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
