// Scheduling time of deep graphs: an N-layer MLP (matmul + relu per layer, one kernel each),
// with the schedule cache cleared so every iteration schedules from scratch. Time per layer
// should stay flat as N grows.
//   bazel run -c opt //tinygrad/schedule:schedule_benchmark
#include "benchmark/benchmark.h"
#include "tinygrad/base/check.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/uop/shape.h"

namespace tg {
namespace {

UOp Empty(const Shape& s) {
  return UOp::NewBuffer("CPU", Prod(s).value(), dtypes::float32).reshape(s);
}

UOp Relu(const UOp& x) {
  UOp zero = UOp::ConstOn(dtypes::float32, 0.0, "CPU", x.shape());
  return zero.lt(x).where(x, zero);
}

UOp DeepMlp(int layers) {
  UOp x = Empty({16, 64});
  for (int i = 0; i < layers; ++i) {
    UOp a = x.reshape({16, 1, 64}).expand({16, 64, 64});
    UOp w = Empty({64, 64}).reshape({1, 64, 64}).permute({0, 2, 1}).expand({16, 64, 64});
    x = Relu((a * w).r(Ops::ADD, std::vector<int64_t>{2}).reshape({16, 64}));
  }
  return x;
}

void BM_ScheduleDeepMlp(benchmark::State& state) {
  int layers = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    ClearScheduleCache();
    UOp x = DeepMlp(layers);
    state.ResumeTiming();
    absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({x}));
    TG_CHECK(s.ok() && s->items.size() == static_cast<size_t>(layers)) << s.status();
  }
  state.SetItemsProcessed(state.iterations() * layers);  // items/s = layers scheduled per second
}
BENCHMARK(BM_ScheduleDeepMlp)->Arg(15)->Arg(30)->Arg(60)->Arg(120)->Unit(benchmark::kMillisecond);

void BM_ScheduleCacheHit(benchmark::State& state) {
  ClearScheduleCache();
  for (auto _ : state) {
    state.PauseTiming();
    UOp x = DeepMlp(10);  // new buffers each time: a hit after the first iteration
    state.ResumeTiming();
    absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({x}));
    TG_CHECK(s.ok()) << s.status();
  }
}
BENCHMARK(BM_ScheduleCacheHit)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tg

BENCHMARK_MAIN();
