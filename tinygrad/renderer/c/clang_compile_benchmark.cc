// File: tinygrad/renderer/c/clang_compile_benchmark.cc
// What compiling a C kernel costs: clang as a process per kernel (ClangCompiler: `clang
// -shared`, dlopen) against clang in this process (ClangInProcessCompiler: libclang-cpp, an
// object loaded by ORC), on ClangRenderer kernels of matmul 512 and conv2d lowered without opts
// (NOOPT) and with the hand-coded opts. Compiles bypass the caches.
//
//   bazel run -c opt //tinygrad/renderer/c:clang_compile_benchmark
//
// Counters: per_kernel = seconds per kernel (each iteration covers every kernel of the workload).
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/runtime/cpu/clang_inprocess.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/llvm_compiler.h"
#include "tinygrad/runtime/cpu/program.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

Tensor Graph(const std::string& name) {
  if (name == "matmul512") return Tensor::Empty({512, 512}).matmul(Tensor::Empty({512, 512}));
  TG_CHECK(name == "conv2d") << name;
  Conv2dOpts o;
  o.padding = {1};
  return Tensor::Empty({8, 16, 32, 32}).conv2d(Tensor::Empty({32, 16, 3, 3}), std::nullopt, o);
}

// The workload's kernels as C with the uniform CPU entry point.
std::vector<std::pair<std::string, std::string>> Sources(const std::string& name, bool noopt) {
  Config c = GetConfig();
  c.noopt = noopt;
  c.cachelevel = 0;
  c.spec = 0;
  ScopedConfig scoped(c);
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({Graph(name).uop()}));
  TG_CHECK(s.ok()) << s.status();
  ClangRenderer ren(CpuRendererOptions::FromConfig(GetConfig()));
  std::vector<std::pair<std::string, std::string>> out;
  for (const ScheduleItem& si : s->items) {
    if (si.ast.op() != Ops::SINK) continue;
    absl::StatusOr<ProgramSpec> p = GetProgram(si.ast, ren);
    TG_CHECK(p.ok()) << p.status();
    out.emplace_back(p->function_name,
                     WithCpuEntry(p->src, p->function_name, static_cast<int>(p->globals.size()),
                                  static_cast<int>(p->vars.size())));
  }
  return out;
}

ClangCompiler& Process() {
  static ClangCompiler* cc = [] {
    ClangCompilerOptions o;
    o.flags = ClangCompilerOptions::DefaultFlags();
    o.cachelevel = 0;
    return new ClangCompiler(o);
  }();
  return *cc;
}

ClangInProcessCompiler& InProcess() {
  static ClangInProcessCompiler* cc = [] {
    ClangInProcessOptions o;
    o.flags = ClangInProcessOptions::DefaultFlags();
    o.cachelevel = 0;
    return new ClangInProcessCompiler(o);
  }();
  return *cc;
}

void PerKernel(benchmark::State& state, size_t n) {
  state.counters["kernels"] = static_cast<double>(n);
  state.counters["per_kernel"] = benchmark::Counter(
      static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Compile only (load = false) or compile + load + unload, as BEAM does per candidate.
void BM_Clang(benchmark::State& state, std::string name, bool noopt, bool inprocess, bool load) {
  std::vector<std::pair<std::string, std::string>> ks = Sources(name, noopt);
  for (auto _ : state) {
    for (const auto& [fn, src] : ks) {
      absl::StatusOr<std::string> lib =
          inprocess ? InProcess().CompileUncached(src) : Process().CompileUncached(src);
      TG_CHECK(lib.ok()) << lib.status();
      if (!load) continue;
      absl::StatusOr<CpuProgram> prg =
          inprocess ? LoadLlvmObject(*lib, fn) : CpuProgram::Load(*lib, fn);
      TG_CHECK(prg.ok()) << prg.status();
    }
  }
  PerKernel(state, ks.size());
}

// Building the in-process compiler: one in-process clang driver run (once per device).
void BM_InProcessSetup(benchmark::State& state) {
  ClangInProcessOptions o;
  o.flags = ClangInProcessOptions::DefaultFlags();
  o.cachelevel = 0;
  for (auto _ : state) {
    ClangInProcessCompiler cc(o);
    TG_CHECK(cc.init_status().ok()) << cc.init_status();
  }
}

void Register() {
  benchmark::RegisterBenchmark("BM_InProcessSetup", BM_InProcessSetup)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  for (bool noopt : {true, false}) {
    for (const char* w : {"matmul512", "conv2d"}) {
      for (bool inprocess : {false, true}) {
        for (bool load : {false, true}) {
          std::string tag = std::string(w) + (noopt ? "/noopt/" : "/hco/") +
                            (inprocess ? "inprocess" : "process") + (load ? "+load" : "");
          benchmark::RegisterBenchmark(("BM_Clang/" + tag).c_str(), BM_Clang, w, noopt,
                                       inprocess, load)
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime()
              ->Iterations(inprocess ? 10 : 3);
        }
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
