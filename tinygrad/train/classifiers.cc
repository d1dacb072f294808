// File: tinygrad/train/classifiers.cc
#include "tinygrad/train/classifiers.h"

#include <array>

namespace tg::train {

Tensor Mlp::operator()(const Tensor& x) const { return l2(l1(x.flatten(1)).relu()); }

void Mlp::VisitState(nn::StateVisitor& v) {
  v.Child("l1", l1);
  v.Child("l2", l2);
}

Tensor Cnn::operator()(const Tensor& x) const {
  Tensor h = c1(x).relu().max_pool2d();
  h = c2(h).relu().max_pool2d();
  return l2(l1(h.flatten(1)).relu());
}

void Cnn::VisitState(nn::StateVisitor& v) {
  v.Child("c1", c1);
  v.Child("c2", c2);
  v.Child("l1", l1);
  v.Child("l2", l2);
}

std::span<const std::string_view> ClassifierNames() {
  static constexpr std::array<std::string_view, 2> kNames = {"mlp", "cnn"};
  return kNames;
}

std::unique_ptr<Classifier> MakeClassifier(std::string_view name) {
  if (name == "mlp") return std::make_unique<Mlp>();
  if (name == "cnn") return std::make_unique<Cnn>();
  return nullptr;
}

}  // namespace tg::train
