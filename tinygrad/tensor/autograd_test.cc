// File: tinygrad/tensor/autograd_test.cc
// Gradients of every differentiable Tensor op against central finite differences in float64
// on random inputs (odd shapes, broadcasting, views, reductions, elementwise, matmul, conv2d,
// pools), through the Tensor API, so both the rules (tinygrad/gradient) and the Tensor
// formulations they see are checked. The finite differences use only forward evaluation.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/autograd.h"
#include "tinygrad/tensor/naive_test_util.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using naive::Nd;
using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

struct FdCase {
  std::string name;
  std::vector<std::vector<int64_t>> shapes;
  Fn f;
  double lo = -2, hi = 2;  // where the random inputs lie
  // Central differences in float64: the error is O(h^2) plus rounding O(eps/h), ~1e-10 here.
  double h = 1e-6, tol = 1e-6;
};

// sum(f(xs) * w) for fixed random weights w, so every output element has its own gradient.
Tensor WeightedLoss(const FdCase& c, const std::vector<Nd>& data, std::vector<Tensor>* inputs) {
  std::vector<Tensor> xs;
  for (const Nd& d : data) xs.push_back(naive::ToTensor<double>(d).requires_grad_());
  Tensor out = c.f(xs);
  if (!out.ok()) return out;
  Nd w = naive::Random(out.shape(), 99, 0.5, 1.5);
  if (inputs) *inputs = xs;
  return (out * naive::ToTensor<double>(w)).sum();
}

void CheckAgainstFiniteDifferences(const FdCase& c) {
  SCOPED_TRACE(c.name);
  std::vector<Nd> data;
  for (size_t i = 0; i < c.shapes.size(); ++i)
    data.push_back(naive::Random(c.shapes[i], 7 + i, c.lo, c.hi));
  std::vector<Tensor> xs;
  Tensor loss = WeightedLoss(c, data, &xs);
  ASSERT_TRUE(loss.ok()) << loss.status();
  std::vector<Tensor> grads = loss.gradient(xs);
  ASSERT_TRUE(Realize(grads).ok());
  for (size_t i = 0; i < data.size(); ++i) {
    ASSERT_TRUE(grads[i].ok()) << grads[i].status();
    EXPECT_EQ(grads[i].shape(), c.shapes[i]);
    EXPECT_EQ(grads[i].dtype(), dtypes::float64);
    std::vector<double> analytic = naive::Values(grads[i]);
    ASSERT_EQ(analytic.size(), data[i].v.size());
    for (size_t j = 0; j < analytic.size(); ++j) {
      std::vector<Nd> moved = data;
      moved[i].v[j] = data[i].v[j] + c.h;
      absl::StatusOr<double> plus = WeightedLoss(c, moved, nullptr).item<double>();
      moved[i].v[j] = data[i].v[j] - c.h;
      absl::StatusOr<double> minus = WeightedLoss(c, moved, nullptr).item<double>();
      ASSERT_TRUE(plus.ok() && minus.ok()) << plus.status() << minus.status();
      double numeric = (*plus - *minus) / (2 * c.h);
      EXPECT_NEAR(analytic[j], numeric, c.tol * std::max(1.0, std::abs(numeric)))
          << "input " << i << " element " << j;
    }
  }
}

Tensor Bools(const std::vector<int64_t>& shape) {  // a fixed random condition
  Nd r = naive::Random(shape, 3);
  std::vector<bool> b;
  for (double v : r.v) b.push_back(v > 0);
  return Tensor::FromVector<bool>(b, shape);
}

