// File: tinygrad/train/classifiers.h
// Image classifiers for 28x28 one-channel datasets (Fashion-MNIST, MNIST), small enough to train
// in minutes on a CPU. Built from the nn modules with the reference's default initializations,
// so Tensor::ManualSeed(s) before making one gives the weights tinygrad gives the same model
// after Tensor.manual_seed(s).
//
// Example (tinygrad's examples/beautiful_mnist.py, smaller):
//   Tensor::ManualSeed(42);
//   std::unique_ptr<Classifier> model = MakeClassifier("cnn");
//   Tensor logits = (*model)(x);   // x: (N, 1, 28, 28) float in [0, 1] -> (N, 10)
#ifndef TINYGRAD_TRAIN_CLASSIFIERS_H_
#define TINYGRAD_TRAIN_CLASSIFIERS_H_

#include <memory>
#include <span>
#include <string_view>

#include "tinygrad/nn/conv.h"
#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::train {

inline constexpr int64_t kImageSide = 28;
inline constexpr int64_t kClasses = 10;

// A model from images (N, 1, 28, 28) to logits (N, 10).
class Classifier : public nn::Module {
 public:
  virtual Tensor operator()(const Tensor& x) const = 0;
};

// 784-128-10 with a relu (the MLP of tinygrad's docs/quickstart).
class Mlp : public Classifier {
 public:
  Tensor operator()(const Tensor& x) const override;
  void VisitState(nn::StateVisitor& v) override;

  nn::Linear l1{kImageSide * kImageSide, 128};
  nn::Linear l2{128, kClasses};
};

// beautiful_mnist's shape at a size two CPU cores train in minutes: conv 3x3 (16) -> relu ->
// max_pool 2 -> conv 3x3 (32) -> relu -> max_pool 2 -> flatten (32*5*5) -> linear (128) ->
// relu -> linear (10).
class Cnn : public Classifier {
 public:
  Tensor operator()(const Tensor& x) const override;
  void VisitState(nn::StateVisitor& v) override;

  nn::Conv2d c1{1, 16, 3};
  nn::Conv2d c2{16, 32, 3};
  nn::Linear l1{32 * 5 * 5, 128};
  nn::Linear l2{128, kClasses};
};

// The names MakeClassifier knows, in the order the help lists them: "mlp", "cnn".
std::span<const std::string_view> ClassifierNames();
// A new model with fresh weights from the Tensor generator; nullptr for an unknown name.
std::unique_ptr<Classifier> MakeClassifier(std::string_view name);

}  // namespace tg::train

#endif  // TINYGRAD_TRAIN_CLASSIFIERS_H_
