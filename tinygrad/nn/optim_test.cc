// File: tinygrad/nn/optim_test.cc
// Each optimizer against the reference: the same small MLP from the same seed (our Rand is
// bit-exact with tinygrad's), a few steps, and the losses, final parameters and the kernels of
// one step (loss + update in one schedule) compared with testdata/optim_golden.txt
// (tools/golden/gen_optim_golden.py runs tinygrad 35900290 on DEV=CPU). Then the API's
// semantics and errors.
#include "tinygrad/nn/optim.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/autograd.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

// The generator's SEED and model.
constexpr uint64_t kSeed = 1234;

struct Golden {
  int steps = 0;
  std::vector<double> losses;
  std::map<int, std::vector<double>> params;
  int64_t kernels = -1;
};

std::map<std::string, Golden> ReadGolden() {
  std::map<std::string, Golden> out;
  std::ifstream f("tinygrad/nn/testdata/optim_golden.txt");
  EXPECT_TRUE(f.good()) << "missing tinygrad/nn/testdata/optim_golden.txt";
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> p = absl::StrSplit(line, '|');
    Golden& g = out[p.at(1)];
    if (p[0] == "O") {
      EXPECT_TRUE(absl::SimpleAtoi(p.at(2), &g.steps));
    } else if (p[0] == "L") {
      double v = 0;
      EXPECT_TRUE(absl::SimpleAtod(p.at(3), &v));
      g.losses.push_back(v);
    } else if (p[0] == "K") {
      EXPECT_TRUE(absl::SimpleAtoi(p.at(2), &g.kernels));
    } else if (p[0] == "P") {
      int i = 0;
      EXPECT_TRUE(absl::SimpleAtoi(p.at(2), &i));
      for (const std::string& s : std::vector<std::string>(absl::StrSplit(p.at(3), ','))) {
        double v = 0;
        EXPECT_TRUE(absl::SimpleAtod(s, &v));
        g.params[i].push_back(v);
      }
    }
  }
  return out;
}

using Factory = std::function<absl::StatusOr<std::unique_ptr<Optimizer>>(const std::vector<Tensor>&)>;

// The generator's CASES, in its order.
const std::vector<std::pair<std::string, Factory>>& Cases() {
  static const auto* cases = new std::vector<std::pair<std::string, Factory>>{
      {"sgd", [](auto& p) { return SGD(p, {.lr = 0.1}); }},
      {"sgd_momentum_wd", [](auto& p) { return SGD(p, {.lr = 0.1, .momentum = 0.9, .weight_decay = 0.01}); }},
      {"sgd_nesterov",
       [](auto& p) { return SGD(p, {.lr = 0.1, .momentum = 0.9, .weight_decay = 0.01, .nesterov = true}); }},
      {"sgd_classic", [](auto& p) { return SGD(p, {.lr = 0.1, .momentum = 0.9, .classic = true}); }},
      {"adam_default", [](auto& p) { return Adam(p); }},
      {"adam", [](auto& p) { return Adam(p, {.lr = 0.01, .b1 = 0.8, .b2 = 0.99, .eps = 1e-6}); }},
      {"adamw", [](auto& p) { return AdamW(p, {.lr = 0.01, .weight_decay = 0.1}); }},
      {"lamb", [](auto& p) { return LAMB(p, {.lr = 0.01, .weight_decay = 0.01}); }},
      {"lars", [](auto& p) { return LARS(p, {.lr = 0.1}); }},
      {"muon", [](auto& p) { return Muon(p, {.lr = 0.02}); }},
      {"sgd_fused",
       [](auto& p) { return SGD(p, {.lr = 0.1, .momentum = 0.9, .weight_decay = 0.01, .fused = true}); }},
      {"adamw_fused", [](auto& p) { return AdamW(p, {.lr = 0.01, .weight_decay = 0.1, .fused = true}); }},
      {"lamb_fused", [](auto& p) { return LAMB(p, {.lr = 0.01, .weight_decay = 0.01, .fused = true}); }},
      {"lars_fused", [](auto& p) { return LARS(p, {.lr = 0.1, .fused = true}); }},
  };
  return *cases;
}

