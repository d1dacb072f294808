// File: tinygrad/tensor/tiny_jit_prune_test.cc
// TinyJitOptions::prune (the reference's TinyJit(prune=True)): kernels whose results no call
// changes run in the capture call only, and replays still compute what eager calls compute;
// memory that carries state between calls (a counter's assign, random-number counters) and
// kernels that take a variable are never pruned.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/engine_stats.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit.h"
#include "tinygrad/tensor/tiny_jit_test_util.h"

namespace tg {
namespace {

using Tensors = std::vector<Tensor>;

using tiny_jit_test::Input;
using tiny_jit_test::Values;

// The kernels of one replay (JIT=2: each counts).
int64_t KernelsOfOneCall(TinyJit& jit, const Tensors& in) {
  const int64_t before = GetEngineStats().kernel_count;
  EXPECT_TRUE(jit(in).ok());
  return GetEngineStats().kernel_count - before;
}

class TinyJitPruneTest : public ::testing::Test {
 protected:
  TinyJitPruneTest() : scoped_(KernelByKernel()) {}
  static Config KernelByKernel() {
    Config c = GetConfig();
    c.jit = 2;  // replays count each kernel they run
    return c;
  }
  ScopedConfig scoped_;
};

// A weight's preprocessing (independent of the input) runs once; the replays run the rest and
// equal eager calls. Without prune every kernel replays.
TEST_F(TinyJitPruneTest, KernelsThatReadNoInputRunInTheCaptureOnly) {
  Tensor w = Input({4, 4}, 5);
  auto step = [w](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    Tensor prepared = (w.transpose() * 2).contiguous();
    return Tensors{(in[0].matmul(prepared) + 1).contiguous().relu()};
  };
  TinyJit pruned(step, {.prune = true});
  TinyJit plain(step);
  for (int call = 0; call < 6; ++call) {
    Tensor x = Input({3, 4}, call);
    absl::StatusOr<Tensors> want = step(Tensors{x});
    ASSERT_TRUE(want.ok());
    absl::StatusOr<Tensors> got = pruned({x});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), Values((*want)[0])) << "call " << call;
    ASSERT_TRUE(plain({x}).ok());
  }
  EXPECT_EQ(pruned.pruned_size(), 1u);
  EXPECT_EQ(pruned.captured_size() + 1, plain.captured_size());
  EXPECT_EQ(plain.pruned_size(), 0u);
  EXPECT_EQ(KernelsOfOneCall(pruned, {Input({3, 4}, 9)}),
            static_cast<int64_t>(pruned.captured_size()));
}

// What a pruned kernel left for the replays stays: intermediates after it, of its size, whose
// memory a planner could hand on once its last reader ran, get memory of their own (the capture
// runs without the schedule's planner, as the reference's, and the JIT plans only what the
// replays write).
TEST_F(TinyJitPruneTest, APrunedKernelsResultSurvivesTheIntermediatesAfterIt) {
  Tensor w = Input({16}, 3);
  auto step = [w](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    Tensor a = (w * 2).contiguous();      // pruned
    Tensor b = (in[0] + a).contiguous();  // a's last use
    Tensor c = (b * 3).contiguous();      // may take a's memory when it is planned
    Tensor d = (c - b).contiguous();
    return Tensors{(d + c).sum()};
  };
  TinyJit jit(step, {.prune = true});
  for (int call = 0; call < 5; ++call) {
    Tensor x = Input({16}, call);
    absl::StatusOr<Tensors> want = step(Tensors{x});
    ASSERT_TRUE(want.ok());
    absl::StatusOr<Tensors> got = jit({x});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), Values((*want)[0])) << "call " << call;
  }
  EXPECT_EQ(jit.pruned_size(), 1u);
}

// A counter the step assigns reads what the last call left: the reference's prune would run its
// kernel once; ours keeps it, so each call still counts.
TEST_F(TinyJitPruneTest, MemoryCarriedFromCallToCallIsNeverPruned) {
  Tensor counter = Tensor::FromVector<float>({0.0f}, {1});
  ASSERT_TRUE(counter.realize().ok());
  auto step = [&counter](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    Tensor next = counter.assign(counter + 1);
    return Tensors{in[0] + next};
  };
  TinyJit jit(step, {.prune = true});
  for (int call = 1; call <= 5; ++call) {
    absl::StatusOr<Tensors> got = jit({Input({1}, 0)});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), std::vector<float>{-5.0f + call}) << "call " << call;
  }
  EXPECT_EQ(Values(counter), std::vector<float>{5.0f});
  EXPECT_EQ(jit.pruned_size(), 0u);
}

