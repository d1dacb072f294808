// File: tinygrad/tensor/tiny_jit_test.cc
// TinyJit: replays compute what eager runs compute, without scheduling or compiling; the
// reference's JitErrors as statuses; bound variables that change between replays; a jitted
// Adam training run equal to an eager one, bit for bit (CPU).
#include "tinygrad/tensor/tiny_jit.h"

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tiny_jit_test_util.h"

namespace tg {
namespace {

using Tensors = std::vector<Tensor>;

using tiny_jit_test::Input;
using tiny_jit_test::Values;

void ExpectErrorContains(const absl::Status& s, const std::string& part) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find(part), std::string::npos) << s;
}

// Calls `jit` and the same function eagerly on fresh inputs, `calls` times, and compares.
void ExpectReplaysMatchEager(const TinyJit::TensorFn& fn, const std::vector<std::vector<int64_t>>& shapes,
                             int calls = 5) {
  TinyJit jit(fn);
  for (int c = 0; c < calls; ++c) {
    Tensors in, in_eager;
    for (size_t k = 0; k < shapes.size(); ++k) {
      in.push_back(Input(shapes[k], c * 3 + static_cast<int>(k)));
      in_eager.push_back(Input(shapes[k], c * 3 + static_cast<int>(k)));
    }
    absl::StatusOr<Tensors> got = jit(in);
    ASSERT_TRUE(got.ok()) << got.status();
    absl::StatusOr<Tensors> want = fn(in_eager);
    ASSERT_TRUE(want.ok()) << want.status();
    ASSERT_EQ(got->size(), want->size());
    for (size_t o = 0; o < got->size(); ++o)
      EXPECT_EQ(Values((*got)[o]), Values((*want)[o])) << "call " << c << " output " << o;
  }
  EXPECT_EQ(jit.calls(), calls);
  EXPECT_GT(jit.captured_size(), 0u);
}

TEST(TinyJit, ElementwiseReplaysEqualEager) {
  ExpectReplaysMatchEager([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{(in[0] * in[1] + 1).relu(), in[0] - in[1]};
  }, {{3, 4}, {3, 4}});
}

TEST(TinyJit, ReduceAndMatmulReplaysEqualEager) {
  Tensor w = Input({4, 5}, 42);
  ExpectReplaysMatchEager([w](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    Tensor h = in[0].matmul(w).relu();
    return Tensors{h.sum(1), h.max(0)};
  }, {{3, 4}});
}

TEST(TinyJit, SeveralRealizesInOneStepReplayInOrder) {
  ExpectReplaysMatchEager([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    Tensor a = (in[0] + 2).contiguous();
    if (absl::Status s = a.realize(); !s.ok()) return s;
    return Tensors{(a * in[0]).sum()};
  }, {{6}});
}

TEST(TinyJit, InputViewsReplayEqualEager) {
  // An input that is a permuted view of its buffer: every call passes the same view.
  TinyJit::TensorFn fn = [](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{(in[0] * 2).contiguous()};
  };
  TinyJit jit(fn);
  for (int c = 0; c < 4; ++c) {
    Tensor x = Input({2, 3}, c);
    absl::StatusOr<Tensors> got = jit({x.T()});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), Values(x.T() * 2)) << "call " << c;
  }
  // The same shape, but another view of the buffer: an error, not a wrong answer.
  Tensor y = Input({3, 2}, 9);
  ExpectErrorContains(jit({y}).status(), "another view");
}

TEST(TinyJit, ReplayNeitherSchedulesNorCompiles) {
  Tensor w = Input({4, 4}, 5);
  TinyJit jit([w](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{(in[0].matmul(w) + in[0]).exp2().sum(0)};
  });
  ASSERT_TRUE(jit({Input({3, 4}, 1)}).ok());
  ASSERT_TRUE(jit({Input({3, 4}, 2)}).ok());
  ASSERT_EQ(jit.calls(), 2);
  Tensors inputs = {Input({3, 4}, 3), Input({3, 4}, 4), Input({3, 4}, 5)};
  const EngineStats before = GetEngineStats();
  const size_t methods = MethodCacheSize();
  for (const Tensor& x : inputs) ASSERT_TRUE(jit({x}).ok());
  const EngineStats& after = GetEngineStats();
  EXPECT_EQ(after.schedules, before.schedules);
  EXPECT_EQ(after.programs_built, before.programs_built);
  EXPECT_EQ(MethodCacheSize(), methods);
  EXPECT_EQ(after.kernel_count - before.kernel_count,
            static_cast<int64_t>(3 * jit.captured_size()));
}

