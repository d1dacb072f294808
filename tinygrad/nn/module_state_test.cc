// File: tinygrad/nn/module_state_test.cc
// State dicts of module trees: the reference's names for a nested model (the S records of
// testdata/nn_modules_golden.txt, from tools/golden/gen_nn_modules_golden.py), parameters vs
// buffers, LoadStateDict's checks and errors, safetensors round trips, gradients reaching
// every parameter, and the modules' errors on bad options or inputs.
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/nn/batch_norm.h"
#include "tinygrad/nn/conv.h"
#include "tinygrad/nn/embedding.h"
#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/lstm_cell.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/norm.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/nn/state.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {
namespace {

// The generator's nested model: a vector of blocks, plain members, a vector of mixed modules.
struct Block : Module {
  Conv2d conv{3, 4, 3};
  BatchNorm bn{4};
  void VisitState(StateVisitor& v) override {
    v.Child("conv", conv);
    v.Child("bn", bn);
  }
};

struct Net : Module {
  std::vector<Block> blocks = std::vector<Block>(2);
  LayerNorm norm{4};
  Linear head{4, 2, /*bias=*/false};
  std::vector<std::unique_ptr<Module>> layers;
  LSTMCell cell{2, 2, /*bias=*/false};
  Net() {
    layers.push_back(std::make_unique<Linear>(2, 2));
    layers.push_back(std::make_unique<Embedding>(3, 2));
  }
  void VisitState(StateVisitor& v) override {
    v.Children("blocks", blocks);
    v.Child("norm", norm);
    v.Child("head", head);
    v.Children("layers", layers);
    v.Child("cell", cell);
  }
};

std::string TmpPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : ".") + "/" + name;
}

std::string DTypeName(DType dt) {
  if (dt == dtypes::float32) return "float";
  if (dt == dtypes::int64) return "long";
  return dt.repr();
}

std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

TEST(ModuleState, NestedNamesShapesAndDtypesEqualTheReference) {
  std::set<std::tuple<std::string, std::string, std::string>> want, got;
  std::ifstream f("tinygrad/nn/testdata/nn_modules_golden.txt");
  std::string line;
  while (std::getline(f, line)) {
    std::vector<std::string> p = absl::StrSplit(line, '|');
    if (p.size() == 5 && p[0] == "S" && p[1] == "net") want.insert({p[2], p[3], p[4]});
  }
  ASSERT_FALSE(want.empty());
  Net net;
  for (const auto& [name, t] : GetStateDict(net))
    got.insert({name, absl::StrJoin(t.shape(), ","), DTypeName(t.dtype())});
  EXPECT_EQ(got, want);
}

TEST(ModuleState, ParametersKeepVisitOrderWithOrWithoutBuffers) {
  Net net;
  std::vector<Tensor> params = GetParameters(net, /*include_buffers=*/false);
  // 2 blocks x (conv weight, bias, bn weight, bias) + norm 2 + head 1 + linear 2 + embedding 1
  // + cell 2; buffers (running stats, batch counts) are not parameters.
  EXPECT_EQ(params.size(), 8u + 2 + 1 + 2 + 1 + 2);
  std::vector<Tensor> all = GetParameters(net);  // the reference's get_parameters
  ASSERT_EQ(all.size(), params.size() + 6);
  EXPECT_EQ(GetStateDict(net).size(), all.size());
  // blocks.0: conv.weight, conv.bias, bn.weight, bn.bias, bn.num_batches_tracked, ...
  EXPECT_EQ(all[4].dtype(), dtypes::int64);
  EXPECT_EQ(all[4].requires_grad(), std::optional<bool>(false));
  EXPECT_EQ(params[0].shape(), (std::vector<int64_t>{4, 3, 3, 3}));
  EXPECT_EQ(params.back().shape(), (std::vector<int64_t>{8, 2}));
  // Handles: a parameter changed through GetParameters is the model's.
  params[0].requires_grad_(true);
  EXPECT_EQ(net.blocks[0].conv.weight.requires_grad(), std::optional<bool>(true));
}

