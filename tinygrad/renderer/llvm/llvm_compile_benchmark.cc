// File: tinygrad/renderer/llvm/llvm_compile_benchmark.cc
// What a CPU kernel costs to compile and load, and how fast the result runs: clang (C source ->
// shared object in a clang process, dlopen) against in-process LLVM (IR -> object with
// libLLVM, ORC load), on real kernels (matmul 512, conv2d, softmax) lowered without opts
// (NOOPT) and with the hand-coded opts. Compiles bypass the caches.
//
//   bazel run -c opt //tinygrad/renderer/llvm:llvm_compile_benchmark
//
// Counters: per_kernel = seconds per kernel (compile/load benchmarks cover every kernel of the
// workload per iteration).
#include <cstring>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/renderer/llvm/llvmir.h"
#include "tinygrad/runtime/cpu/buffer.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/llvm_compiler.h"
#include "tinygrad/runtime/cpu/program.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

Config BenchConfig(bool noopt) {
  Config c = GetConfig();
  c.noopt = noopt;
  c.threads = 0;  // one core on both paths (LLVMRenderer has no threads)
  c.cachelevel = 0;
  c.spec = 0;
  return c;
}

Tensor Graph(const std::string& name) {
  if (name == "matmul512") return Tensor::Empty({512, 512}).matmul(Tensor::Empty({512, 512}));
  if (name == "conv2d") {
    Conv2dOpts o;
    o.padding = {1};
    return Tensor::Empty({8, 16, 32, 32}).conv2d(Tensor::Empty({32, 16, 3, 3}), std::nullopt, o);
  }
  TG_CHECK(name == "softmax") << name;
  return Tensor::Empty({64, 512}).softmax(-1);
}

// The workload's kernels, rendered for clang (C) or LLVM (IR).
std::vector<ProgramSpec> Kernels(const std::string& name, bool llvm, bool noopt) {
  ScopedConfig scoped(BenchConfig(noopt));
  Tensor t = Graph(name);
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({t.uop()}));
  TG_CHECK(s.ok()) << s.status();
  ClangRenderer cren(CpuRendererOptions::FromConfig(GetConfig()));
  LLVMRenderer lren(CpuRendererOptions::FromConfig(GetConfig()));
  std::vector<ProgramSpec> out;
  for (const ScheduleItem& si : s->items) {
    if (si.ast.op() != Ops::SINK) continue;
    absl::StatusOr<ProgramSpec> p = llvm ? GetProgram(si.ast, lren) : GetProgram(si.ast, cren);
    TG_CHECK(p.ok()) << p.status();
    out.push_back(*std::move(p));
  }
  return out;
}

std::string ClangSource(const ProgramSpec& p) {
  return WithCpuEntry(p.src, p.function_name, static_cast<int>(p.globals.size()),
                      static_cast<int>(p.vars.size()));
}

ClangCompiler& Clang() {
  static ClangCompiler* cc = [] {
    ClangCompilerOptions o;
    o.flags = ClangCompilerOptions::DefaultFlags();
    o.cachelevel = 0;
    return new ClangCompiler(o);
  }();
  return *cc;
}

// verify_each: the reference's LLVMPassBuilderOptionsSetVerifyEach (the module is verified
// after every pass); the benchmark shows what it costs.
LlvmCompiler& Llvm(bool verify_each = true) {
  static LlvmCompiler* const kCompilers[2] = {
      [] {
        LlvmCompilerOptions o;
        o.cachelevel = 0;
        o.verify_each = false;
        return new LlvmCompiler(o);
      }(),
      [] {
        LlvmCompilerOptions o;
        o.cachelevel = 0;
        return new LlvmCompiler(o);
      }()};
  return *kCompilers[verify_each ? 1 : 0];
}

std::string CompileOne(const ProgramSpec& p, bool llvm, bool verify_each = true) {
  absl::StatusOr<std::string> lib =
      llvm ? Llvm(verify_each).CompileUncached(*WithLlvmCpuEntry(p.src, p.function_name))
                                         : Clang().CompileUncached(ClangSource(p));
  TG_CHECK(lib.ok()) << lib.status();
  return *std::move(lib);
}

