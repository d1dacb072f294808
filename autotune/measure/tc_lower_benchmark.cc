// File: autotune/measure/tc_lower_benchmark.cc
// What lowering one GPU BEAM candidate costs: opts applied, the full rewrite to a linear program
// and the CUDA render (GetProgram, exactly what LocalMeasurer's phase 1a runs per candidate), for
// tensor-core candidates of a half matmul on sm_90. The opts are ones BEAM=2 met on an H200
// (issue 15): the heuristic's pick, the winner, and some in between. No GPU needed.
//
//   bazel run -c opt //autotune/measure:tc_lower_benchmark -- [--n=4096] [--dump=DIR]
//       [--threads=T --rounds=R [--compile=I]] [--passes]
//
// --dump=DIR writes each candidate's source to DIR/candidate_<i>.cu (for compile timings).
// --passes prints each codegen pass's time for every candidate.
// --threads=T lowers every candidate R times on T threads, as the measurer's phase 1a does
// (threads taking the next candidate from a shared counter), and prints the sum of the
// lowerings' wall times (tg tune --json: lower_wall_sum_s), their thread CPU time (its
// lower_cpu_s) and the wall time of the whole, and the time a lowering spent asleep (neither
// on a CPU nor waiting for one: blocked on a contended lock; on a busy machine wall time says
// little, this still does).
// The reference's get_program on the same ASTs and opts is timed by
// tools/bench/tinygrad_tc_lower.py (the same candidates, in the same order).
// --threads=T --compile=I compiles the candidates instead (phase 1b): NVRTC to sm_90 CUBINs,
// uncached, through one compiler with I instances of NVRTC (1: every thread on the one library,
// whose process-wide lock they sleep on; T: a private copy per thread), and prints compiles per
// second and the time a compile slept. Skips, saying why, without NVRTC.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "autotune/measure/candidate_ast.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/measure/thread_cpu_time.h"
#include "benchmark/benchmark.h"
#include "tinygrad/base/asleep_meter.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"

