// File: tinygrad/nn/modules_golden_test.cc
// The init functions and nn modules against the reference tinygrad (testdata/
// nn_modules_golden.txt, written by tools/golden/gen_nn_modules_golden.py, which says how to
// run it). Each case seeds the generator and makes the reference's calls in the reference's
// order, so the weights must equal the reference's exactly (our generator is bit-exact); the
// outputs must match within float32 rounding: |ours - ref| <= 1e-5 + 1e-5 * |ref| (kernels may
// reduce in another order than the reference's).
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/nn/batch_norm.h"
#include "tinygrad/nn/conv.h"
#include "tinygrad/nn/embedding.h"
#include "tinygrad/nn/init.h"
#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/lstm_cell.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/norm.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::nn {
namespace {

struct Golden {
  std::vector<int64_t> shape;
  std::string dtype;
  std::vector<double> values;
};

// case -> name -> tensor, from the T records.
const std::map<std::string, std::map<std::string, Golden>>& Goldens() {
  static const auto* goldens = [] {
    auto* out = new std::map<std::string, std::map<std::string, Golden>>();
    std::ifstream f("tinygrad/nn/testdata/nn_modules_golden.txt");
    std::string line;
    while (std::getline(f, line)) {
      std::vector<std::string> p = absl::StrSplit(line, '|');
      if (p.size() != 6 || p[0] != "T") continue;
      Golden g;
      g.dtype = p[4];
      for (absl::string_view d : absl::StrSplit(p[3], ',', absl::SkipEmpty())) {
        int64_t v = 0;
        EXPECT_TRUE(absl::SimpleAtoi(d, &v)) << line;
        g.shape.push_back(v);
      }
      for (absl::string_view s : absl::StrSplit(p[5], ',')) {
        double v = 0;
        EXPECT_TRUE(absl::SimpleAtod(s, &v)) << line;
        g.values.push_back(v);
      }
      (*out)[p[1]][p[2]] = std::move(g);
    }
    return out;
  }();
  return *goldens;
}

// Exact: bit-equal as float32 (weights); else within the output tolerance above.
void ExpectGolden(const std::string& case_name, const std::string& name, const Tensor& t,
                  bool exact) {
  SCOPED_TRACE(case_name + "." + name);
  ASSERT_TRUE(Goldens().contains(case_name)) << "no golden case " << case_name;
  const auto& c = Goldens().at(case_name);
  ASSERT_TRUE(c.contains(name)) << "no golden tensor";
  const Golden& g = c.at(name);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t.shape(), g.shape);
  absl::StatusOr<std::vector<double>> v = t.to_vector<double>();
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), g.values.size());
  for (size_t i = 0; i < v->size(); ++i) {
    if (exact) {
      EXPECT_EQ(static_cast<float>((*v)[i]), static_cast<float>(g.values[i])) << "at " << i;
    } else {
      EXPECT_NEAR((*v)[i], g.values[i], 1e-5 + 1e-5 * std::abs(g.values[i])) << "at " << i;
    }
  }
}

bool IsInputOrOutput(const std::string& name) {
  return name == "out" || name == "x0" || name == "x1" || name == "h0" || name == "c0" ||
         name == "h1" || name == "c1";
}

// Every state dict entry of `m` equals the reference's exactly, and the reference has no other.
void ExpectState(const std::string& case_name, Module& m) {
  std::map<std::string, Tensor> sd = GetStateDict(m);
  for (const auto& [name, t] : sd) ExpectGolden(case_name, name, t, /*exact=*/true);
  for (const auto& [name, g] : Goldens().at(case_name))
    if (!IsInputOrOutput(name) && !sd.contains(name))
      ADD_FAILURE() << case_name << ": the reference's state has " << name << ", ours not";
}

// A module's state and its output "out".
void ExpectCase(const std::string& case_name, Module& m, const Tensor& out) {
  ExpectState(case_name, m);
  ExpectGolden(case_name, "out", out, false);
}

// Sets the affine weight (and bias) to randn draws, as the generator's affine_randn.
template <typename M>
void AffineRandn(M& m, int64_t n) {
  m.weight = Tensor::Randn({n});
  m.bias = Tensor::Randn({n});
}

