// Fuzz of the built-in workloads' parameters (issue 16): random huge, zero, negative and
// overflowing sizes must give an errored tensor or a failed Realize, never an abort. The
// workloads are what `tg run`, `tg tune` and `tg compile` build from user input, and the
// CLI only checks that each parameter is >= 1; the library takes any int64.
//
// A graph that builds without error is not run when it is large (that would only test the
// machine's memory): its schedule is made and every kernel is lowered for the CPU instead,
// which is where sizes meet the index arithmetic. Small graphs are realized for real.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/workloads/workloads.h"

namespace tg {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// Values that meet the edges (zero, negative, the int32 and uint32 limits, products that
// overflow int64), sizes large enough that the graph is only lowered, and small ones so that
// some graphs run.
int64_t Draw(std::mt19937_64& rng) {
  static const int64_t kEdges[] = {0, -1, -7, (int64_t{1} << 31) - 1, int64_t{1} << 31, (int64_t{1} << 32) + 1,
                                   int64_t{1} << 40, int64_t{3037000500} /* its square overflows */,
                                   kMax / 2, kMax, std::numeric_limits<int64_t>::min()};
  switch (rng() % 8) {
    case 0: return static_cast<int64_t>(rng());  // anything, sign included
    case 1: case 2: return kEdges[rng() % std::size(kEdges)];
    case 3: case 4: return 1024 + static_cast<int64_t>(rng() % (1 << 16));
    default: return 1 + static_cast<int64_t>(rng() % 17);
  }
}

struct Counts {
  int sets = 0, errored_at_build = 0, errored_at_realize = 0, realized = 0, lowered = 0;
};

bool Small(const std::vector<Tensor>& ts) {
  double elements = 0;
  for (const Tensor& t : ts) elements += static_cast<double>(t.numel());
  return elements <= 1 << 14;
}

// No abort anywhere on the way; which way it went is counted.
void Exercise(const Workload& w, const WorkloadParams& p, Counts& c) {
  ++c.sets;
  // unbuffered, before anything can go wrong: the last line of a crashed run's log names the set
  std::string set;
  for (const auto& [k, v] : p) absl::StrAppend(&set, " ", k, "=", v);
  std::fprintf(stderr, "%s:%s\n", std::string(w.name).c_str(), set.c_str());
  WorkloadGraph g = w.build(p);
  std::vector<Tensor> all = g.inputs;
  all.insert(all.end(), g.outputs.begin(), g.outputs.end());
  bool ok = true;
  for (const Tensor& t : all) ok &= t.ok();
  if (!ok) {
    ++c.errored_at_build;
    // the library reports it: Realize of an errored tensor is its error, at once
    absl::Status s = Realize(g.outputs);
    for (const Tensor& t : g.inputs) s.Update(t.ok() ? absl::OkStatus() : t.status());
    EXPECT_FALSE(s.ok()) << "an errored graph realized";
    return;
  }
  if (Small(all)) {
    absl::Status s = Realize(g.inputs);
    if (s.ok()) s = Realize(g.outputs);
    ++(s.ok() ? c.realized : c.errored_at_realize);
    return;
  }
  std::vector<UOp> roots;
  for (const Tensor& t : g.outputs) roots.push_back(t.uop());
  absl::StatusOr<Schedule> sched = CreateScheduleWithVars(UOp::Sink(roots));
  if (!sched.ok()) {
    ++c.errored_at_realize;
    return;
  }
  absl::StatusOr<Device*> cpu = GetDevice("CPU");
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  for (const ScheduleItem& item : sched->items) {
    if (item.ast.op() != Ops::SINK) continue;
    absl::StatusOr<ProgramSpec> prog = GetProgram(item.ast, (*cpu)->renderer());
    if (!prog.ok()) {
      ++c.errored_at_realize;
      return;
    }
  }
  ++c.lowered;
}

// Rounds per workload; WORKLOAD_FUZZ_ROUNDS=N asks for more (the same seed: round 1 is this),
// e.g. bazel test --config=ubsan --test_env=WORKLOAD_FUZZ_ROUNDS=20 --test_timeout=1800 ...
int Rounds() {
  const char* n = std::getenv("WORKLOAD_FUZZ_ROUNDS");
  int v = 0;
  return n != nullptr && absl::SimpleAtoi(n, &v) && v > 0 ? v : 1;
}

class WorkloadParamsFuzzTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WorkloadParamsFuzzTest, NoParameterValuesAbort) {
  const Workload* w = FindWorkload(GetParam());
  ASSERT_NE(w, nullptr);
  std::mt19937_64 rng(20261127);
  const auto start = std::chrono::steady_clock::now();
  Counts c;
  const WorkloadParams defaults = w->Defaults();
  for (int round = Rounds(); round > 0; --round) {
    // one parameter at a time away from small values, then all of them at once
    for (const auto& [name, unused] : defaults) {
      for (int i = 0; i < 2; ++i) {
        WorkloadParams p;
        for (const auto& [k, v] : defaults) p[k] = std::min<int64_t>(v, 4);
        p[name] = Draw(rng);
        Exercise(*w, p, c);
      }
    }
    for (int i = 0; i < 4; ++i) {
      WorkloadParams p = defaults;
      for (auto& [k, v] : p) v = Draw(rng);
      Exercise(*w, p, c);
    }
  }
  std::printf("%-13s %3d sets: %3d errored tensors, %3d failed to realize or lower, %3d realized, "
              "%3d lowered (%.1f s)\n",
              std::string(w->name).c_str(), c.sets, c.errored_at_build, c.errored_at_realize, c.realized,
              c.lowered, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

std::vector<std::string> WorkloadNames() {
  std::vector<std::string> names;
  for (const Workload& w : Workloads()) names.emplace_back(w.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryWorkload, WorkloadParamsFuzzTest, ::testing::ValuesIn(WorkloadNames()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace tg
