// File: tests/gpu/op_cases.h
// The Tensor ops a device is checked on against the CPU: shared by the real GPU's test
// (cuda_ops_test) and the UOp emulator's (emulated_ops_test), so both check the same programs.
#ifndef TESTS_GPU_OP_CASES_H_
#define TESTS_GPU_OP_CASES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

struct OpCase {
  std::string name;
  std::vector<std::vector<int64_t>> shapes;         // of the float inputs, random in [-1, 1)
  std::function<Tensor(const std::vector<Tensor>&)> fn;
  double atol = 1e-5, rtol = 1e-4;
};

// n floats in [-1, 1) from `seed` (the same on every machine).
std::vector<float> RandomData(int64_t n, uint64_t seed);

// The cases, each with its inputs' shapes and tolerances.
std::vector<OpCase> OpCases();

// The gradients of a conv -> relu -> max_pool -> flatten -> matmul -> log_softmax loss (its
// mean, negated) with respect to x (N, C, H, W), w (the conv's weights) and m (the matmul's,
// (features, classes)), flattened and concatenated: the backward kernels training runs (the
// reductions over the batch, the pooling's and the conv's scatter back). An errored tensor
// where backward fails.
Tensor ConvPoolGradients(const Tensor& x, const Tensor& w, const Tensor& m);

// The case's result on `device` (inputs made there from the same seeds), read back as floats.
absl::StatusOr<std::vector<float>> RunOpCase(const OpCase& c, const std::string& device);

// Where `got` differs from `want` beyond the case's tolerances: a line per element (NaN equals
// NaN), at most `max_lines`.
std::vector<std::string> OpCaseMismatches(const OpCase& c, const std::vector<float>& want,
                                          const std::vector<float>& got, int max_lines = 10);

}  // namespace tg

#endif  // TESTS_GPU_OP_CASES_H_
