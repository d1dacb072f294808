// A user's program: (x @ w + 1).relu().sum() on the CPU, checked against plain loops.
#include <cmath>
#include <cstdio>
#include <vector>

#include "tinygrad/tensor/tensor.h"

int main() {
  std::vector<float> x(6), w(6);
  for (int i = 0; i < 6; ++i) {
    x[i] = static_cast<float>(i) - 2.5f;
    w[i] = 0.5f * static_cast<float>(i % 3) - 0.25f;
  }
  tg::Tensor tx = tg::Tensor::FromVector(x, {2, 3});
  tg::Tensor tw = tg::Tensor::FromVector(w, {3, 2});
  auto got = (tx.matmul(tw) + 1).relu().sum().item<float>();
  if (!got.ok()) {
    std::fprintf(stderr, "demo: %s\n", std::string(got.status().message()).c_str());
    return 1;
  }
  float want = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      float acc = 1;
      for (int k = 0; k < 3; ++k) acc += x[i * 3 + k] * w[k * 2 + j];
      want += acc > 0 ? acc : 0;
    }
  std::printf("demo: got %g, want %g\n", *got, want);
  return std::fabs(*got - want) <= 1e-5f * std::fabs(want) + 1e-6f ? 0 : 1;
}
