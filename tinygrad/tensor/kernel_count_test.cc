// File: tinygrad/tensor/kernel_count_test.cc
// The Tensor formulations decide how many kernels the scheduler makes; these counts are
// tinygrad's (test/test_schedule.py): softmax 3, matmul+relu 1, conv2d 1, a 4096x4096 sum 3
// (split reduce), elementwise chains 1, realized inputs are not recomputed. Backward passes'
// counts are checked against the reference's in autograd_golden_test.
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

// Kernels run to realize `t` (inputs realized first, so they don't count).
int64_t KernelsFor(const Tensor& t, std::vector<Tensor> inputs = {}) {
  if (!inputs.empty()) {
    EXPECT_TRUE(Realize(inputs).ok());
  }
  int64_t before = GetEngineStats().kernel_count;
  absl::Status s = t.realize();
  EXPECT_TRUE(s.ok()) << s;
  return GetEngineStats().kernel_count - before;
}

Tensor R(std::vector<int64_t> shape) { return Tensor::Rand(shape); }

TEST(KernelCount, Softmax) {
  Tensor x = R({4, 33});
  EXPECT_EQ(KernelsFor(x.softmax(), {x}), 3);
}

TEST(KernelCount, MatmulRelu) {
  Tensor a = R({16, 32}), b = R({32, 8});
  EXPECT_EQ(KernelsFor(a.matmul(b).relu(), {a, b}), 1);
}

TEST(KernelCount, Conv2d) {
  Tensor x = R({1, 3, 16, 16}), w = R({8, 3, 3, 3});
  EXPECT_EQ(KernelsFor(x.conv2d(w, std::nullopt, {.padding = {1}}), {x, w}), 1);
}

TEST(KernelCount, BigSumSplits) {
  Tensor x = Tensor::Empty({4096, 4096});
  EXPECT_EQ(KernelsFor(x.sum()), 3);
}

TEST(KernelCount, ElementwiseChainAndRealizedInputs) {
  Tensor a = R({257}), b = R({257});
  Tensor c = ((a + b) * 2 - a.exp()).relu();
  EXPECT_EQ(KernelsFor(c, {a, b}), 1);
  EXPECT_EQ(KernelsFor(c), 0);           // already realized
  EXPECT_EQ(KernelsFor(c.sum() + 1), 1);  // reads c's buffer
}

}  // namespace
}  // namespace tg
