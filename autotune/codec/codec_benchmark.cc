// File: autotune/codec/codec_benchmark.cc
// Cap'n Proto encode and decode time and message size of every workload's kernels (the
// scheduled ASTs a coordinator sends, and their fully rewritten forms as a larger case).
//   bazel run -c opt //autotune/codec:codec_benchmark
// Per workload: kernels, nodes, bytes (all its kernels' messages together), bytes/node.
// decode_warm: the graph is alive (interning finds every node); decode_cold: only the bytes
// are held, as on a worker seeing the kernel for the first time.
#include <string>
#include <vector>

#include "autotune/codec/ast_codec.h"
#include "autotune/codec/codec_test_kernels.h"
#include "benchmark/benchmark.h"
#include "tinygrad/base/check.h"
#include "tinygrad/workloads/workloads.h"

namespace tg::autotune::codec {
namespace {

struct Case {
  std::vector<UOp> kernels;
  std::vector<std::string> bytes;
  int64_t nodes = 0;
  int64_t total_bytes = 0;
};

Case MakeCase(std::string_view workload, bool rewritten) {
  Case c;
  for (const NamedKernel& k : KernelsOf(workload)) {
    UOp u = rewritten ? FullyRewritten(k.ast) : k.ast;
    if (!u) continue;
    c.nodes += static_cast<int64_t>(u.toposort().size());
    c.bytes.push_back(EncodeAst(u));
    c.total_bytes += static_cast<int64_t>(c.bytes.back().size());
    c.kernels.push_back(u);
  }
  return c;
}

void Counters(benchmark::State& state, const Case& c) {
  state.counters["kernels"] = static_cast<double>(c.bytes.size());
  state.counters["nodes"] = static_cast<double>(c.nodes);
  state.counters["bytes"] = static_cast<double>(c.total_bytes);
  state.counters["bytes/node"] = static_cast<double>(c.total_bytes) / static_cast<double>(c.nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(c.nodes),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Encode(benchmark::State& state, std::string workload, bool rewritten) {
  Case c = MakeCase(workload, rewritten);
  for (auto _ : state)
    for (const UOp& k : c.kernels) benchmark::DoNotOptimize(EncodeAst(k).size());
  Counters(state, c);
}

void BM_DecodeWarm(benchmark::State& state, std::string workload, bool rewritten) {
  Case c = MakeCase(workload, rewritten);
  for (auto _ : state)
    for (const std::string& b : c.bytes) {
      absl::StatusOr<UOp> u = DecodeAst(b);
      TG_CHECK(u.ok()) << u.status();
      benchmark::DoNotOptimize(u->id());
    }
  Counters(state, c);
}

void BM_DecodeCold(benchmark::State& state, std::string workload, bool rewritten) {
  Case c = MakeCase(workload, rewritten);
  c.kernels.clear();  // only the bytes stay: each decode interns the graph afresh
  for (auto _ : state)
    for (const std::string& b : c.bytes) {
      absl::StatusOr<UOp> u = DecodeAst(b);
      TG_CHECK(u.ok()) << u.status();
      benchmark::DoNotOptimize(u->id());
    }
  Counters(state, c);
}

}  // namespace
}  // namespace tg::autotune::codec

int main(int argc, char** argv) {
  using namespace tg::autotune::codec;
  for (const tg::Workload& w : tg::Workloads()) {
    for (bool rewritten : {false, true}) {
      std::string name = std::string(w.name) + (rewritten ? "_rewritten" : "");
      benchmark::RegisterBenchmark(("encode/" + name).c_str(), BM_Encode, std::string(w.name), rewritten)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("decode_warm/" + name).c_str(), BM_DecodeWarm, std::string(w.name), rewritten)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("decode_cold/" + name).c_str(), BM_DecodeCold, std::string(w.name), rewritten)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
