// File: tests/gpu/exact_inputs.h
// Deterministic inputs for the GPU checks, made without running a kernel: a linear congruential
// sequence mapped to [-1, 1) in steps of 1/64, so every value is exact in half and bfloat16 and
// products sum exactly in float64 references.
#ifndef TESTS_GPU_EXACT_INPUTS_H_
#define TESTS_GPU_EXACT_INPUTS_H_

#include <cstdint>
#include <vector>

namespace tg {

inline std::vector<float> ExactInputs(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t x = seed * 2654435761u + 12345u;
  for (float& f : v) {
    x = x * 1664525u + 1013904223u;
    f = static_cast<float>(static_cast<int>((x >> 16) % 128) - 64) / 64.0f;
  }
  return v;
}

}  // namespace tg

#endif  // TESTS_GPU_EXACT_INPUTS_H_