// The CPU graphs a replay's kernels, as the reference's CPU device does (engine/jit_graph.h):
// one graph of them, updated with each replay's input, gives what kernel-by-kernel replays
// (JIT=2) give, and counts one kernel per replay.
TEST(TinyJit, ReplaysAsAGraphGiveWhatKernelByKernelReplaysGive) {
  Tensor w = Input({4, 4}, 9);
  auto step = [w](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    Tensor h = (in[0].matmul(w) + 1).relu().contiguous();
    return Tensors{(h * in[0]).sum(1), h.max(0)};
  };
  std::vector<std::vector<float>> results[2];
  for (int jit : {1, 2}) {
    Config c = GetConfig();
    c.jit = jit;
    ScopedConfig scoped(c);
    TinyJit replayed(step);
    for (int call = 0; call < 5; ++call) {
      absl::StatusOr<Tensors> out = replayed({Input({3, 4}, call)});
      ASSERT_TRUE(out.ok()) << out.status();
      if (call == 3) {
        const int64_t kernels = GetEngineStats().kernel_count;
        ASSERT_TRUE(replayed({Input({3, 4}, 3)}).ok());
        EXPECT_EQ(GetEngineStats().kernel_count - kernels,
                  jit == 1 ? 1 : static_cast<int64_t>(replayed.captured_size()))
            << "JIT=" << jit << ": a graph counts as one kernel";
      }
      for (const Tensor& t : *out) results[jit - 1].push_back(Values(t));
    }
    ASSERT_GE(replayed.captured_size(), 2u);
    EXPECT_EQ(replayed.captured_graphs(), jit == 1 ? 1u : 0u) << "JIT=" << jit;
  }
  EXPECT_EQ(results[0], results[1]);
}

TEST(TinyJit, ReturnsTheCapturedOutputsOverwrittenByEachReplay) {
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] + 1};
  });
  ASSERT_TRUE(jit({Input({2}, 0)}).ok());
  absl::StatusOr<Tensors> captured = jit({Input({2}, 1)});
  ASSERT_TRUE(captured.ok());
  absl::StatusOr<Tensors> replayed = jit({Tensor::FromVector<float>({10, 20})});
  ASSERT_TRUE(replayed.ok());
  EXPECT_TRUE((*replayed)[0].is((*captured)[0]));  // the reference returns the same tensors
  EXPECT_EQ(Values((*captured)[0]), (std::vector<float>{11, 21}));
}

TEST(TinyJit, ShapeDtypeAndCountMismatchesAreErrors) {
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] * 3};
  });
  ASSERT_TRUE(jit({Input({2, 3}, 0)}).ok());
  ASSERT_TRUE(jit({Input({2, 3}, 1)}).ok());
  ExpectErrorContains(jit({Input({3, 3}, 2)}).status(), "input 0 was captured with shape (2, 3), called with (3, 3)");
  Tensor ints = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  ExpectErrorContains(jit({ints}).status(), "dtype");
  ExpectErrorContains(jit({Input({2, 3}, 3), Input({2, 3}, 4)}).status(), "captured with 1 inputs, called with 2");
  // The errors changed nothing: a good call still replays.
  absl::StatusOr<Tensors> ok = jit({Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3})});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(Values((*ok)[0]), (std::vector<float>{3, 6, 9, 12, 15, 18}));
  EXPECT_EQ(jit.calls(), 3);
}

TEST(TinyJit, LazyInputsAreRealizedFirst) {
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0].sum()};
  });
  for (int c = 0; c < 4; ++c) {
    Tensor x = Input({5}, c);
    absl::StatusOr<Tensors> got = jit({x + 1});  // not realized: the JIT realizes it
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), Values((x + 1).sum()));
  }
}

TEST(TinyJit, AStepMayAssignIntoItsInputs) {
  // The replay writes into this call's input, not the capture call's; an empty input is fine.
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0].assign(in[1] * 2)};
  });
  for (int c = 0; c < 4; ++c) {
    Tensor out = Tensor::Empty({3});
    ASSERT_TRUE(jit({out, Tensor::FromVector<float>({1.0f * c, 2, 3})}).ok());
    EXPECT_EQ(Values(out), (std::vector<float>{2.0f * c, 4, 6})) << "call " << c;
  }
}

TEST(TinyJit, ConstAndDuplicateInputsAreErrors) {
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] + in[in.size() - 1]};
  });
  ExpectErrorContains(jit({Tensor::Full({3}, 1.0)}).status(), "cannot be const");
  Tensor x = Input({4}, 0);
  ExpectErrorContains(jit({x, x}).status(), "duplicate inputs");
  ExpectErrorContains(jit({x, x.reshape({2, 2}).reshape({4})}).status(), "duplicate inputs");
  EXPECT_EQ(jit.calls(), 0);
}

