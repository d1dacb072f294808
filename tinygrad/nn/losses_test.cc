// File: tinygrad/nn/losses_test.cc
// SparseCategoricalCrossentropy against the reference's values (tools/golden/gen_losses_golden.py
// printed them), its gradient, and its errors.
#include "tinygrad/nn/losses.h"

#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/autograd.h"

namespace tg::nn {
namespace {

const std::vector<float> kLogits = {-1.0f, 2.0f, -3.0f, 0.5f, 1.0f, -2.0f, 3.0f, 0.25f,
                                    0.0f,  0.0f, 0.0f,  0.0f};
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
  EXPECT_NEAR(Item(SparseCategoricalCrossentropy(Logits(), Labels(), {.reduction = Reduction::kSum})),
              1.8201950788497925, 1e-6);
  absl::StatusOr<std::vector<float>> none =
      SparseCategoricalCrossentropy(Logits(), Labels(), {.reduction = Reduction::kNone}).to_vector<float>();
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
  const std::vector<float> want = {0.012968877330422401f, -0.07284650206565857f, 0.0017551465425640345f,
                                   0.05812247097492218f,  0.0374060682952404f,   0.001862338394857943f,
                                   -0.0569378137588501f,  0.017669375985860825f, 0.0833333358168602f,
                                   0.0833333358168602f,   0.0833333358168602f,   -0.25f};
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
            "sparse_categorical_crossentropy: labels must be class ids of an int dtype, got dtypes.float");
  EXPECT_EQ(message(SparseCategoricalCrossentropy(Logits(), Tensor::FromVector<int32_t>({1, 2}))),
            "sparse_categorical_crossentropy: labels of shape (2,) for logits of shape (3, 4): want (3,)");
  EXPECT_EQ(message(SparseCategoricalCrossentropy(Tensor::Scalar(1.0f), Labels())),
            "sparse_categorical_crossentropy: logits must have a class axis, got a 0-d tensor");
  Tensor bad = Tensor::Error(absl::InvalidArgumentError("upstream"));
  EXPECT_EQ(message(SparseCategoricalCrossentropy(bad, Labels())), "upstream");
}

}  // namespace
}  // namespace tg::nn