TEST(ModuleState, SafetensorsRoundTripRestoresWeightsAndOutputs) {
  Tensor::ManualSeed(100);
  Net a;
  a.blocks[1].bn.running_mean = Tensor::Randn({4});  // a buffer that is not its start value
  std::string path = TmpPath("net.safetensors");
  ASSERT_TRUE(SafeSave(path, GetStateDict(a)).ok());

  Tensor::ManualSeed(200);
  Net b;
  auto loaded = SafeLoad(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_TRUE(LoadStateDict(b, *loaded).ok());
  std::map<std::string, Tensor> sa = GetStateDict(a), sb = GetStateDict(b);
  for (const auto& [name, t] : sa) {
    auto va = t.to_bytes(), vb = sb.at(name).to_bytes();
    ASSERT_TRUE(va.ok() && vb.ok());
    EXPECT_EQ(*va, *vb) << name;
  }
  Tensor x = Tensor::Randn({1, 3, 5, 5});
  EXPECT_EQ(Values(a.blocks[0].conv(x)), Values(b.blocks[0].conv(x)));
  EXPECT_EQ(Values(a.blocks[1].bn(x.pad({{0, 0}, {0, 1}, {0, 0}, {0, 0}}))),
            Values(b.blocks[1].bn(x.pad({{0, 0}, {0, 1}, {0, 0}, {0, 0}}))));
}

TEST(ModuleState, LoadKeepsRequiresGradAndLeavesTheGivenTensorsAlone) {
  Linear m(3, 2);
  m.weight.requires_grad_(true);
  Tensor held = m.weight;  // another handle, as an optimizer holds
  ASSERT_TRUE(m.weight.realize().ok());
  Tensor w = Tensor::Ones({2, 3}), b = Tensor::Zeros({2});
  ASSERT_TRUE(LoadStateDict(m, {{"weight", w}, {"bias", b}}).ok());
  EXPECT_EQ(m.weight.requires_grad(), std::optional<bool>(true));
  EXPECT_EQ(w.requires_grad(), std::nullopt);
  EXPECT_EQ(Values(m.weight), std::vector<float>(6, 1.0f));
  EXPECT_EQ(Values(held), std::vector<float>(6, 1.0f));
}

TEST(ModuleState, StrictLoadNamesMissingAndExtraEntries) {
  Net net;
  std::map<std::string, Tensor> sd = GetStateDict(net);
  sd.erase("blocks.1.bn.running_var");
  sd.emplace("blocks.2.conv.weight", Tensor::Zeros({4, 3, 3, 3}));
  absl::Status s = LoadStateDict(net, sd);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("missing from the state dict: blocks.1.bn.running_var"), std::string::npos) << s;
  EXPECT_NE(s.message().find("not in the model: blocks.2.conv.weight"), std::string::npos) << s;
}

TEST(ModuleState, NonStrictLoadSkipsMissingAndIgnoresExtra) {
  Linear m(3, 2);
  std::vector<float> bias_before = Values(*m.bias);
  absl::Status s = LoadStateDict(m, {{"weight", Tensor::Ones({2, 3})}, {"other", Tensor::Ones({1})}},
                                 {.strict = false});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(m.weight), std::vector<float>(6, 1.0f));
  EXPECT_EQ(Values(*m.bias), bias_before);
}

TEST(ModuleState, ShapeAndDtypeMismatchesAreErrorsThatChangeNothing) {
  Linear m(3, 2);
  std::vector<float> before = Values(m.weight);
  absl::Status s = LoadStateDict(m, {{"weight", Tensor::Ones({3, 2})}, {"bias", Tensor::Zeros({2})}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("shape mismatch in `weight`: the model has (2, 3), the state dict (3, 2)"),
            std::string::npos) << s;
  s = LoadStateDict(m, {{"weight", Tensor::Ones({2, 3})},
                        {"bias", Tensor::Zeros({2}, {.dtype = dtypes::float16})}});
  EXPECT_NE(s.message().find("dtype mismatch in `bias`"), std::string::npos) << s;
  s = LoadStateDict(m, {{"weight", Tensor::Ones({2, 3})},
                        {"bias", Tensor::Error(absl::InternalError("boom"))}});
  EXPECT_NE(s.message().find("`bias` of the state dict is errored: boom"), std::string::npos) << s;
  // The weight was acceptable each time, but nothing is loaded from a refused state dict.
  EXPECT_EQ(Values(m.weight), before);
}

TEST(ModuleState, ScalarAndOneElementShapesLoadIntoEachOther) {
  BatchNorm bn(2);
  std::map<std::string, Tensor> sd = GetStateDict(bn);
  sd.at("num_batches_tracked") = Tensor::Full({1}, 7, {.dtype = dtypes::int64});
  ASSERT_TRUE(LoadStateDict(bn, sd).ok());
  EXPECT_TRUE(bn.num_batches_tracked.shape().empty());
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>().value_or(-1), 7);
}

