// File: autotune/measure/output_check_benchmark.cc
// The result check of one GPU candidate: a 4096x4096 output compared with the unoptimized
// kernel's, where a tensor-core kernel's half outputs differ from it in the last bit in many
// places (another summation order), so most elements take the tolerant path.
//
//   bazel run -c opt //autotune/measure:output_check_benchmark
#include <cstdint>
#include <cstring>
#include <string>

#include "autotune/measure/output_check.h"
#include "benchmark/benchmark.h"

namespace tg::autotune {
namespace {

// `want` with every `every`-th element one unit of the last place up (bit-pattern + 1).
template <typename Bits>
std::string Perturbed(const std::string& want, int every) {
  std::string got = want;
  for (size_t off = 0; off + sizeof(Bits) <= got.size(); off += sizeof(Bits) * static_cast<size_t>(every)) {
    Bits b;
    std::memcpy(&b, got.data() + off, sizeof(Bits));
    ++b;
    std::memcpy(got.data() + off, &b, sizeof(Bits));
  }
  return got;
}

template <typename Bits>
void BM_Compare(benchmark::State& state, DType dtype) {
  const int64_t n = 4096 * 4096;
  const std::string want = RandomContents(dtype, n, 1);
  const std::string got = Perturbed<Bits>(want, static_cast<int>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(CompareOutput(dtype, got, want, threads));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(2 * want.size()));
}

void BM_CompareHalf(benchmark::State& state) { BM_Compare<uint16_t>(state, dtypes::float16); }
void BM_CompareBFloat16(benchmark::State& state) { BM_Compare<uint16_t>(state, dtypes::bfloat16); }
void BM_CompareFloat(benchmark::State& state) { BM_Compare<uint32_t>(state, dtypes::float32); }

// every element differs (1) or every 16th; on 1 thread or 2
BENCHMARK(BM_CompareHalf)->Args({1, 1})->Args({16, 1})->Args({1, 2})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompareBFloat16)->Args({1, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompareFloat)->Args({1, 1})->Args({16, 1})->Args({1, 2})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tg::autotune
