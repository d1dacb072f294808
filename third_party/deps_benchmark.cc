// Checks that @benchmark//:benchmark_main links: bazel run -c opt //third_party:deps_benchmark

#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"

namespace {

void BM_StrCat(benchmark::State& state) {
  for (auto _ : state) {
    std::string s = absl::StrCat("uop", state.iterations());
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_StrCat);

}  // namespace