TEST(InitGolden, InitFunctionsEqualTheReference) {
  Tensor::ManualSeed(11);
  ExpectGolden("init", "kaiming_uniform", KaimingUniform({4, 3, 2}), true);
  Tensor::ManualSeed(12);
  ExpectGolden("init", "kaiming_normal", KaimingNormal({3, 5}, 0.2), true);
  Tensor::ManualSeed(13);
  ExpectGolden("init", "glorot_uniform", GlorotUniform({3, 4}), true);
  Tensor::ManualSeed(14);
  ExpectGolden("init", "scaled_uniform", ScaledUniform({2, 3}), true);
  Tensor::ManualSeed(15);
  ExpectGolden("init", "normal", Normal({2, 3}, 1.0, 2.0), true);
  Tensor::ManualSeed(16);
  ExpectGolden("init", "uniform", Tensor::Uniform({5}, -2.0, 3.0), true);
}

TEST(InitGolden, UnusableShapesAreErrors) {
  EXPECT_FALSE(KaimingUniform({}).ok());
  EXPECT_FALSE(GlorotUniform({}).ok());
  EXPECT_FALSE(KaimingNormal({3, 0}).ok());
  EXPECT_FALSE(ScaledUniform({0}).ok());
  EXPECT_NE(KaimingUniform({}).status().message().find("kaiming_uniform"), std::string::npos);
}

TEST(ModulesGolden, Linear) {
  Tensor::ManualSeed(1);
  Linear m(5, 3);
  Tensor x = Tensor::Randn({2, 5});
  ExpectCase("linear", m, m(x));

  Tensor::ManualSeed(2);
  Linear nb(4, 2, /*bias=*/false);
  Tensor x2 = Tensor::Randn({3, 4});
  EXPECT_FALSE(nb.bias.has_value());
  ExpectCase("linear_nobias", nb, nb(x2));
}

TEST(ModulesGolden, Conv2d) {
  Tensor::ManualSeed(3);
  Conv2d m(2, 4, 3, {.padding = {1}});
  Tensor x = Tensor::Randn({1, 2, 5, 5});
  ExpectCase("conv2d", m, m(x));

  Tensor::ManualSeed(4);
  Conv2d g(4, 2, std::vector<int64_t>{3, 2}, {.stride = {2}, .padding = {1, 0}, .groups = 2});
  Tensor x2 = Tensor::Randn({2, 4, 6, 5});
  ExpectCase("conv2d_grouped", g, g(x2));
}

TEST(ModulesGolden, ConvTranspose2d) {
  Tensor::ManualSeed(5);
  ConvTranspose2d m(4, 2, 3, {.stride = {2}, .padding = {1}, .output_padding = {1}});
  Tensor x = Tensor::Randn({1, 4, 3, 3});
  ExpectCase("conv_transpose2d", m, m(x));
}

TEST(ModulesGolden, Conv1dSamePaddingAndGroupedTransposed) {
  Tensor::ManualSeed(21);
  Conv2d c1(2, 3, std::vector<int64_t>{3}, {.stride = {2}, .padding = {1}});  // nn.Conv1d
  Tensor x = Tensor::Randn({1, 2, 7});
  ExpectCase("conv1d", c1, c1(x));

  Tensor::ManualSeed(22);
  Conv2d same(2, 2, std::vector<int64_t>{3, 4}, {.padding_same = true, .dilation = {2}});
  Tensor x2 = Tensor::Randn({1, 2, 6, 7});
  ExpectCase("conv2d_same", same, same(x2));

  Tensor::ManualSeed(23);
  ConvTranspose2d t(4, 4, std::vector<int64_t>{2, 3},
                    {.stride = {1, 2}, .padding = {1, 0}, .dilation = {2}, .groups = 2, .bias = false});
  Tensor x3 = Tensor::Randn({2, 4, 3, 4});
  ExpectCase("conv_transpose2d_grouped", t, t(x3));
}

TEST(ModulesGolden, BatchNormWithoutRunningStatsUsesBatchStatsInEval) {
  Tensor::ManualSeed(24);
  BatchNorm m(2, {.affine = false, .track_running_stats = false});
  Tensor x = Tensor::Randn({3, 2, 5});
  ExpectCase("batchnorm_untracked", m, m(x));
}