TEST(ModuleState, BatchNormTrainingStepsCountAndEvalUsesRunningStats) {
  BatchNorm bn(2, {.momentum = 0.5});
  Tensor held_mean = *bn.running_mean;  // the running stats are updated in place (assign)
  Tensor x = Tensor::FromVector<float>({1, 10, 3, 20}, {2, 2});  // channel 0: 1, 3; channel 1: 10, 20
  {
    Tensor::Train train;
    ASSERT_TRUE(bn(x).realize().ok());
    ASSERT_TRUE(Realize({bn(x), *bn.running_mean, *bn.running_var, bn.num_batches_tracked}).ok());
  }
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>().value_or(-1), 2);
  // mean: 0 -> 1 -> 1.5 (channel 0); unbiased var 2 -> 0.5 + 1 = 1.5 -> 0.75 + 1 = 1.75.
  std::vector<float> mean = Values(*bn.running_mean), var = Values(*bn.running_var);
  EXPECT_FLOAT_EQ(mean[0], 1.5f);
  EXPECT_FLOAT_EQ(mean[1], 11.25f);
  EXPECT_FLOAT_EQ(var[0], 1.75f);
  EXPECT_EQ(Values(held_mean), mean);
  // Eval normalizes by the running stats: (1 - 1.5) / sqrt(1.75 + eps).
  EXPECT_NEAR(Values(bn(x))[0], -0.5 / std::sqrt(1.75 + 1e-5), 1e-6);
  EXPECT_FALSE(bn.running_mean->requires_grad().value_or(true));
}

// Every module in one graph: backward from one loss gives every parameter a gradient.
struct AllModules : Module {
  Conv2d conv{2, 4, 3, {.padding = {1}}};
  BatchNorm bn{4};
  GroupNorm gn{2, 4};
  InstanceNorm in{4};
  ConvTranspose2d deconv{4, 2, 2, {.stride = {2}}};
  Linear fc{2 * 6 * 6, 6};
  LayerNorm ln{6};
  RMSNorm rms{6};
  LSTMCell cell{6, 3};
  Embedding emb{5, 3};
  void VisitState(StateVisitor& v) override {
    v.Child("conv", conv);
    v.Child("bn", bn);
    v.Child("gn", gn);
    v.Child("in", in);
    v.Child("deconv", deconv);
    v.Child("fc", fc);
    v.Child("ln", ln);
    v.Child("rms", rms);
    v.Child("cell", cell);
    v.Child("emb", emb);
  }
  Tensor Loss(const Tensor& x, const Tensor& ids) {
    Tensor y = in(gn(bn(conv(x), /*training=*/true)));
    y = rms(ln(fc(deconv(y).flatten(1))));
    auto [h, c] = cell(y);
    auto [h2, c2] = cell(y, std::pair{h, c});  // the hidden-state weights matter from step 2
    return (h2 * emb(ids)).sum() + c2.square().sum();
  }
};

TEST(ModuleState, GradientsReachEveryParameter) {
  Tensor::ManualSeed(3);
  AllModules m;
  std::vector<Tensor> params = GetParameters(m, /*include_buffers=*/false);
  for (const Tensor& p : params) p.requires_grad_(true);
  Tensor x = Tensor::Randn({2, 2, 3, 3});
  Tensor ids = Tensor::FromVector<int32_t>({4, 1}, {2, 1});
  Tensor loss = m.Loss(x, ids);
  ASSERT_TRUE(loss.backward().ok());
  std::vector<Tensor> grads;
  std::map<std::string, Tensor> sd = GetStateDict(m);
  for (const auto& [name, t] : sd) {
    if (!t.requires_grad().value_or(false)) continue;  // buffers
    std::optional<Tensor> g = t.grad();
    ASSERT_TRUE(g.has_value()) << name << " has no grad";
    EXPECT_EQ(g->shape(), t.shape()) << name;
    grads.push_back(*g);
  }
  EXPECT_EQ(grads.size(), params.size());
  ASSERT_TRUE(Realize(grads).ok());
  for (const Tensor& g : grads) {
    std::vector<float> v = Values(g);
    bool any_nonzero = false;
    for (float f : v) {
      EXPECT_TRUE(std::isfinite(f));
      any_nonzero |= f != 0;
    }
    EXPECT_TRUE(any_nonzero);
  }
}

