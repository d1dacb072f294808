// File: tests/e2e/e2e_util.cc
#include "tests/e2e/e2e_util.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "tinygrad/schedule/schedule.h"

namespace tg::e2e {

Tensor RandomInput(const std::vector<int64_t>& shape, uint32_t seed,
                   std::vector<double>* values, double lo, double hi) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<float> data(n);
  for (float& f : data) f = static_cast<float>(dist(gen));
  if (values != nullptr) values->assign(data.begin(), data.end());
  return Tensor::FromVector<float>(data, shape);
}

std::vector<double> Values(const Tensor& t) {
  absl::StatusOr<std::vector<float>> v = t.to_vector<float>();
  EXPECT_TRUE(v.ok()) << v.status();
  if (!v.ok()) return {};
  return std::vector<double>(v->begin(), v->end());
}

int64_t ScheduledKernels(const Tensor& t) { return ScheduledKernels(std::vector<Tensor>{t}); }

int64_t ScheduledKernels(const std::vector<Tensor>& ts) {
  std::vector<UOp> roots;
  for (const Tensor& t : ts) {
    EXPECT_TRUE(t.ok()) << t.status();
    if (!t.ok()) return -1;
    roots.push_back(t.uop());
  }
  absl::StatusOr<Schedule> s = CreateScheduleWithVars(UOp::Sink(roots));
  EXPECT_TRUE(s.ok()) << s.status();
  if (!s.ok()) return -1;
  return std::count_if(s->items.begin(), s->items.end(),
                       [](const ScheduleItem& si) { return si.ast.op() == Ops::SINK; });
}

void ExpectAllClose(const std::vector<double>& got, const std::vector<double>& want, double atol,
                    double rtol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::abs(got[i] - want[i]) <= atol + rtol * std::abs(want[i])) continue;
    if (++bad <= 5)
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", want " << want[i];
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << got.size() << " elements differ";
}

std::vector<double> MatMul(const std::vector<double>& a, const std::vector<double>& b, int64_t m,
                           int64_t k, int64_t n) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

std::vector<double> Conv2d(const std::vector<double>& x, const std::vector<double>& w, int64_t n,
                           int64_t cin, int64_t h, int64_t wd, int64_t cout, int64_t kh,
                           int64_t kw, int64_t pad) {
  int64_t oh = h + 2 * pad - kh + 1, ow = wd + 2 * pad - kw + 1;
  std::vector<double> out(n * cout * oh * ow, 0.0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t o = 0; o < cout; ++o)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z) {
          double acc = 0;
          for (int64_t c = 0; c < cin; ++c)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t yy = y + i - pad, zz = z + j - pad;
                if (yy < 0 || yy >= h || zz < 0 || zz >= wd) continue;
                acc += x[((b * cin + c) * h + yy) * wd + zz] * w[((o * cin + c) * kh + i) * kw + j];
              }
          out[((b * cout + o) * oh + y) * ow + z] = acc;
        }
  return out;
}

std::vector<double> LayerNormRows(const std::vector<double>& x, int64_t rows, int64_t cols,
                                  double eps) {
  std::vector<double> out(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c) mean += x[r * cols + c];
    mean /= cols;
    for (int64_t c = 0; c < cols; ++c) var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    for (int64_t c = 0; c < cols; ++c) out[r * cols + c] = (x[r * cols + c] - mean) / std::sqrt(var + eps);
  }
  return out;
}

std::vector<double> SoftmaxRows(const std::vector<double>& x, int64_t rows, int64_t cols) {
  std::vector<double> out(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, x[r * cols + c]);
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(x[r * cols + c] - mx);
    for (int64_t c = 0; c < cols; ++c) out[r * cols + c] = std::exp(x[r * cols + c] - mx) / sum;
  }
  return out;
}

}  // namespace tg::e2e
