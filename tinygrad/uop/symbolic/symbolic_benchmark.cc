// The symbolic simplifier's speed:
//   bazel run -c opt //tinygrad/uop/symbolic:symbolic_benchmark
// BM_SymbolicIndexExpression: graph_rewrite with Symbolic() over a ~10k-node index expression.
// BM_SimplifyPortedCases: Simplify() of every case ported from tinygrad's TestSymbolic.
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/symbolic/symbolic.h"
#include "tinygrad/uop/symbolic/symbolic_cases.h"

namespace tg {
namespace {

// A sum of div/mod index terms over 8 ranges and a variable, like unrolled kernel indexing.
UOp IndexExpression(int terms) {
  std::vector<UOp> ranges;
  for (int i = 0; i < 8; ++i) ranges.push_back(UOp::Range(4 + 3 * i, i));
  UOp v = UOp::Variable("start", 0, 1024);
  UOp sum = v;
  for (int i = 0; i < terms; ++i) {
    const UOp& r = ranges[i % 8];
    sum = sum + ((r * (i % 13 + 1) + v + i) % (i % 7 + 2)).idiv(i % 5 + 1) * (i % 3 + 1);
  }
  return sum;
}

void BM_SymbolicIndexExpression(benchmark::State& state) {
  UOp e = IndexExpression(static_cast<int>(state.range(0)));
  const int64_t nodes = static_cast<int64_t>(e.toposort().size());
  for (auto _ : state) {
    UOp out = GraphRewrite(e, Symbolic(), {.name = "simplify"});
    benchmark::DoNotOptimize(out.id());
  }
  state.counters["input_nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SymbolicIndexExpression)->Arg(1650)->Unit(benchmark::kMillisecond);

void BM_SimplifyPortedCases(benchmark::State& state) {
  std::vector<UOp> exprs;
  for (const Case& c : LoadCases()) {
    if (c.name.rfind("TestSymbolic.", 0) != 0) continue;
    absl::StatusOr<UOp> u = ParseExpr(c.expr);
    if (!u.ok()) {
      state.SkipWithError(std::string(u.status().message()).c_str());
      return;
    }
    exprs.push_back(*u);
  }
  for (auto _ : state)
    for (const UOp& e : exprs) benchmark::DoNotOptimize(Simplify(e).id());
  state.counters["cases"] = static_cast<double>(exprs.size());
  state.counters["cases/s"] = benchmark::Counter(static_cast<double>(exprs.size() * state.iterations()),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimplifyPortedCases)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
