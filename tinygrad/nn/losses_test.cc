// File: tinygrad/nn/losses_test.cc
// The losses against the reference's values (tools/golden/gen_losses_golden.py printed them, by
// running tinygrad 35900290 with DEV=CPU), gradients, and errors.
#include "tinygrad/nn/losses.h"

#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/autograd.h"

namespace tg::nn {
namespace {

const std::vector<float> kLogits = {-1.0f, 2.0f,  -3.0f, 0.5f, 1.0f, -2.0f,
                                    3.0f,  0.25f, 0.0f,  0.0f, 0.0f, 0.0f};
Tensor Logits() { return Tensor::FromVector<float>(kLogits, {3, 4}); }
Tensor Labels() { return Tensor::FromVector<int32_t>({1, 2, 3}); }

float Item(const Tensor& t) {
  absl::StatusOr<float> v = t.item<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.value_or(-1.0f);
}

TEST(SparseCategoricalCrossentropy, EqualsTheReference) {
  EXPECT_NEAR(Item(SparseCategoricalCrossentropy(Logits(), Labels())), 0.6067317128181458, 1e-6);
  EXPECT_NEAR(Item(SparseCategoricalCrossentropy(Logits(), Labels(), {.label_smoothing = 0.1})),
              0.7671483755111694, 1e-6);
  EXPECT_NEAR(Item(SparseCategoricalCrossentropy(Logits(), Labels(), {.ignore_index = 2})),
              0.8164424896240234, 1e-6);
  EXPECT_NEAR(
      Item(SparseCategoricalCrossentropy(Logits(), Labels(), {.reduction = Reduction::kSum})),
      1.8201950788497925, 1e-6);
  absl::StatusOr<std::vector<float>> none =
      SparseCategoricalCrossentropy(Logits(), Labels(), {.reduction = Reduction::kNone})
          .to_vector<float>();
  ASSERT_TRUE(none.ok()) << none.status();
  const std::vector<float> want = {0.24659067392349243f, 0.18731005489826202f, 1.3862943649291992f};
  ASSERT_EQ(none->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR((*none)[i], want[i], 1e-6) << i;
}

TEST(SparseCategoricalCrossentropy, GradientEqualsTheReference) {
  Tensor logits = Logits().requires_grad_();
  ASSERT_TRUE(SparseCategoricalCrossentropy(logits, Labels()).backward().ok());
  absl::StatusOr<std::vector<float>> g = logits.grad()->to_vector<float>();
  ASSERT_TRUE(g.ok()) << g.status();
  const std::vector<float> want = {
      0.012968877330422401f, -0.07284650206565857f, 0.0017551465425640345f, 0.05812247097492218f,
      0.0374060682952404f,   0.001862338394857943f, -0.0569378137588501f,   0.017669375985860825f,
      0.0833333358168602f,   0.0833333358168602f,   0.0833333358168602f,    -0.25f};
  ASSERT_EQ(g->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR((*g)[i], want[i], 1e-6) << i;
}

TEST(SparseCategoricalCrossentropy, UInt8LabelsAsTheDatasetGivesThem) {
  Tensor labels = Tensor::FromVector<uint8_t>({1, 2, 3});
  EXPECT_NEAR(Item(SparseCategoricalCrossentropy(Logits(), labels)), 0.6067317128181458, 1e-6);
}

TEST(SparseCategoricalCrossentropy, BadInputsAreErroredTensors) {
  auto message = [](const Tensor& t) { return std::string(t.status().message()); };
  EXPECT_EQ(message(SparseCategoricalCrossentropy(Logits(), Labels(), {.label_smoothing = 1.5})),
            "sparse_categorical_crossentropy: label_smoothing must be in [0, 1], got 1.5");
  EXPECT_EQ(message(SparseCategoricalCrossentropy(Logits(), Tensor::FromVector<float>({1, 2, 3}))),
            "sparse_categorical_crossentropy: labels must be class ids of an int dtype, got "
            "dtypes.float");
  EXPECT_EQ(message(SparseCategoricalCrossentropy(Logits(), Tensor::FromVector<int32_t>({1, 2}))),
            "sparse_categorical_crossentropy: labels of shape (2,) for logits of shape (3, 4): "
            "want (3,)");
  EXPECT_EQ(message(SparseCategoricalCrossentropy(Tensor::Scalar(1.0f), Labels())),
            "sparse_categorical_crossentropy: logits must have a class axis, got a 0-d tensor");
  Tensor bad = Tensor::Error(absl::InvalidArgumentError("upstream"));
  EXPECT_EQ(message(SparseCategoricalCrossentropy(bad, Labels())), "upstream");
}

void ExpectValues(const Tensor& t, const std::vector<float>& want) {
  absl::StatusOr<std::vector<float>> got = t.reshape({-1}).to_vector<float>();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR((*got)[i], want[i], 1e-6) << i;
}

const std::vector<float> kProbs = {0.1f, 0.6f, 0.2f,  0.1f,  0.0f,  0.0f,
                                   1.0f, 0.0f, 0.25f, 0.25f, 0.25f, 0.25f};

TEST(CrossEntropy, EqualsTheReference) {
  EXPECT_NEAR(Item(CrossEntropy(Logits(), Labels())), 0.6067317128181458, 1e-6);
  EXPECT_NEAR(Item(CrossEntropy(Logits(), Labels(),
                                {.reduction = Reduction::kSum, .label_smoothing = 0.2})),
              2.7826950550079346, 1e-6);
  ExpectValues(CrossEntropy(Logits(), Labels(), {.reduction = Reduction::kNone}),
               {0.24659067392349243f, 0.18731005489826202f, 1.3862943649291992f});
  // class probabilities as the target
  EXPECT_NEAR(Item(CrossEntropy(Logits(), Tensor::FromVector<float>(kProbs, {3, 4}))),
              1.0900650024414062, 1e-6);
  // one sample: classes on axis 0, a 0-d class id
  EXPECT_NEAR(Item(CrossEntropy(Tensor::FromVector<float>({0.5f, -1.0f, 2.0f}), Tensor::Scalar(2))),
              0.24131132662296295, 1e-6);
}

TEST(CrossEntropy, GradientEqualsTheReference) {
  Tensor logits = Logits().requires_grad_();
  Tensor loss =
      CrossEntropy(logits, Tensor::FromVector<float>(kProbs, {3, 4}), {.label_smoothing = 0.1});
  EXPECT_NEAR(Item(loss), 1.2021484375, 1e-6);
  ASSERT_TRUE(loss.backward().ok());
  ExpectValues(*logits.grad(),
               {-0.025364458560943604f, 0.0721535012125969f, -0.06657818704843521f,
                0.019789135083556175f, 0.029072735458612442f, -0.006470995489507914f,
                -0.031937796622514725f, 0.00933604221791029f, 0, 0, 0, 0});
}

TEST(NllLoss, EqualsTheReference) {
  Tensor log_probs = Logits().log_softmax();
  const Tensor weight = Tensor::FromVector<float>({0.5f, 1.0f, 2.0f, 4.0f});
  EXPECT_NEAR(Item(NllLoss(log_probs, Labels())), 0.6067317128181458, 1e-6);
  EXPECT_NEAR(Item(NllLoss(log_probs, Labels(), {.weight = weight})), 0.8809126615524292, 1e-6);
  EXPECT_NEAR(
      Item(NllLoss(log_probs, Tensor::FromVector<int32_t>({1, -100, 3}), {.ignore_index = -100})),
      0.8164424896240234, 1e-6);
  EXPECT_NEAR(Item(NllLoss(log_probs, Labels(),
                           {.weight = weight, .ignore_index = 2, .reduction = Reduction::kSum})),
              5.7917680740356445, 1e-6);
  ExpectValues(NllLoss(log_probs, Labels(), {.weight = weight, .reduction = Reduction::kNone}),
               {0.24659067392349243f, 0.37462010979652405f, 5.545177459716797f});
  // (N, C, d): a label per position
  Tensor x3 =
      Tensor::FromVector<float>(
          {0.1f, 0.2f, 0.3f, -0.4f, 0.5f, 0.6f, -0.7f, 0.8f, 0.9f, 1.0f, -1.1f, 1.2f}, {2, 3, 2})
          .log_softmax(1);
  EXPECT_NEAR(Item(NllLoss(x3, Tensor::FromVector<int32_t>({0, 2, 1, 1}, {2, 2}))),
              0.8566178679466248, 1e-6);
}

TEST(BinaryCrossentropy, EqualsTheReference) {
  const Tensor p = Tensor::FromVector<float>({0.1f, 0.9f, 0.2f, 0.7f});
  const Tensor y = Tensor::FromVector<float>({0, 1, 0, 1});
  EXPECT_NEAR(Item(BinaryCrossentropy(p, y)), 0.19763490557670593, 1e-6);
  EXPECT_NEAR(Item(BinaryCrossentropy(p, y, Reduction::kSum)), 0.7905396223068237, 1e-6);
  ExpectValues(
      BinaryCrossentropy(p, y, Reduction::kNone),
      {0.10536053776741028f, 0.10536053776741028f, 0.2231435477733612f, 0.3566749691963196f});

  const Tensor z = Tensor::FromVector<float>({-1.0f, 2.0f, -3.0f, 0.5f});
  EXPECT_NEAR(Item(BinaryCrossentropyLogits(z, y)), 0.24071349203586578, 1e-6);
  EXPECT_NEAR(Item(BinaryCrossentropyLogits(z, y, Reduction::kMean,
                                            Tensor::FromVector<float>({2, 2, 0.5f, 3}))),
              0.5094839930534363, 1e-6);
  ExpectValues(
      BinaryCrossentropyLogits(z, y, Reduction::kNone),
      {0.31326162815093994f, 0.12692803144454956f, 0.04858732968568802f, 0.4740769863128662f});
  Tensor logits = Tensor::FromVector<float>({-1.0f, 2.0f, -3.0f, 0.5f}).requires_grad_();
  ASSERT_TRUE(BinaryCrossentropyLogits(logits, y).backward().ok());
  ExpectValues(*logits.grad(), {0.06723535805940628f, -0.02980072796344757f, 0.011856470257043839f,
                                -0.09438516944646835f});
  // logsigmoid stays finite far from 0
  ExpectValues(Tensor::FromVector<float>({-30, -3, -1, 0, 1, 3, 30}).logsigmoid(),
               {-30.0f, -3.0485873222351074f, -1.31326162815094f, -0.6931471824645996f,
                -0.31326162815093994f, -0.04858732968568802f, 0.0f});
}

TEST(Losses, BadInputsAreErroredTensors) {
  auto message = [](const Tensor& t) { return std::string(t.status().message()); };
  EXPECT_EQ(message(CrossEntropy(Logits(), Tensor::FromVector<int32_t>({1, 2}))),
            "cross_entropy: target of shape (2,) for logits of shape (3, 4): want (3,) (class ids) "
            "or (3, 4) "
            "(probabilities)");
  EXPECT_EQ(message(CrossEntropy(Logits(), Tensor::FromVector<float>({1, 2, 3}))),
            "cross_entropy: class ids must be of an int dtype, got dtypes.float");
  EXPECT_EQ(message(CrossEntropy(Logits(), Labels(), {.label_smoothing = -0.5})),
            "cross_entropy: label_smoothing must be in [0, 1], got -0.5");
  EXPECT_EQ(message(NllLoss(Tensor::FromVector<float>({1, 2}), Tensor::Scalar(0))),
            "nll_loss: log_probs must be (N, C, ...), got (2,)");
  EXPECT_EQ(message(NllLoss(Logits(), Tensor::FromVector<int32_t>({1, 2}))),
            "nll_loss: labels of shape (2,) for log_probs of shape (3, 4): want (3,)");
  EXPECT_EQ(message(NllLoss(Logits(), Labels(), {.weight = Tensor::FromVector<float>({1, 2})})),
            "nll_loss: weight of shape (2,) for 4 classes: want (4,)");
  EXPECT_EQ(message(BinaryCrossentropy(Tensor::FromVector<float>({0.5f}),
                                       Tensor::FromVector<float>({1, 0}))),
            "binary_crossentropy: target of shape (2,) for probabilities of shape (1,)");
  EXPECT_EQ(message(BinaryCrossentropyLogits(Tensor::FromVector<float>({0.5f}),
                                             Tensor::FromVector<float>({1, 0}))),
            "binary_crossentropy_logits: target of shape (2,) for logits of shape (1,)");
}

}  // namespace
}  // namespace tg::nn
