// File: tests/e2e/engine_test.cc
// The engine (tinygrad/engine) driven through the Tensor API: memory planning on a real
// schedule, buffers returned when tensors go away, the method and schedule caches on repeated
// computations, compiler failures reported as a Status, and DEBUG output.
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/e2e/e2e_util.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/buffer.h"
#include "tinygrad/engine/memory.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/schedule/schedule.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/uop/spec.h"

namespace tg {
namespace {

using e2e::ExpectAllClose;
using e2e::RandomInput;
using e2e::Values;

// x -> (x + 1) -> (.. + 2) -> ... -> (.. + steps), each step forced into its own kernel.
Tensor Chain(const Tensor& x, int steps) {
  Tensor y = x;
  for (int i = 1; i <= steps; ++i) y = (y + i).contiguous();
  return y;
}

std::vector<double> ChainWant(std::vector<double> x, int steps) {
  for (double& v : x) v += steps * (steps + 1) / 2;
  return x;
}

// Captures std::cout (where the engine's DEBUG output goes) for a scope.
class CaptureStdout {
 public:
  CaptureStdout() : old_(std::cout.rdbuf(out_.rdbuf())) {}
  ~CaptureStdout() { std::cout.rdbuf(old_); }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::streambuf* old_;
};

Config With(void (*edit)(Config&)) {
  Config c = GetConfig();
  edit(c);
  return c;
}

// ** (a) memory planning **

// The planner on the schedule Realize makes for a chain of 6 kernels: each intermediate dies
// after the kernel that reads it, so later intermediates take its memory. 8 buffers (input,
// 5 intermediates, output... ) collapse to input + 2 alternating intermediates + output.
TEST(EngineE2E, MemoryPlannerReusesIntermediatesOfAChain) {
  const int steps = 6;
  std::vector<double> x;
  Tensor in = RandomInput({64}, 21, &x);
  Tensor out = Chain(in, steps);
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({out.uop()}));
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->items.size(), static_cast<size_t>(steps));

  // The same inputs Realize gives PlanMemory: each item's buffers, the realized output kept.
  BufferTable& table = BufferTable::Get();
  std::vector<BufferList> items;
  absl::flat_hash_set<const Buffer*> before;
  for (const ScheduleItem& si : s->items) {
    ASSERT_EQ(si.ast.op(), Ops::SINK);
    BufferList bl;
    for (const UOp& b : si.bufs) bl.push_back(table.GetOrCreate(b));
    for (const auto& b : bl) before.insert(b.get());
    items.push_back(std::move(bl));
  }
  ASSERT_TRUE(s->becomes_map.contains(out.uop()));
  UOp out_base = s->becomes_map.at(out.uop()).base();
  if (out_base.op() == Ops::AFTER) out_base = out_base.src(0);
  ASSERT_EQ(out_base.op(), Ops::BUFFER);
  const Buffer* out_buf = table.Find(out_base).get();
  ASSERT_NE(out_buf, nullptr);
  EXPECT_EQ(before.size(), static_cast<size_t>(steps + 1));

  auto plan = PlanMemory(items, {out_buf});
  EXPECT_FALSE(plan.contains(out_buf)) << "the kept output was replaced";
  EXPECT_FALSE(plan.contains(items[0][1].get())) << "the allocated input was replaced";
  absl::flat_hash_set<const Buffer*> after;
  for (const BufferList& bl : items)
    for (const auto& b : bl) after.insert(plan.contains(b.get()) ? plan.at(b.get()).get() : b.get());
  EXPECT_EQ(after.size(), 4u) << "input, two alternating intermediates, output";
  // No kernel may read and write the same memory.
  for (const BufferList& bl : items) {
    absl::flat_hash_set<const Buffer*> args;
    for (const auto& b : bl) args.insert(plan.contains(b.get()) ? plan.at(b.get()).get() : b.get());
    EXPECT_EQ(args.size(), bl.size());
  }
  items.clear();
  s = absl::UnknownError("dropped");