namespace tg::autotune {
namespace {

constexpr OptOps U = OptOps::UPCAST, R = OptOps::UNROLL, L = OptOps::LOCAL;
constexpr Opt kTc{OptOps::TC, 0, std::array<int64_t, 3>{-1, 0, 1}};

struct Candidate {
  const char* name;
  std::vector<Opt> opts;
};

const std::vector<Candidate>& Candidates() {
  static const auto* c = new std::vector<Candidate>{
      {"tc", {kTc}},
      {"tc_u0", {kTc, {U, 0, 4}}},
      {"tc_u1u0", {kTc, {U, 1, 4}, {U, 0, 4}}},
      {"heuristic", {kTc, {U, 0, 4}, {U, 1, 4}, {L, 1, 4}}},
      {"tc_u1u0_l0l1", {kTc, {U, 1, 4}, {U, 0, 4}, {L, 0, 4}, {L, 1, 2}}},
      {"tc_u1u0_r0", {kTc, {U, 1, 4}, {U, 0, 4}, {R, 0, 4}}},
      {"winner", {kTc, {U, 1, 4}, {U, 0, 4}, {U, 1, 2}, {R, 0, 4}, {L, 0, 4}, {L, 1, 2}}},
  };
  return *c;
}

int64_t g_n = 4096;

UOp HalfMatmul() {
  static const UOp ast = MatmulKernel(g_n, dtypes::float16);
  return ast;
}

const CudaRenderer& Sm90() {
  static const auto* r = new CudaRenderer(*ParseCudaArch("sm_90"));
  return *r;
}

void BM_LowerTcCandidate(benchmark::State& state, const Candidate& c) {
  const UOp ast = CandidateAst(HalfMatmul(), c.opts);
  CodegenOptions codegen = CodegenOptions::FromConfig(GetConfig());
  size_t uops = 0;
  for (auto _ : state) {
    absl::StatusOr<ProgramSpec> p = GetProgram(ast, Sm90(), codegen);
    if (!p.ok()) {
      state.SkipWithError(std::string(p.status().message()).c_str());
      return;
    }
    uops = p->uops.size();
    benchmark::DoNotOptimize(p->src.data());
  }
  state.counters["uops"] = static_cast<double>(uops);
}

int Dump(const std::string& dir) {
  CodegenOptions codegen = CodegenOptions::FromConfig(GetConfig());
  for (size_t i = 0; i < Candidates().size(); ++i) {
    absl::StatusOr<ProgramSpec> p = GetProgram(CandidateAst(HalfMatmul(), Candidates()[i].opts), Sm90(), codegen);
    if (!p.ok()) {
      std::fprintf(stderr, "%s: %s\n", Candidates()[i].name, std::string(p.status().message()).c_str());
      return 1;
    }
    std::ofstream(dir + "/candidate_" + std::to_string(i) + ".cu") << p->src;
  }
  return 0;
}

// Runs work(0..n-1) on `threads` threads taking the next index from a shared counter, as the
// measurer's ParallelFor does, and prints per item: the wall time (summed over items: what the
// search reports as lower_wall_sum_s / compile_wall_sum_s), thread CPU time and time asleep,
// then items per second of the whole. Returns 1 if any item failed.
int RunOnThreads(int threads, size_t n, const char* items, const std::function<bool(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::vector<double> wall(static_cast<size_t>(threads), 0), cpu(static_cast<size_t>(threads), 0);
  std::vector<double> asleep(static_cast<size_t>(threads), 0);
  std::atomic<bool> failed{false};
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const double c0 = ThreadCpuSeconds();
      const AsleepMeter meter;
      for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
        const Clock::time_point s = Clock::now();
        if (!work(i)) failed = true;
        wall[static_cast<size_t>(t)] += std::chrono::duration<double>(Clock::now() - s).count();
      }
      cpu[static_cast<size_t>(t)] = ThreadCpuSeconds() - c0;
      asleep[static_cast<size_t>(t)] = meter.AsleepSeconds();
    });
  for (std::thread& t : pool) t.join();
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  double sum_wall = 0, sum_cpu = 0;
  double sum_asleep = 0;
  for (int t = 0; t < threads; ++t) {
    sum_wall += wall[static_cast<size_t>(t)];
    sum_cpu += cpu[static_cast<size_t>(t)];
    sum_asleep += asleep[static_cast<size_t>(t)];
  }
  const double per = 1e3 / static_cast<double>(n);
  std::printf("%d threads, %zu %s: per item %.1f ms wall (sum %.2f s), %.1f ms thread CPU, %.2f ms asleep; "
              "all in %.2f s wall: %.2f %s/s\n",
              threads, n, items, sum_wall * per, sum_wall, sum_cpu * per, sum_asleep * per, total,
              static_cast<double>(n) / total, items);
  return failed ? 1 : 0;
}

int Parallel(int threads, int rounds) {
  CodegenOptions codegen = CodegenOptions::FromConfig(GetConfig());
  std::vector<UOp> asts;
  for (const Candidate& c : Candidates()) asts.push_back(CandidateAst(HalfMatmul(), c.opts));
  return RunOnThreads(threads, asts.size() * static_cast<size_t>(rounds), "lowerings",
                      [&](size_t i) { return GetProgram(asts[i % asts.size()], Sm90(), codegen).ok(); });
}

