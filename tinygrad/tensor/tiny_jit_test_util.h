// File: tinygrad/tensor/tiny_jit_test_util.h
// For TinyJit's tests: realized inputs whose values depend on a seed, and a tensor's values.
#ifndef TINYGRAD_TENSOR_TINY_JIT_TEST_UTIL_H_
#define TINYGRAD_TENSOR_TINY_JIT_TEST_UTIL_H_

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::tiny_jit_test {

// The float values of `t` (a test failure and none when it cannot be read).
inline std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<float>{};
}

// A realized float tensor of `shape` whose values (small integers) depend on `seed`.
inline Tensor Input(std::vector<int64_t> shape, int seed) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7 + seed * 13) % 11) - 5.0f;
  Tensor t = Tensor::FromVector<float>(v, shape);
  EXPECT_TRUE(t.realize().ok());
  return t;
}

}  // namespace tg::tiny_jit_test

#endif  // TINYGRAD_TENSOR_TINY_JIT_TEST_UTIL_H_