struct Model {
  std::vector<Tensor> params;  // w1, b1, w2
  Tensor x = Tensor::Error(absl::UnknownError("unset"));
  Tensor Loss() const { return x.matmul(params[0]).add(params[1]).relu().matmul(params[2]).square().mean(); }
};

Model MakeModel() {
  Tensor::ManualSeed(kSeed);
  Model m;
  m.params = {Tensor::Randn({4, 6}), Tensor::Randn({6}), Tensor::Randn({6, 3})};
  m.x = Tensor::Randn({5, 4});
  EXPECT_TRUE(Realize({m.params[0], m.params[1], m.params[2], m.x}).ok());
  return m;
}

// Relative error with a floor of 1. Measured: every loss and parameter is bit-equal to the
// reference's on CPU here (the updates keep tinygrad's order of operations and the scheduler
// makes the same kernels). The tolerance leaves room for a C compiler that contracts a*b+c
// into an fma where the reference's did not (an ulp per op, compounded over a few steps):
// 1e-6 is ~8 float32 ulps; Muon's Newton-Schulz (5 rounds of matrix products) amplifies
// rounding, so it gets 1e-5.
void ExpectClose(double got, double want, double tol, const std::string& what) {
  EXPECT_LE(std::abs(got - want), tol * std::max(1.0, std::abs(want))) << what << ": got " << got << " want " << want;
}

TEST(OptimGolden, EveryOptimizerMatchesTheReference) {
  std::map<std::string, Golden> golden = ReadGolden();
  ASSERT_EQ(golden.size(), Cases().size());
  for (const auto& [name, make] : Cases()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(golden.contains(name));
    const Golden& g = golden.at(name);
    double tol = name == "muon" ? 1e-5 : 1e-6;
    Model m = MakeModel();
    absl::StatusOr<std::unique_ptr<Optimizer>> opt = make(m.params);
    ASSERT_TRUE(opt.ok()) << opt.status();
    Tensor::Train train;
    int64_t kernels = -1;
    for (int step = 0; step < g.steps; ++step) {
      (*opt)->zero_grad();
      Tensor loss = m.Loss();
      ASSERT_TRUE(loss.backward().ok());
      absl::StatusOr<std::vector<Tensor>> ts = (*opt)->schedule_step();
      ASSERT_TRUE(ts.ok()) << ts.status();
      ts->insert(ts->begin(), loss);
      int64_t before = GetEngineStats().kernel_count;
      ASSERT_TRUE(Realize(*ts).ok());
      kernels = GetEngineStats().kernel_count - before;
      absl::StatusOr<float> l = loss.item<float>();
      ASSERT_TRUE(l.ok()) << l.status();
      ExpectClose(*l, g.losses.at(step), tol, "loss at step " + std::to_string(step));
    }
    EXPECT_EQ(kernels, g.kernels) << "kernels of the last step";
    for (int i = 0; i < 3; ++i) {
      absl::StatusOr<std::vector<float>> v = m.params[i].to_vector<float>();
      ASSERT_TRUE(v.ok()) << v.status();
      ASSERT_EQ(v->size(), g.params.at(i).size());
      for (size_t j = 0; j < v->size(); ++j)
        ExpectClose((*v)[j], g.params.at(i)[j], tol, "param " + std::to_string(i) + "[" + std::to_string(j) + "]");
    }
  }
}

Tensor Vec(std::vector<float> v) { return Tensor::FromVector<float>(v); }

std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

void ExpectError(const absl::Status& s, const std::string& part) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find(part), std::string::npos) << s;
}

TEST(Optimizer, StepUpdatesTheCallersTensorsInTheirBuffers) {
  Tensor w = Vec({1, 2, 3});
  ASSERT_TRUE(w.realize().ok());
  UOp buf = w.uop().base();
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = SGD({w}, {.lr = 0.5});
  ASSERT_TRUE(opt.ok()) << opt.status();
  EXPECT_EQ(w.requires_grad(), true);  // None becomes true
  Tensor::Train train;
  ASSERT_TRUE((w * w).sum().backward().ok());  // grad 2w
  ASSERT_TRUE((*opt)->step().ok());
  EXPECT_EQ(Values(w), (std::vector<float>{0, 0, 0}));  // w - 0.5 * 2w
  EXPECT_EQ(w.uop().base(), buf);                        // in place
}

