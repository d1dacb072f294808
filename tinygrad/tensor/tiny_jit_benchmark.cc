// File: tinygrad/tensor/tiny_jit_benchmark.cc
// What a TinyJit replay saves per training step: one Adam step of a two-layer MLP, run eagerly
// (build the graph, backward, schedule (a schedule-cache hit after the first), run) against
// replayed (run the captured kernels). The kernels are the same, so the difference is the
// per-step overhead a replay removes; the tiny model makes that overhead most of the time.
//   bazel run -c opt //tinygrad/tensor:tiny_jit_benchmark
// Each step reads its loss, as a training loop does: on a GPU that waits for the step's kernels.
// On CUDA (DEV=CUDA), JIT=1 against JIT=2 is what launching a replay as graphs saves
// (tools/gpu_check's jit_graphs step).
// Counters: kernels/step (EngineStats: a graph counts as one), schedules/step (0 for a replay).
#include <memory>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"

namespace tg {
namespace {

struct Mlp : nn::Module {
  Mlp(int64_t in, int64_t hidden, int64_t out) : l1(in, hidden), l2(hidden, out) {}
  Tensor operator()(const Tensor& x) const { return l2(l1(x).relu()); }
  void VisitState(nn::StateVisitor& v) override {
    v.Child("l1", l1);
    v.Child("l2", l2);
  }
  nn::Linear l1, l2;
};

struct Setup {
  explicit Setup(int64_t batch, int64_t in, int64_t hidden, int64_t out)
      : model(in, hidden, out),
        opt(*Adam(nn::GetParameters(model), {.lr = 1e-3})),
        x(Tensor::Rand({batch, in}).contiguous()),
        y(Tensor::Rand({batch, out}).contiguous()) {
    (void)Realize({x, y});
  }
  absl::StatusOr<std::vector<Tensor>> Step(const Tensor& xb, const Tensor& yb) {
    opt->zero_grad();
    Tensor loss = (model(xb) - yb).square().mean();
    if (absl::Status s = loss.backward(); !s.ok()) return s;
    absl::StatusOr<std::vector<Tensor>> step = opt->schedule_step();
    if (!step.ok()) return step.status();
    step->insert(step->begin(), loss);
    return step;
  }
  Mlp model;
  std::unique_ptr<Optimizer> opt;
  Tensor x, y;
};

void Count(benchmark::State& state, const EngineStats& before) {
  const EngineStats& after = GetEngineStats();
  auto per_step = [&](double v) {
    return benchmark::Counter(v / static_cast<double>(state.iterations()));
  };
  state.counters["kernels/step"] = per_step(static_cast<double>(after.kernel_count - before.kernel_count));
  state.counters["schedules/step"] = per_step(static_cast<double>(after.schedules - before.schedules));
}

// args: batch, in, hidden, out
void BM_EagerStep(benchmark::State& state) {
  Tensor::Train train;
  Setup s(state.range(0), state.range(1), state.range(2), state.range(3));
  auto step = [&] {
    absl::StatusOr<std::vector<Tensor>> out = s.Step(s.x, s.y);
    if (!out.ok() || !Realize(*out).ok() || !(*out)[0].item<float>().ok())
      state.SkipWithError("step failed");
  };
  for (int i = 0; i < 3; ++i) step();  // compile and fill the schedule cache
  const EngineStats before = GetEngineStats();
  for (auto _ : state) step();
  Count(state, before);
}

void BM_JitReplayStep(benchmark::State& state) {
  Tensor::Train train;
  Setup s(state.range(0), state.range(1), state.range(2), state.range(3));
  TinyJit jit([&s](std::span<const Tensor> in) { return s.Step(in[0], in[1]); });
  auto step = [&] {
    absl::StatusOr<std::vector<Tensor>> out = jit({s.x, s.y});
    if (!out.ok() || !(*out)[0].item<float>().ok()) state.SkipWithError("step failed");
  };
  for (int i = 0; i < 3; ++i) step();  // run, capture, one replay (graphs made)
  const EngineStats before = GetEngineStats();
  for (auto _ : state) step();
  state.counters["graphs"] = static_cast<double>(jit.captured_graphs());
  Count(state, before);
}

// A tiny MLP (kernel time negligible: the step is mostly overhead) and a small one.
BENCHMARK(BM_EagerStep)->Args({4, 8, 16, 4})->Args({64, 784, 128, 10})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JitReplayStep)->Args({4, 8, 16, 4})->Args({64, 784, 128, 10})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
