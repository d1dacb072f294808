// A user's training program on the public targets: a Linear classifier learns which of 3
// random directions each random point lies closest to, with Adam and sparse categorical
// cross-entropy (gradients, the optimizer update and the loss realized as one schedule), then
// its weights go through a safetensors file into a fresh model, which must answer the same.
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tinygrad/nn/linear.h"
#include "tinygrad/nn/losses.h"
#include "tinygrad/nn/module.h"
#include "tinygrad/nn/optim.h"
#include "tinygrad/nn/state.h"
#include "tinygrad/tensor/tensor.h"

namespace {

int Fail(const char* what, const absl::Status& s) {
  std::fprintf(stderr, "train_demo: %s: %s\n", what, std::string(s.message()).c_str());
  return 1;
}

}  // namespace

int main() {
  using tg::Tensor;
  Tensor::ManualSeed(7);
  const Tensor directions = Tensor::Randn({4, 3});
  const Tensor x = Tensor::Randn({256, 4});
  const Tensor y = x.matmul(directions).argmax(1);  // the labels: 256 ints in [0, 3)

  tg::nn::Linear model(4, 3);
  auto opt = tg::Adam(tg::nn::GetParameters(model), {.lr = 0.05});
  if (!opt.ok()) return Fail("Adam", opt.status());
  float first = 0, last = 0;
  {
    Tensor::Train training;
    for (int step = 0; step < 100; ++step) {
      (*opt)->zero_grad();
      Tensor loss = tg::nn::SparseCategoricalCrossentropy(model(x), y);
      if (absl::Status s = loss.backward(); !s.ok()) return Fail("backward", s);
      auto update = (*opt)->schedule_step();
      if (!update.ok()) return Fail("schedule_step", update.status());
      update->push_back(loss);
      if (absl::Status s = tg::Realize(*update); !s.ok()) return Fail("step", s);
      auto value = loss.item<float>();
      if (!value.ok()) return Fail("loss", value.status());
      (step == 0 ? first : last) = *value;
    }
  }
  std::printf("train_demo: loss %.4f -> %.4f in 100 Adam steps\n", first, last);
  if (!(last < 0.5f * first)) return 1;

  const std::string path = (std::filesystem::temp_directory_path() / "tinygrad_cc_train_demo.safetensors").string();
  if (absl::Status s = tg::SafeSave(path, tg::nn::GetStateDict(model)); !s.ok()) return Fail("SafeSave", s);
  auto loaded = tg::SafeLoad(path);
  if (!loaded.ok()) return Fail("SafeLoad", loaded.status());
  tg::nn::Linear fresh(4, 3);
  if (absl::Status s = tg::nn::LoadStateDict(fresh, *loaded); !s.ok()) return Fail("LoadStateDict", s);
  auto a = model(x).to_vector<float>();
  auto b = fresh(x).to_vector<float>();
  std::filesystem::remove(path);
  if (!a.ok() || !b.ok()) return Fail("outputs", a.ok() ? b.status() : a.status());
  std::printf("train_demo: the reloaded model answers %s\n", *a == *b ? "the same" : "differently");
  return *a == *b ? 0 : 1;
}
