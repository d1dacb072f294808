// Interning throughput: how fast UOps are built (new nodes and hits) and dropped.
//   bazel run -c opt //tinygrad/uop:uop_benchmark
#include <string>

#include "benchmark/benchmark.h"
#include "tinygrad/uop/uop.h"

namespace tg {
namespace {

// New nodes: every iteration builds ~6 nodes that do not exist yet, then drops them.
void BM_InternNewNodes(benchmark::State& state) {
  UOp v = UOp::Variable("v", 0, 1000);
  int64_t i = 0, nodes = 0;
  for (auto _ : state) {
    UOp e = (v * (i + 2) + i).idiv(i + 3);
    benchmark::DoNotOptimize(e.id());
    ++i;
    nodes += 6;  // three consts, MUL, ADD, IDIV
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_InternNewNodes);

// Hits: the same 6 nodes every iteration (what rewrites mostly do).
void BM_InternHits(benchmark::State& state) {
  UOp v = UOp::Variable("v", 0, 1000);
  UOp keep = (v * 2 + 1).idiv(3);
  int64_t nodes = 0;
  for (auto _ : state) {
    UOp e = (v * 2 + 1).idiv(3);
    benchmark::DoNotOptimize(e.id());
    nodes += 6;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_InternHits);

// Building and dropping a deep chain: the drop is iterative.
void BM_BuildAndDropChain(benchmark::State& state) {
  const int64_t n = state.range(0);
  for (auto _ : state) {
    UOp x = UOp::Variable("x", 0, 10);
    for (int64_t i = 0; i < n; ++i) x = x + i;
    benchmark::DoNotOptimize(x.id());
  }
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(2 * n * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BuildAndDropChain)->Arg(10000)->Arg(100000);

// Handle copies cost one atomic increment and decrement each.
void BM_HandleCopy(benchmark::State& state) {
  UOp v = UOp::Variable("v", 0, 1000);
  for (auto _ : state) {
    UOp c = v;
    benchmark::DoNotOptimize(c.id());
  }
}
BENCHMARK(BM_HandleCopy);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
