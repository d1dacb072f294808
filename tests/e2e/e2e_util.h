// File: tests/e2e/e2e_util.h
// Test-only helpers for the end-to-end tests: reading tensors back (failing the test on an
// error), counting the kernels the scheduler makes for a tensor, comparing with tolerances,
// and independent naive reference implementations (plain loops over doubles, written from the
// definitions, not from the Tensor library's formulations).
#ifndef TESTS_E2E_E2E_UTIL_H_
#define TESTS_E2E_E2E_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tinygrad/tensor/tensor.h"

namespace tg::e2e {

// A realized float32 tensor of `shape` holding uniform values in [lo, hi) from seed `seed`
// (std::mt19937); the values, as the float32 they are stored as, go to *values when given.
Tensor RandomInput(const std::vector<int64_t>& shape, uint32_t seed,
                   std::vector<double>* values = nullptr, double lo = -1, double hi = 1);

// The tensor's elements as doubles (to_vector<float>); an error fails the current test and
// returns an empty vector.
std::vector<double> Values(const Tensor& t);

// Kernels (SINK schedule items) the scheduler makes for `t` now, without running them:
// CreateScheduleWithVars(SINK(t)). -1 (and a test failure) on a scheduling error.
int64_t ScheduledKernels(const Tensor& t);
// The same for several tensors scheduled together: SINK(ts...).
int64_t ScheduledKernels(const std::vector<Tensor>& ts);

// Every |got[i] - want[i]| <= atol + rtol * |want[i]|, and equal sizes.
void ExpectAllClose(const std::vector<double>& got, const std::vector<double>& want, double atol,
                    double rtol, const std::string& what);

// ** naive references; row-major flat arrays **

// (m, k) @ (k, n).
std::vector<double> MatMul(const std::vector<double>& a, const std::vector<double>& b, int64_t m,
                           int64_t k, int64_t n);
// NCHW x (n, cin, h, w), OIHW weight (cout, cin, kh, kw), stride 1, zero padding `pad` on every
// side; output (n, cout, h + 2*pad - kh + 1, w + 2*pad - kw + 1).
std::vector<double> Conv2d(const std::vector<double>& x, const std::vector<double>& w, int64_t n,
                           int64_t cin, int64_t h, int64_t wd, int64_t cout, int64_t kh,
                           int64_t kw, int64_t pad);
// Normalizes each of `rows` rows of length `cols`: (x - mean) / sqrt(var + eps), population
// variance.
std::vector<double> LayerNormRows(const std::vector<double>& x, int64_t rows, int64_t cols,
                                  double eps = 1e-5);
// Softmax of each row.
std::vector<double> SoftmaxRows(const std::vector<double>& x, int64_t rows, int64_t cols);

}  // namespace tg::e2e

#endif  // TESTS_E2E_E2E_UTIL_H_