// --compile=I: the candidates' sources compiled to sm_90 CUBINs by NVRTC (uncached), R times
// over on T threads, through one compiler with I instances of NVRTC (nvrtc_compiler.h
// ReserveInstances): 1 is every thread on the one library, T one private copy per thread.
int ParallelCompile(int threads, int rounds, int instances) {
  CodegenOptions codegen = CodegenOptions::FromConfig(GetConfig());
  std::vector<std::string> srcs;
  for (const Candidate& c : Candidates()) {
    absl::StatusOr<ProgramSpec> p = GetProgram(CandidateAst(HalfMatmul(), c.opts), Sm90(), codegen);
    if (!p.ok()) return 1;
    srcs.push_back(p->src);
  }
  const CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs);
  if (!api.ok()) {
    std::fprintf(stderr, "skipped: %s\n", std::string(api.status().message()).c_str());
    return 0;
  }
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c = NvrtcCompiler::Create(
      *api, {.arch = "sm_90", .output = CudaBinaryKind::kCubin, .include_dirs = CudaIncludeDirs(libs), .cachelevel = 0});
  if (!c.ok()) return 1;
  const auto r0 = std::chrono::steady_clock::now();
  if (absl::Status s = (*c)->ReserveInstances(instances, std::filesystem::temp_directory_path().string()); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::printf("%d NVRTC instance(s), %d made in %.2f s; ", (*c)->instances(), instances - 1,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - r0).count());
  // each instance's first real compile (its lazy start-up) is not timed
  RunOnThreads(instances, static_cast<size_t>(instances), "warm-ups",
               [&](size_t i) { return (*c)->CompileUncached(srcs[i % srcs.size()]).ok(); });
  return RunOnThreads(threads, srcs.size() * static_cast<size_t>(rounds), "compiles",
                      [&](size_t i) { return (*c)->CompileUncached(srcs[i % srcs.size()]).ok(); });
}

}  // namespace
}  // namespace tg::autotune

namespace tg::autotune {
namespace {
// --passes: where one lowering's time goes, pass by pass (FullRewriteToSinkTraced), for each
// candidate; the rest of GetProgram (linearize, render) is what is left of its total.
int Passes() {
  CodegenOptions codegen = CodegenOptions::FromConfig(GetConfig());
  using Clock = std::chrono::steady_clock;
  for (const Candidate& c : Candidates()) {
    const UOp ast = CandidateAst(HalfMatmul(), c.opts);
    std::vector<std::pair<std::string, double>> passes;
    double total = 0;
    for (int rep = 0; rep < 5; ++rep) {
      std::vector<std::pair<std::string, double>> now;
      Clock::time_point last = Clock::now();
      const Clock::time_point t0 = last;
      absl::StatusOr<UOp> sink = FullRewriteToSinkTraced(ast, Sm90(), true, codegen, [&](std::string_view name, const UOp&) {
        const Clock::time_point t = Clock::now();
        now.emplace_back(std::string(name), std::chrono::duration<double>(t - last).count());
        last = Clock::now();
      });
      if (!sink.ok()) return 1;
      const double rewrite = std::chrono::duration<double>(Clock::now() - t0).count();
      const Clock::time_point g0 = Clock::now();
      if (!GetProgram(ast, Sm90(), codegen).ok()) return 1;
      const double whole = std::chrono::duration<double>(Clock::now() - g0).count();
      now.emplace_back("linearize + render (GetProgram - rewrite)", whole - rewrite);
      if (rep == 0 || whole < total) {
        passes = now;
        total = whole;
      }
    }
    std::printf("%s: GetProgram %.2f ms\n", c.name, total * 1e3);
    for (const auto& [name, s] : passes) std::printf("  %7.2f ms  %s\n", s * 1e3, name.c_str());
  }
  return 0;
}
}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) {
  using namespace tg::autotune;
  std::string dump;
  int threads = 0, rounds = 4, instances = 0;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--n=", 4) == 0) {
      g_n = std::atoll(argv[i] + 4);
    } else if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      threads = std::atoi(argv[i] + 10);
    } else if (std::strncmp(argv[i], "--rounds=", 9) == 0) {
      rounds = std::atoi(argv[i] + 9);
    } else if (std::strncmp(argv[i], "--compile=", 10) == 0) {
      instances = std::atoi(argv[i] + 10);
    } else if (std::strcmp(argv[i], "--passes") == 0) {
      return Passes();
    } else if (std::strncmp(argv[i], "--dump=", 7) == 0) {
      dump = argv[i] + 7;
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (!dump.empty()) return Dump(dump);
  if (threads > 0 && instances > 0) return ParallelCompile(threads, rounds, instances);
  if (threads > 0) return Parallel(threads, rounds);
  for (const Candidate& c : Candidates())
    benchmark::RegisterBenchmark((std::string("BM_LowerTcCandidate/") + c.name).c_str(),
                                 [&c](benchmark::State& s) { BM_LowerTcCandidate(s, c); })
        ->Unit(benchmark::kMillisecond);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