TEST(ModulesGolden, BatchNormEval) {
  Tensor::ManualSeed(6);
  BatchNorm m(3);
  AffineRandn(m, 3);
  Tensor x = Tensor::Randn({2, 3, 4, 4});
  m.running_mean = Tensor::Randn({3});
  m.running_var = Tensor::Rand({3}) + 0.5;
  ExpectCase("batchnorm_eval", m, m(x));
}

TEST(ModulesGolden, BatchNormTrainUsesBatchStatsAndUpdatesRunningStats) {
  Tensor::ManualSeed(7);
  BatchNorm m(3);
  AffineRandn(m, 3);
  Tensor x = Tensor::Randn({4, 3, 2, 2});
  Tensor::Train train;  // the reference's `with Tensor.train():`
  Tensor out = m(x);
  ExpectGolden("batchnorm_train", "out", out, false);
  for (const char* name : {"weight", "bias", "num_batches_tracked"})
    ExpectGolden("batchnorm_train", name, GetStateDict(m).at(name), true);
  ExpectGolden("batchnorm_train", "running_mean", *m.running_mean, false);
  ExpectGolden("batchnorm_train", "running_var", *m.running_var, false);
}

TEST(ModulesGolden, LayerNorm) {
  Tensor::ManualSeed(8);
  LayerNorm m(5);
  AffineRandn(m, 5);
  Tensor x = Tensor::Randn({2, 3, 5});
  ExpectCase("layernorm", m, m(x));

  Tensor::ManualSeed(9);
  LayerNorm m2(std::vector<int64_t>{3, 4}, 1e-3, /*elementwise_affine=*/false);
  Tensor x2 = Tensor::Randn({2, 3, 4});
  EXPECT_TRUE(GetStateDict(m2).empty());
  ExpectGolden("layernorm_2d", "out", m2(x2), false);
}

TEST(ModulesGolden, LayerNorm2d) {
  Tensor::ManualSeed(21);
  LayerNorm2d m(3);
  AffineRandn(m, 3);
  Tensor x = Tensor::Randn({2, 3, 4, 2});
  ExpectCase("layernorm2d", m, m(x));
  Tensor bad = m(Tensor::Randn({3, 4, 2}));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              ::testing::HasSubstr("expects (N, C, H, W), got (3, 4, 2)"));
}

TEST(ModulesGolden, RMSNorm) {
  Tensor::ManualSeed(10);
  RMSNorm m(6);
  m.weight = Tensor::Randn({6});
  Tensor x = Tensor::Randn({2, 6});
  ExpectCase("rmsnorm", m, m(x));
}

TEST(ModulesGolden, GroupNorm) {
  Tensor::ManualSeed(17);
  GroupNorm m(2, 4);
  AffineRandn(m, 4);
  Tensor x = Tensor::Randn({2, 4, 3, 3});
  ExpectCase("groupnorm", m, m(x));
}

TEST(ModulesGolden, InstanceNorm) {
  Tensor::ManualSeed(18);
  InstanceNorm m(3);
  AffineRandn(m, 3);
  Tensor x = Tensor::Randn({2, 3, 4, 2});
  ExpectCase("instancenorm", m, m(x));
}

TEST(ModulesGolden, Embedding) {
  Tensor::ManualSeed(19);
  Embedding m(10, 4);
  Tensor idx = Tensor::FromVector<int32_t>({1, 2, 9, 0, 2, 5}, {2, 3});
  ExpectCase("embedding", m, m(idx));
}

TEST(ModulesGolden, LSTMCell) {
  Tensor::ManualSeed(20);
  LSTMCell m(3, 4);
  Tensor b = Tensor::Randn({2, 16});
  m.bias_ih = b[0];
  m.bias_hh = b[1];
  Tensor xs = Tensor::Randn({2, 2, 3});
  Tensor x0 = xs[0], x1 = xs[1];
  ExpectState("lstmcell", m);
  ExpectGolden("lstmcell", "x0", x0, true);
  ExpectGolden("lstmcell", "x1", x1, true);
  auto [h0, c0] = m(x0);
  ExpectGolden("lstmcell", "h0", h0, false);
  ExpectGolden("lstmcell", "c0", c0, false);
  auto [h1, c1] = m(x1, std::pair{h0, c0});
  ExpectGolden("lstmcell", "h1", h1, false);
  ExpectGolden("lstmcell", "c1", c1, false);
}

}  // namespace
}  // namespace tg::nn