CpuProgram LoadOne(const std::string& lib, const ProgramSpec& p, bool llvm) {
  absl::StatusOr<CpuProgram> prg =
      llvm ? LoadLlvmObject(lib, p.function_name) : CpuProgram::Load(lib, p.function_name);
  TG_CHECK(prg.ok()) << prg.status();
  return *std::move(prg);
}

void BM_Compile(benchmark::State& state, std::string name, bool llvm, bool noopt,
                bool verify_each) {
  std::vector<ProgramSpec> ks = Kernels(name, llvm, noopt);
  for (auto _ : state)
    for (const ProgramSpec& p : ks) benchmark::DoNotOptimize(CompileOne(p, llvm, verify_each));
  state.counters["kernels"] = static_cast<double>(ks.size());
  state.counters["per_kernel"] = benchmark::Counter(
      static_cast<double>(ks.size()), benchmark::Counter::kIsIterationInvariantRate |
                                          benchmark::Counter::kInvert);
}

void BM_Load(benchmark::State& state, std::string name, bool llvm, bool noopt) {
  std::vector<ProgramSpec> ks = Kernels(name, llvm, noopt);
  std::vector<std::string> libs;
  for (const ProgramSpec& p : ks) libs.push_back(CompileOne(p, llvm));
  for (auto _ : state)
    for (size_t i = 0; i < ks.size(); ++i) LoadOne(libs[i], ks[i], llvm);  // load + unload
  state.counters["per_kernel"] = benchmark::Counter(
      static_cast<double>(ks.size()), benchmark::Counter::kIsIterationInvariantRate |
                                          benchmark::Counter::kInvert);
}

// Runs every kernel of the workload once per iteration (single core), on zeroed buffers.
void BM_Run(benchmark::State& state, std::string name, bool llvm, bool noopt) {
  std::vector<ProgramSpec> ks = Kernels(name, llvm, noopt);
  std::vector<CpuProgram> progs;
  std::vector<std::vector<CpuBuffer>> bufs(ks.size());
  std::vector<std::vector<void*>> ptrs(ks.size());
  for (size_t i = 0; i < ks.size(); ++i) {
    progs.push_back(LoadOne(CompileOne(ks[i], llvm), ks[i], llvm));
    for (int64_t slot : ks[i].globals)
      for (const UOp& u : ks[i].uops)
        if (u.op() == Ops::DEFINE_GLOBAL && u.arg().int64() == slot) {
          bufs[i].push_back(*CpuBuffer::Allocate(static_cast<size_t>(u.dtype().nbytes())));
          std::memset(bufs[i].back().data(), 0, static_cast<size_t>(u.dtype().nbytes()));
          ptrs[i].push_back(bufs[i].back().data());
        }
  }
  for (auto _ : state)
    for (size_t i = 0; i < ks.size(); ++i) progs[i].Run(ptrs[i], {}, 1);
}

void Register() {
  for (bool noopt : {true, false}) {
    for (const char* w : {"matmul512", "conv2d", "softmax"}) {
      for (bool llvm : {false, true}) {
        std::string tag = std::string(w) + (noopt ? "/noopt/" : "/hco/") + (llvm ? "llvm" : "clang");
        benchmark::RegisterBenchmark(("BM_Compile/" + tag).c_str(), BM_Compile, w, llvm, noopt,
                                     true)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(llvm ? 20 : 3);
        if (llvm)
          benchmark::RegisterBenchmark(("BM_Compile/" + tag + "_noverify").c_str(), BM_Compile, w,
                                       llvm, noopt, false)
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime()
              ->Iterations(20);
        benchmark::RegisterBenchmark(("BM_Load/" + tag).c_str(), BM_Load, w, llvm, noopt)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
        benchmark::RegisterBenchmark(("BM_Run/" + tag).c_str(), BM_Run, w, llvm, noopt)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->MinTime(0.5);
      }
    }
  }
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) {
  tg::Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