  // Realizing the chain with and without the planner gives the right values.
  ExpectAllClose(Values(out), ChainWant(x, steps), 1e-6, 1e-6, "planned chain");
  {
    ScopedConfig no_plan(With([](Config& c) { c.no_memory_planner = true; }));
    ExpectAllClose(Values(Chain(in, steps)), ChainWant(x, steps), 1e-6, 1e-6, "unplanned chain");
  }
}

// A chain whose intermediates are all still held by tensors: nothing may be shared, and each
// keeps its own value.
TEST(EngineE2E, HeldIntermediatesKeepTheirValues) {
  std::vector<double> x;
  Tensor in = RandomInput({32}, 22, &x);
  std::vector<Tensor> steps = {in};
  for (int i = 1; i <= 4; ++i) steps.push_back((steps.back() + i).contiguous());
  ASSERT_TRUE(Realize(steps).ok());
  for (int i = 1; i <= 4; ++i)
    ExpectAllClose(Values(steps[i]), ChainWant(x, i), 1e-6, 1e-6, "step " + std::to_string(i));
}

// SPEC=2 turns on the per-rewrite spec check for the realize (the scheduler's rewrites too);
// SPEC=1, the default, only checks GetProgram's ends. The values are the same either way.
TEST(EngineE2E, Spec2ChecksEveryRewriteOfTheRealize) {
  std::vector<double> x;
  Tensor in = RandomInput({32}, 23, &x);
  {
    ScopedConfig spec2(With([](Config& c) { c.spec = 2; }));
    Tensor out = (in + 1).contiguous();
    ASSERT_TRUE(Realize({out}).ok());
    EXPECT_EQ(SpecCheckLevel(), 2);
    ExpectAllClose(Values(out), ChainWant(x, 1), 1e-6, 1e-6, "SPEC=2");
  }
  Tensor out = (in + 2).contiguous();
  ASSERT_TRUE(Realize({out}).ok());
  EXPECT_EQ(SpecCheckLevel(), 1);
}

// ** (b) no leaked device buffers **

TEST(EngineE2E, BufferTableShrinksBackWhenTensorsAreDropped) {
  BufferTable& table = BufferTable::Get();
  table.Sweep();
  const size_t before = table.size();
  std::weak_ptr<Buffer> out_buffer;
  {
    std::vector<double> x;
    Tensor a = RandomInput({8, 16}, 23, &x);
    Tensor b = (a * 2).contiguous().exp().sum(1);
    Tensor c = Chain(a, 3).softmax();
    ASSERT_TRUE(Realize({b, c}).ok());
    EXPECT_GT(table.size(), before);
    UOp base = b.uop().base();
    ASSERT_EQ(base.op(), Ops::BUFFER) << "a realized tensor sits on its buffer";
    out_buffer = table.Find(base);
    EXPECT_FALSE(out_buffer.expired());
    EXPECT_EQ(Values(b).size(), 8u);
  }
  table.Sweep();
  EXPECT_EQ(table.size(), before) << "buffers outlived every tensor using them";
  EXPECT_TRUE(out_buffer.expired()) << "the output's memory is still held";
}

// ** (c) caches **

// f(x, y) = relu(x * 3.25 + y).sum(1) on new data each time: the second realize finds the
// schedule in the schedule cache and every kernel in the method cache.
Tensor CacheGraph(const Tensor& x, const Tensor& y) { return (x * 3.25 + y).relu().sum(1); }

std::vector<double> CacheWant(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> want(4, 0.0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) want[r] += std::max(x[r * 8 + c] * 3.25 + y[r * 8 + c], 0.0);
  return want;
}

