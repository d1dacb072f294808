// File: tinygrad/codegen/pipeline_benchmark.cc
// GetProgram (full codegen without opts, or on a kernel the reference already optimized) on the
// golden kernels: the cost BEAM search will pay per candidate.
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "benchmark/benchmark.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

class CpuRenderer : public Renderer {
 public:
  CpuRenderer() {
    device = "CPU";
    has_local = false;
    global_max = LaunchDims{8, 0, 0};
    code_for_op = OpSet{Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::RECIPROCAL};
  }
  std::string Render(std::span<const UOp>) const override { return ""; }
};

// The serialized AST `name` of the golden file.
UOp ReadAst(const std::string& name) {
  std::ifstream in("tinygrad/codegen/testdata/pipeline_noopt.txt");
  std::string line;
  std::vector<UOp> nodes;
  bool on = false;
  while (std::getline(in, line)) {
    if (line == "ast " + name) {
      on = true;
      continue;
    }
    if (!on) continue;
    if (line == "end") break;
    std::vector<std::string> f = absl::StrSplit(line, " | ");
    Ops op;
    OpFromName(f[1], &op);
    std::vector<UOp> srcs;
    if (f[3] != "-")
      for (const std::string& i : std::vector<std::string>(absl::StrSplit(f[3], ','))) srcs.push_back(nodes.at(std::stoul(i)));
    Arg arg = f[4] == "Invalid" ? Arg(ConstValue::Invalid()) : *ParseArgText(f[4]);
    Arg tag = f.size() > 5 ? Arg(int64_t{1}) : Arg();
    nodes.push_back(UOp::Make(op, *ParseDTypeSpec(f[2]), srcs, arg, tag));
  }
  return nodes.back();
}

void BM_GetProgram(benchmark::State& state, const std::string& name) {
  Config c = GetConfig();
  c.noopt = true;
  c.spec = 0;
  ScopedConfig scoped(c);
  CpuRenderer ren;
  UOp ast = ReadAst(name);
  for (auto _ : state) benchmark::DoNotOptimize(GetProgram(ast, ren));
}
BENCHMARK_CAPTURE(BM_GetProgram, matmul_noopt, std::string("a_matmul_relu 0"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GetProgram, conv_noopt, std::string("d_conv 0"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GetProgram, softmax_exp_noopt, std::string("c_softmax 2"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GetProgram, conv_upcast_unroll, std::string("opt_cpu_hco_conv 0"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GetProgram, big_sum_threads, std::string("opt_cpu_hco_big_sum 0"))->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