TEST(Optimizer, LrIsATensorThatCanBeAssigned) {
  Tensor w = Vec({1, 2, 3});
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = SGD({w}, {.lr = 0.5});
  ASSERT_TRUE(opt.ok());
  EXPECT_EQ(Values((*opt)->lr()), (std::vector<float>{0.5f}));
  ASSERT_TRUE((*opt)->lr().assign(0.25).realize().ok());
  Tensor::Train train;
  ASSERT_TRUE((w * w).sum().backward().ok());
  ASSERT_TRUE((*opt)->step().ok());
  EXPECT_EQ(Values(w), (std::vector<float>{0.5, 1, 1.5}));
}

TEST(Optimizer, BuffersAreRealizedButNotUpdatedAndParamsAreDeduplicated) {
  Tensor w = Vec({1, 2}).requires_grad_();
  Tensor running = Vec({5}).requires_grad_(false);
  Tensor pending = running.assign(running + 1);  // a buffer update (BatchNorm's running stats)
  ASSERT_TRUE(pending.ok());
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = Adam({w, running, w});
  ASSERT_TRUE(opt.ok()) << opt.status();
  ASSERT_EQ((*opt)->params().size(), 1u);
  EXPECT_TRUE((*opt)->params()[0].is(w));
  ASSERT_EQ((*opt)->buffers().size(), 1u);
  Tensor::Train train;
  ASSERT_TRUE(w.sum().backward().ok());
  absl::StatusOr<std::vector<Tensor>> ts = (*opt)->schedule_step();
  ASSERT_TRUE(ts.ok()) << ts.status();
  EXPECT_EQ(running.grad(), std::nullopt);
  ASSERT_TRUE(Realize(*ts).ok());
  EXPECT_EQ(Values(running), (std::vector<float>{6}));
}

TEST(Optimizer, ZeroGradDropsGradients) {
  Tensor w = Vec({1, 2});
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = SGD({w});
  ASSERT_TRUE(opt.ok());
  ASSERT_TRUE(w.sum().backward().ok());
  ASSERT_TRUE(w.grad().has_value());
  (*opt)->zero_grad();
  EXPECT_FALSE(w.grad().has_value());
}

TEST(OptimizerErrors, AreClearStatuses) {
  // No parameter that requires a gradient.
  ExpectError(SGD({Vec({1}).requires_grad_(false)}).status(), "at least one parameter that requires a gradient");
  ExpectError(Adam({}).status(), "at least one parameter");
  // Fused over a symbolic shape: the flat offsets need ints.
  Variable n("n", 1, 8);
  ExpectError(SGD({Tensor::Empty(Shape{n.bind(3)})}, {.fused = true}).status(), "fused needs int shapes");
  // An errored parameter.
  ExpectError(AdamW({Tensor::Error(absl::InvalidArgumentError("bad weights"))}).status(), "parameter 0 is errored: bad weights");

  Tensor w = Vec({1, 2});
  absl::StatusOr<std::unique_ptr<Optimizer>> opt = LAMB({w});
  ASSERT_TRUE(opt.ok());
  ASSERT_TRUE(w.sum().backward().ok());
  // Outside training mode.
  ExpectError((*opt)->step(), "training mode");
  Tensor::Train train;
  // A step without gradients leaves the parameters alone.
  (*opt)->zero_grad();
  ExpectError((*opt)->step(), "parameter 0 <Tensor (2,) dtypes.float CPU> has no gradient (call backward() first)");
  EXPECT_EQ(Values(w), (std::vector<float>{1, 2}));
  // Muon on a 0-d parameter: no matrix to orthogonalize.
  Tensor s = Tensor::Scalar(1.0).contiguous();
  absl::StatusOr<std::unique_ptr<Optimizer>> muon = Muon({s});
  ASSERT_TRUE(muon.ok());
  ASSERT_TRUE((s * s).backward().ok());
  ExpectError((*muon)->step(), "muon: a 0-d parameter has no matrix to orthogonalize");
}

}  // namespace
}  // namespace tg