// Tensor::realize schedules SINK(t) itself, so CreateScheduleWithVars on the same graph shape
// must find realize's entry. (to_vector realizes a different graph, so it reads afterwards.)
TEST(EngineE2E, SameComputationOnNewInputsBuildsNoPrograms) {
  std::vector<double> x1, y1, x2, y2;
  Tensor out1 = CacheGraph(RandomInput({4, 8}, 24, &x1), RandomInput({4, 8}, 25, &y1));
  ASSERT_TRUE(out1.realize().ok());
  const int64_t built = GetEngineStats().programs_built;
  const size_t methods = MethodCacheSize();
  const size_t schedules = ScheduleCacheSize();
  EXPECT_GE(methods, 1u);

  Tensor out2 = CacheGraph(RandomInput({4, 8}, 26, &x2), RandomInput({4, 8}, 27, &y2));
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink({out2.uop()}));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->cache_hit) << "same graph on other buffers: a schedule-cache hit";
  ASSERT_TRUE(out2.realize().ok());
  EXPECT_EQ(GetEngineStats().programs_built, built) << "the second run compiled something";
  EXPECT_EQ(MethodCacheSize(), methods);
  EXPECT_EQ(ScheduleCacheSize(), schedules);
  ExpectAllClose(Values(out1), CacheWant(x1, y1), 1e-5, 1e-5, "first");
  ExpectAllClose(Values(out2), CacheWant(x2, y2), 1e-5, 1e-5, "second");

  // A different computation is a miss in both.
  Tensor out3 = (RandomInput({4, 8}, 28) * 3.25 - RandomInput({4, 8}, 29)).relu().sum(1);
  s = CreateScheduleWithVars(UOp::Sink({out3.uop()}));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->cache_hit);
  ASSERT_TRUE(out3.realize().ok());
  EXPECT_GT(GetEngineStats().programs_built, built);
}

// ** (d) compiler failures **

// A kernel nobody compiled yet, with the C compiler set to a path that does not exist: the
// readers return an error naming the compiler; nothing crashes, and the same tensor realizes
// once the compiler is back.
TEST(EngineE2E, MissingCompilerIsAnErrorStatus) {
  std::vector<double> x;
  Tensor in = RandomInput({16}, 30, &x, 0, 2);
  Tensor t = (in * 5.8125).sqrt().sum();  // a constant no other test uses: a new kernel
  {
    ScopedConfig bad(With([](Config& c) {
      c.cc = "/nonexistent/cc";
      c.cachelevel = 0;  // the on-disk cache must not supply the library
    }));
    absl::Status s = t.realize();
    EXPECT_FALSE(s.ok());
    EXPECT_TRUE(absl::StrContains(s.message(), "/nonexistent/cc")) << s;
    absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
    EXPECT_FALSE(v.ok());
  }
  double want = 0;
  for (double v : x) want += std::sqrt(v * 5.8125);
  absl::StatusOr<float> v = t.item<float>();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_NEAR(*v, want, 1e-4);
}

// ** (e) DEBUG output **

TEST(EngineE2E, Debug2PrintsOneLinePerKernel) {
  std::vector<double> x;
  Tensor in = RandomInput({8, 32}, 31, &x);
  Tensor t = in.softmax(-1);  // 3 kernels
  std::string out;
  {
    ScopedConfig debug(With([](Config& c) { c.debug = 2; }));
    CaptureStdout capture;
    ASSERT_TRUE(t.realize().ok());
    out = capture.str();
  }
  int kernel_lines = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("*** CPU", 0) == 0) ++kernel_lines;
  EXPECT_EQ(kernel_lines, 3) << out;
  EXPECT_TRUE(absl::StrContains(out, "realized 3 kernels")) << out;
  ExpectAllClose(Values(t), e2e::SoftmaxRows(x, 8, 32), 1e-6, 1e-5, "softmax");
}

TEST(EngineE2E, Debug4PrintsTheSourceOfNewKernels) {
  Tensor t = (RandomInput({16}, 32) * 7.375).contiguous();  // a new kernel
  std::string out;
  {
    ScopedConfig debug(With([](Config& c) { c.debug = 4; }));
    CaptureStdout capture;
    ASSERT_TRUE(t.realize().ok());
    out = capture.str();
  }
  EXPECT_TRUE(absl::StrContains(out, "void ")) << out;
  EXPECT_TRUE(absl::StrContains(out, "7.375f")) << out;
  EXPECT_TRUE(absl::StrContains(out, "*** CPU")) << out;
}

}  // namespace
}  // namespace tg
