// File: tinygrad/emulator/wmma_models_benchmark.cc
// EmulateWmma per call: the interpreter pays it once per WMMA uop per workgroup.
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/emulator/wmma_models.h"

namespace tg {
namespace {

void Run(benchmark::State& state, const TensorCore& tc, const char* device) {
  const int lanes = static_cast<int>(tc.threads * state.range(0));
  const Arg arg = Arg::Tuple({tc.ToString(), Arg::Tuple({tc.dims[0], tc.dims[1], tc.dims[2]}), tc.dtype_in.repr(),
                              tc.dtype_out.repr(), device, tc.threads, Arg::Tuple({}), Arg::Tuple({})});
  WmmaFragment a(tc.elements_per_thread[0], std::vector<double>(lanes, 1.0)),
      b(tc.elements_per_thread[1], std::vector<double>(lanes, 2.0)),
      c(tc.elements_per_thread[2], std::vector<double>(lanes, 3.0));
  for (auto _ : state) benchmark::DoNotOptimize(EmulateWmma(arg, a, b, c));
  // multiply-adds per second
  state.SetItemsProcessed(state.iterations() * state.range(0) * tc.dims[0] * tc.dims[1] * tc.dims[2]);
}

void BM_CudaM16N8K16(benchmark::State& state) { Run(state, tensor_cores::CudaSm80()[0], "CUDA"); }
void BM_AmdCdnaK128(benchmark::State& state) { Run(state, tensor_cores::AmdCdna4()[0], "AMD"); }
void BM_Amx(benchmark::State& state) { Run(state, tensor_cores::Amx()[0], "CPU"); }
BENCHMARK(BM_CudaM16N8K16)->Arg(1)->Arg(4);
BENCHMARK(BM_AmdCdnaK128)->Arg(1);
BENCHMARK(BM_Amx)->Arg(1);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