TEST(TinyJit, AStepThatRunsNothingIsAnErrorOnCapture) {
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0].reshape({2, 2})};  // a view: nothing to run
  });
  ASSERT_TRUE(jit({Input({4}, 0)}).ok());
  ExpectErrorContains(jit({Input({4}, 1)}).status(), "didn't JIT anything");
  EXPECT_EQ(jit.calls(), 1);
}

TEST(TinyJit, ATinyJitInsideAnotherCaptureIsAnError) {
  TinyJit inner([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] * 2};
  });
  TinyJit outer([&inner](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return inner({in[0] + 1});
  });
  ASSERT_TRUE(outer({Input({3}, 0)}).ok());  // inner's first call
  ExpectErrorContains(outer({Input({3}, 1)}).status(), "inside another TinyJit");
}

TEST(TinyJit, StepErrorsPassThroughAndLeaveNothingCaptured) {
  int calls = 0;
  TinyJit jit([&calls](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    if (++calls == 2) return absl::InternalError("step failed");
    return Tensors{in[0] + 1};
  });
  ASSERT_TRUE(jit({Input({3}, 0)}).ok());
  ExpectErrorContains(jit({Input({3}, 1)}).status(), "step failed");
  ASSERT_TRUE(jit({Input({3}, 2)}).ok());  // the capture, again
  EXPECT_EQ(jit.calls(), 2);
  EXPECT_GT(jit.captured_size(), 0u);
  jit.reset();
  EXPECT_EQ(jit.captured_size(), 0u);
  EXPECT_EQ(jit.calls(), 0);
}

TEST(TinyJit, RandomNumbersContinueTheirSequenceInReplays) {
  Tensor::Train train;  // dropout draws only in training mode
  auto step = [](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0] + Tensor::Rand({4}), in[0].dropout(0.5)};
  };
  Tensor x = Input({4}, 1);
  Tensor::ManualSeed(11);
  std::vector<std::vector<float>> eager;
  for (int c = 0; c < 5; ++c) {
    absl::StatusOr<Tensors> out = step(std::vector<Tensor>{x});
    ASSERT_TRUE(out.ok());
    for (const Tensor& t : *out) eager.push_back(Values(t));
  }
  Tensor::ManualSeed(11);
  TinyJit jit(step);
  std::vector<std::vector<float>> jitted;
  for (int c = 0; c < 5; ++c) {
    absl::StatusOr<Tensors> out = jit({x});
    ASSERT_TRUE(out.ok()) << out.status();
    for (const Tensor& t : *out) jitted.push_back(Values(t));
  }
  EXPECT_EQ(jitted, eager);
  EXPECT_NE(jitted[4], jitted[6]);  // replays 3 and 4 drew different numbers
}

TEST(TinyJit, BoundVariablesVaryBetweenReplays) {
  Variable n("n", 1, 8);
  Tensor cache = Input({8, 3}, 7);
  TinyJit jit([](std::span<const Tensor> in, std::span<const SInt> vars) -> absl::StatusOr<Tensors> {
    return Tensors{(in[0].shrink({{0, vars[0]}, {0, 3}}) * 2).sum(0)};
  });
  for (int64_t v : {3, 5, 1, 8, 2, 7}) {
    absl::StatusOr<Tensors> got = jit({cache}, {n.bind(v)});
    ASSERT_TRUE(got.ok()) << got.status();
    std::vector<float> want = Values((cache.shrink({{0, v}, {0, 3}}) * 2).sum(0));
    EXPECT_EQ(Values((*got)[0]), want) << "n = " << v;
  }
  EXPECT_EQ(jit.calls(), 6);
}

TEST(TinyJit, SymbolicInputShapesVaryBetweenReplays) {
  Variable n("n", 1, 8);
  Tensor cache = Input({8, 3}, 3);
  TinyJit jit([](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{(in[0] + 1).sum(0)};
  });
  for (int64_t v : {2, 6, 4, 1}) {
    Tensor x = cache.shrink({{0, n.bind(v)}, {0, 3}});  // shape (n, 3)
    absl::StatusOr<Tensors> got = jit({x});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(Values((*got)[0]), Values((cache.shrink({{0, v}, {0, 3}}) + 1).sum(0))) << "n = " << v;
  }
}

TEST(TinyJit, AVariableReplaysCannotSetIsAnErrorOnCapture) {
  Variable n("n", 1, 8);
  TinyJit jit([&n](std::span<const Tensor> in) -> absl::StatusOr<Tensors> {
    return Tensors{in[0].shrink({{0, n.bind(3)}}).sum()};  // bound inside, not passed
  });
  ASSERT_TRUE(jit({Input({8}, 0)}).ok());
  ExpectErrorContains(jit({Input({8}, 1)}).status(), "variable 'n'");
  std::vector<SInt> not_bound = {SInt(4)};
  ExpectErrorContains(jit({Input({8}, 2)}, not_bound).status(), "not a bound variable");
}