// Random numbers drawn in the step continue their sequence under prune too: the counters a
// replay refreshes change as inputs do.
TEST_F(TinyJitPruneTest, RandomNumbersStillContinueTheirSequence) {
  auto step = [](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] + Tensor::Rand({4})};
  };
  Tensor x = Input({4}, 1);
  Tensor::ManualSeed(7);
  std::vector<std::vector<float>> eager;
  for (int c = 0; c < 4; ++c) {
    absl::StatusOr<Tensors> out = step(Tensors{x});
    ASSERT_TRUE(out.ok());
    eager.push_back(Values((*out)[0]));
  }
  Tensor::ManualSeed(7);
  TinyJit jit(step, {.prune = true});
  std::vector<std::vector<float>> jitted;
  for (int c = 0; c < 4; ++c) {
    absl::StatusOr<Tensors> out = jit({x});
    ASSERT_TRUE(out.ok()) << out.status();
    jitted.push_back(Values((*out)[0]));
  }
  EXPECT_EQ(jitted, eager);
}

// A kernel that reads no input but takes a variable changes with it: it replays.
TEST_F(TinyJitPruneTest, KernelsThatTakeAVariableAreNeverPruned) {
  Variable n("n", 1, 8);
  Tensor w = Input({8}, 2);
  auto step = [w](std::span<const Tensor> in,
                  std::span<const SInt> vars) -> absl::StatusOr<Tensors> {
    Tensor part = w.shrink({{0, vars[0]}}).sum().reshape({1}).contiguous();  // reads no input
    return Tensors{in[0] + part};
  };
  TinyJit jit(step, {.prune = true});
  for (int64_t v : {3, 5, 1, 8, 2}) {
    absl::StatusOr<Tensors> got = jit({Input({1}, 0)}, {n.bind(v)});
    ASSERT_TRUE(got.ok()) << got.status();
    std::vector<float> want = Values(Input({1}, 0) + w.shrink({{0, v}}).sum().reshape({1}));
    EXPECT_EQ(Values((*got)[0]), want) << "n = " << v;
  }
  EXPECT_EQ(jit.pruned_size(), 0u);
}

// A step that reads nothing of its input keeps returning the capture's results.
TEST_F(TinyJitPruneTest, AStepIndependentOfItsInputsReplaysNothing) {
  Tensor w = Input({4}, 4);
  TinyJit jit(
      [w](std::span<const Tensor>) -> absl::StatusOr<Tensors> {
        return Tensors{(w * w).contiguous()};
      },
      {.prune = true});
  std::vector<float> want = Values(w * w);
  for (int call = 0; call < 3; ++call) {
    absl::StatusOr<Tensors> got = jit({Input({2}, call)});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), want);
  }
  EXPECT_EQ(jit.captured_size(), 0u);
  EXPECT_EQ(KernelsOfOneCall(jit, {Input({2}, 5)}), 0);
}

// DEBUG=1 says what the capture took, what pruning left, and that an input no replayed kernel
// uses was not found, with the reference's lines.
TEST_F(TinyJitPruneTest, AtDebug1TheCaptureSaysWhatItTookAndPruned) {
  Tensor w = Input({4}, 6);
  auto step = [w](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] + (w * 2).contiguous()};  // in[1] unused
  };
  TinyJit jit(step, {.prune = true});
  Config c = GetConfig();
  c.debug = 1;
  ScopedConfig scoped(c);
  ASSERT_TRUE(jit({Input({4}, 0), Input({4}, 1)}).ok());
  ::testing::internal::CaptureStdout();
  ASSERT_TRUE(jit({Input({4}, 0), Input({4}, 1)}).ok());
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("JIT captured 2 kernels with 2 inputs\n"), std::string::npos) << out;
  EXPECT_NE(out.find("pruned from 2 -> 1 kernels\n"), std::string::npos) << out;
  EXPECT_NE(out.find("WARNING: some input tensors not found\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace tg