// The reference's training loop: an optimizer over get_parameters(model) trains the
// parameters, leaves the buffers to BatchNorm's running-stat assigns, and both land.
TEST(ModuleState, OptimizerStepOverGetParametersTrainsAndUpdatesRunningStats) {
  Tensor::ManualSeed(5);
  struct Small : Module {
    Linear fc{3, 2};
    BatchNorm bn{2};
    void VisitState(StateVisitor& v) override {
      v.Child("fc", fc);
      v.Child("bn", bn);
    }
  } m;
  auto opt = Adam(GetParameters(m), {.lr = 0.1});
  ASSERT_TRUE(opt.ok()) << opt.status();
  EXPECT_EQ((*opt)->params().size(), 4u);  // the buffers are not trained
  std::vector<float> w_before = Values(m.fc.weight);
  Tensor x = Tensor::Randn({4, 3});
  Tensor::Train train;
  (*opt)->zero_grad();
  ASSERT_TRUE(m.bn(m.fc(x)).square().sum().backward().ok());
  ASSERT_TRUE((*opt)->step().ok());
  EXPECT_NE(Values(m.fc.weight), w_before);
  EXPECT_EQ(m.bn.num_batches_tracked.item<int64_t>().value_or(-1), 1);
  EXPECT_NE(Values(*m.bn.running_mean), std::vector<float>(2, 0.0f));
}

TEST(ModuleErrors, BadOptionsAndInputsGiveErroredTensors) {
  Conv2d bad_groups(3, 4, 3, {.groups = 2});
  EXPECT_NE(bad_groups.weight.status().message().find("groups=2 must divide"), std::string::npos);
  EXPECT_FALSE(bad_groups(Tensor::Zeros({1, 3, 4, 4})).ok());
  Conv2d same_strided(3, 4, 3, {.stride = {2}, .padding_same = true});
  EXPECT_NE(same_strided.weight.status().message().find("padding='same'"), std::string::npos);
  EXPECT_NE(ConvTranspose2d(3, 4, 0).weight.status().message().find("ConvTranspose2d: kernel sizes"),
            std::string::npos);
  EXPECT_FALSE(Linear(0, 3).weight.ok());

  BatchNorm bn(3);
  EXPECT_FALSE(bn(Tensor::Zeros({3})).ok());
  Tensor one_per_channel = bn(Tensor::Zeros({1, 3}), /*training=*/true);
  EXPECT_NE(one_per_channel.status().message().find("more than one value per channel"), std::string::npos);
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>().value_or(-1), 0);  // no update on error

  EXPECT_NE(LayerNorm(4)(Tensor::Zeros({2, 3})).status().message().find("must be (4)"), std::string::npos);
  EXPECT_FALSE(GroupNorm(3, 4)(Tensor::Zeros({1, 4, 2})).ok());
  EXPECT_FALSE(InstanceNorm(3)(Tensor::Zeros({1, 4, 2})).ok());
  EXPECT_NE(Embedding(4, 2)(Tensor::Zeros({3})).status().message().find("integer dtype"), std::string::npos);
  EXPECT_FALSE(LSTMCell(3, 2)(Tensor::Zeros({3})).first.ok());
}

TEST(ModuleErrors, PaddingSameKeepsTheSpatialSize) {
  Conv2d m(1, 1, std::vector<int64_t>{3, 4}, {.padding_same = true, .dilation = {2}});
  Tensor y = m(Tensor::Ones({1, 1, 7, 9}));
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 1, 7, 9}));
}

}  // namespace
}  // namespace tg::nn