// One Adam step of a Linear model on (x, y): the loss, gradients and the optimizer's assigns
// realized together (by the caller or by TinyJit).
absl::StatusOr<Tensors> TrainStep(nn::Linear& model, Optimizer& opt, const Tensor& x, const Tensor& y) {
  opt.zero_grad();
  Tensor loss = (model(x) - y).square().mean();
  if (absl::Status s = loss.backward(); !s.ok()) return s;
  absl::StatusOr<Tensors> step = opt.schedule_step();
  if (!step.ok()) return step.status();
  step->insert(step->begin(), loss);
  return step;
}

TEST(TinyJit, JittedAdamTrainingEqualsEagerBitForBit) {
  constexpr int kSteps = 8;
  Tensor::Train train;
  auto batch = [](int step) { return std::make_pair(Input({6, 5}, step), Input({6, 3}, step + 100)); };

  Tensor::ManualSeed(7);
  nn::Linear eager_model(5, 3);
  absl::StatusOr<std::unique_ptr<Optimizer>> eager_opt = Adam(nn::GetParameters(eager_model), {.lr = 0.01});
  ASSERT_TRUE(eager_opt.ok()) << eager_opt.status();
  std::vector<std::vector<float>> eager_losses;
  for (int i = 0; i < kSteps; ++i) {
    auto [x, y] = batch(i);
    absl::StatusOr<Tensors> step = TrainStep(eager_model, **eager_opt, x, y);
    ASSERT_TRUE(step.ok()) << step.status();
    ASSERT_TRUE(Realize(*step).ok());
    eager_losses.push_back(Values((*step)[0]));
  }

  Tensor::ManualSeed(7);
  nn::Linear model(5, 3);
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(nn::GetParameters(model), {.lr = 0.01});
  ASSERT_TRUE(opt.ok()) << opt.status();
  TinyJit jit([&](std::span<const Tensor> in) { return TrainStep(model, **opt, in[0], in[1]); });
  for (int i = 0; i < kSteps; ++i) {
    auto [x, y] = batch(i);
    absl::StatusOr<Tensors> out = jit({x, y});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values((*out)[0]), eager_losses[i]) << "step " << i;
  }
  EXPECT_EQ(jit.calls(), kSteps);

  // Bit-exact: compare the bytes, so that -0.0 and NaN patterns count too.
  absl::StatusOr<std::vector<std::byte>> w = model.weight.to_bytes(), ew = eager_model.weight.to_bytes();
  absl::StatusOr<std::vector<std::byte>> b = model.bias->to_bytes(), eb = eager_model.bias->to_bytes();
  ASSERT_TRUE(w.ok() && ew.ok() && b.ok() && eb.ok());
  EXPECT_EQ(*w, *ew);
  EXPECT_EQ(*b, *eb);
  // And training moved them: the replays did update the parameters.
  Tensor::ManualSeed(7);
  nn::Linear fresh(5, 3);
  absl::StatusOr<std::vector<std::byte>> w0 = fresh.weight.to_bytes();
  ASSERT_TRUE(w0.ok());
  EXPECT_NE(*w, *w0);
}

TEST(TinyJit, ALearningRateAssignedBetweenReplaysReachesThem) {
  // opt.lr is a buffer the captured kernels read: assigning it outside the step (a schedule)
  // changes what later replays do, without a new capture.
  Tensor::Train train;
  Tensor::ManualSeed(3);
  nn::Linear model(5, 3);
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam(nn::GetParameters(model), {.lr = 0.01});
  ASSERT_TRUE(opt.ok()) << opt.status();
  TinyJit jit([&](std::span<const Tensor> in) { return TrainStep(model, **opt, in[0], in[1]); });
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(jit({Input({6, 5}, i), Input({6, 3}, i + 100)}).ok());
  ASSERT_TRUE((*opt)->lr().assign(0.0).realize().ok());
  absl::StatusOr<std::vector<std::byte>> before = model.weight.to_bytes();
  ASSERT_TRUE(jit({Input({6, 5}, 7), Input({6, 3}, 107)}).ok());
  absl::StatusOr<std::vector<std::byte>> after = model.weight.to_bytes();
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ(*after, *before);  // lr 0: the replay's update is zero
  ASSERT_TRUE((*opt)->lr().assign(0.01).realize().ok());
  ASSERT_TRUE(jit({Input({6, 5}, 8), Input({6, 3}, 108)}).ok());
  absl::StatusOr<std::vector<std::byte>> moved = model.weight.to_bytes();
  ASSERT_TRUE(moved.ok());
  EXPECT_NE(*moved, *after);
  EXPECT_EQ(jit.calls(), 5);
}

}  // namespace
}  // namespace tg