std::vector<FdCase> Cases() {
  using V = std::vector<Tensor>;
  return {
      // ** views **
      {"reshape", {{2, 3, 5}}, [](const V& x) { return x[0].reshape({5, 6}).sin(); }},
      {"permute", {{2, 3, 4}}, [](const V& x) { return x[0].permute({2, 0, 1}).sin() * 2; }},
      {"expand", {{3, 1}}, [](const V& x) { return x[0].expand({3, 4}).sin(); }},
      {"broadcast_add", {{3, 1}, {1, 5}}, [](const V& x) { return (x[0] + x[1]).sin(); }},
      {"broadcast_mul_rank", {{4, 5}, {5}}, [](const V& x) { return x[0] * x[1]; }},
      {"pad_zero", {{3, 4}}, [](const V& x) { return x[0].pad({{1, 2}, {0, 1}}).sin(); }},
      {"pad_value", {{3, 4}}, [](const V& x) { return x[0].pad({{0, 1}, {2, 0}}, 1.5) * x[0].sum(); }},
      {"shrink", {{5, 4}}, [](const V& x) { return x[0].shrink({{1, 4}, {0, 3}}).sin(); }},
      {"flip", {{3, 4}}, [](const V& x) { return x[0].flip({0, 1}) * x[0]; }},
      {"strided_slice", {{5, 3}},
       [](const V& x) { return x[0].slice({Slice(1, std::nullopt, 2), Slice::All()}).sin(); }},
      {"cat", {{2, 3}, {1, 3}}, [](const V& x) { return Tensor::Cat({x[0], x[1]}, 0).sin(); }},
      {"transpose_contiguous", {{3, 5}}, [](const V& x) { return x[0].T().contiguous() * 3; }},
      // ** reductions **
      {"sum_axis", {{3, 4, 5}}, [](const V& x) { return x[0].sum(1).sin(); }},
      {"sum_all", {{3, 5}}, [](const V& x) { return x[0].sin().sum(); }},
      {"sum_keepdim", {{3, 4, 5}}, [](const V& x) { return x[0].sum({0, 2}, true) * x[0]; }},
      {"max_axis", {{4, 5}}, [](const V& x) { return x[0].max(1); }},
      {"max_all", {{3, 5}}, [](const V& x) { return x[0].max() * x[0]; }},
      {"min_axis", {{4, 3}}, [](const V& x) { return x[0].min(0); }},
      {"prod", {{3, 4}}, [](const V& x) { return x[0].prod(0); }, 0.5, 1.5},
      {"mean_var", {{3, 5}}, [](const V& x) { return x[0].mean(1) + x[0].var(1); }},
      {"softmax", {{3, 5}}, [](const V& x) { return x[0].softmax(-1); }},
      {"log_softmax", {{3, 5}}, [](const V& x) { return x[0].log_softmax(0); }},
      {"logsumexp", {{4, 3}}, [](const V& x) { return x[0].logsumexp(1); }},
      {"cumsum", {{5}}, [](const V& x) { return x[0].cumsum(0).sin(); }},
      // ** elementwise **
      {"add", {{2, 3}, {2, 3}}, [](const V& x) { return (x[0] + x[1]) * x[0]; }},
      {"sub_neg", {{2, 3}, {2, 3}}, [](const V& x) { return (x[0] - x[1]) * -x[1]; }},
      {"mul", {{3, 4}, {3, 4}}, [](const V& x) { return x[0] * x[1]; }},
      {"div", {{3, 4}, {3, 4}}, [](const V& x) { return x[0] / x[1]; }, 0.5, 2},
      {"maximum", {{3, 4}, {3, 4}}, [](const V& x) { return x[0].maximum(x[1]); }},
      {"minimum_scalar", {{7}}, [](const V& x) { return x[0].minimum(0.25); }},
      {"where", {{3, 4}, {3, 4}}, [](const V& x) { return Bools({3, 4}).where(x[0], x[1]) * x[0]; }},
      {"where_scalar", {{5}}, [](const V& x) { return Bools({5}).where(x[0], 2.0); }},
      {"exp2", {{5}}, [](const V& x) { return x[0].exp2(); }},
      {"log2", {{5}}, [](const V& x) { return x[0].log2(); }, 0.5, 3},
      {"sin", {{5}}, [](const V& x) { return x[0].sin(); }},
      {"cos", {{5}}, [](const V& x) { return x[0].cos(); }},
      {"sqrt", {{5}}, [](const V& x) { return x[0].sqrt(); }, 0.5, 3},
      {"rsqrt", {{5}}, [](const V& x) { return x[0].rsqrt(); }, 0.5, 3},
      {"reciprocal", {{5}}, [](const V& x) { return x[0].reciprocal(); }, 0.5, 3},
      {"exp_log", {{5}}, [](const V& x) { return x[0].exp() + (x[0] * x[0] + 1).log(); }},
      {"pow_tensor", {{4}, {4}}, [](const V& x) { return x[0].pow(x[1]); }, 0.5, 2},
      {"pow_const", {{4}}, [](const V& x) { return x[0].pow(2.5); }, 0.5, 2},
      {"rpow", {{4}}, [](const V& x) { return x[0].pow(3.0, /*reverse=*/true); }},
      {"square_abs", {{6}}, [](const V& x) { return x[0].square() + x[0].abs(); }},
      {"activations", {{6}},
       [](const V& x) {
         return x[0].relu() + x[0].sigmoid() + x[0].tanh() + x[0].gelu() + x[0].silu() +
                x[0].leaky_relu(0.1) + x[0].softplus() + x[0].erf();
       }},
      {"clip", {{6}}, [](const V& x) { return x[0].clip(-0.5, 0.7); }},
      // float64 -> float32 -> float64 rounds to 2^-24 relative: a wider step and tolerance.
      {"cast", {{5}}, [](const V& x) { return x[0].cast(dtypes::float32).cast(dtypes::float64).sin(); },
       -2, 2, 1e-3, 1e-3},
      // ** linear algebra / nn **
      {"matmul", {{3, 4}, {4, 5}}, [](const V& x) { return x[0].matmul(x[1]); }},
      {"matmul_batched", {{2, 3, 4}, {4, 2}}, [](const V& x) { return x[0].matmul(x[1]); }},
      {"matmul_vector", {{3}, {3, 2}}, [](const V& x) { return x[0].matmul(x[1]); }},
      {"linear_relu", {{2, 3}, {3, 4}, {4}}, [](const V& x) { return x[0].linear(x[1], x[2]).relu(); }},
      {"conv2d", {{1, 2, 4, 5}, {2, 2, 3, 3}, {2}},
       [](const V& x) { return x[0].conv2d(x[1], x[2], {.stride = {2}, .padding = {1}}); }},
      {"conv2d_groups_dilation", {{1, 2, 5, 5}, {2, 1, 2, 2}},
       [](const V& x) { return x[0].conv2d(x[1], std::nullopt, {.groups = 2, .dilation = {2}}); }},
      {"max_pool2d", {{1, 1, 4, 5}}, [](const V& x) { return x[0].max_pool2d(); }},
      {"avg_pool2d", {{1, 2, 3, 5}}, [](const V& x) { return x[0].avg_pool2d({.kernel = {2, 3}, .padding = {1}}); }},
      {"layernorm", {{3, 5}}, [](const V& x) { return x[0].layernorm(); }},
  };
}

class FiniteDifferences : public testing::TestWithParam<FdCase> {};

TEST_P(FiniteDifferences, GradientMatches) { CheckAgainstFiniteDifferences(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Ops, FiniteDifferences, testing::ValuesIn(Cases()),
                         [](const testing::TestParamInfo<FdCase>& i) { return i.param.name; });

}  // namespace
}  // namespace tg
