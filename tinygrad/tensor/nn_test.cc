// File: tinygrad/tensor/nn_test.cc
// Numeric tests of matmul/conv2d/pooling/norms/attention against naive loops.
// Tolerances (stated per dtype): float32 dot products of length K: atol 1e-5 * K, rtol 1e-5;
// float16 inputs accumulate in float32 then round to half: rtol 2e-3; int32 matmul exact.
#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/naive_test_util.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using naive::ExpectClose;
using naive::Map;
using naive::MatMul;
using naive::Nd;
using naive::Random;
using naive::ToTensor;

TEST(NN, MatmulShapes) {
  struct C {
    std::vector<int64_t> a, b;
  };
  std::vector<C> cases = {{{1, 1}, {1, 1}},     {{3, 7}, {7, 33}},        {{33, 257}, {257, 3}},
                          {{2, 1, 3, 4}, {5, 4, 6}}, {{7, 1023}, {1023, 1}}};
  uint32_t seed = 30;
  for (const C& c : cases) {
    Nd a = Random(c.a, seed++), b = Random(c.b, seed++);
    double k = static_cast<double>(c.a.back());
    ExpectClose(ToTensor(a).matmul(ToTensor(b)), MatMul(a, b), 1e-5 * k, 1e-5, "matmul");
  }
  // vector @ matrix and vector . vector
  Nd v = Random({7}, 40), m = Random({7, 3}, 41);
  Nd v2 = v;
  v2.shape = {1, 7};
  Nd vm = MatMul(v2, m);
  vm.shape = {3};
  ExpectClose(ToTensor(v).matmul(ToTensor(m)), vm, 1e-5, 1e-5, "vec@mat");
  Nd vv(std::vector<int64_t>{});
  for (int i = 0; i < 7; ++i) vv.v[0] += v.v[i] * v.v[i];
  ExpectClose(ToTensor(v).dot(ToTensor(v)), vv, 1e-5, 1e-5, "dot");
  // Transposed (permuted view) operand.
  Nd bt = Random({33, 7}, 42);
  Nd a = Random({3, 7}, 43);
  ExpectClose(ToTensor(a).matmul(ToTensor(bt).T()), MatMul(a, naive::Permute(bt, {1, 0})), 1e-4, 1e-5, "a @ b.T");
  // int32: exact
  Nd ia = Random({4, 5}, 44, -50, 50, true), ib = Random({5, 3}, 45, -50, 50, true);
  ExpectClose(naive::ToTensor<int32_t>(ia).matmul(naive::ToTensor<int32_t>(ib)), MatMul(ia, ib), 0, 0, "int matmul");
  // float16 inputs
  Nd ha = Random({8, 16}, 46), hb = Random({16, 4}, 47);
  Tensor h = ToTensor(ha).cast(dtypes::float16).matmul(ToTensor(hb).cast(dtypes::float16));
  EXPECT_EQ(h.dtype(), dtypes::float16);
  ExpectClose(h, MatMul(ha, hb), 2e-2, 2e-3, "half matmul");
  // linear with bias: x @ w + b
  Nd bias = Random({33}, 48);
  Nd w = Random({7, 33}, 49);
  ExpectClose(ToTensor(a).linear(ToTensor(w), ToTensor(bias)),
              naive::Zip(MatMul(a, w), bias, [](double x, double y) { return x + y; }), 1e-4, 1e-5, "linear");
}

TEST(NN, Conv2d) {
  struct C {
    std::vector<int64_t> x, w;
    int64_t groups, sh, sw, dh, dw;
    std::vector<int64_t> padding;  // Conv2dOpts padding
    int64_t pt, pb, pl, pr;
    bool bias;
  };
  std::vector<C> cases = {
      {{1, 1, 5, 5}, {1, 1, 3, 3}, 1, 1, 1, 1, 1, {0}, 0, 0, 0, 0, false},
      {{2, 3, 9, 7}, {4, 3, 3, 2}, 1, 2, 1, 1, 1, {1}, 1, 1, 1, 1, true},
      {{1, 4, 8, 8}, {6, 2, 3, 3}, 2, 1, 2, 2, 1, {1, 2}, 1, 1, 2, 2, true},
      {{1, 2, 7, 7}, {2, 1, 3, 3}, 2, 2, 2, 1, 1, {0, 1, 2, 0}, 2, 0, 0, 1, false},  // flat (l, r, t, b)
      {{1, 1, 1, 1}, {3, 1, 1, 1}, 1, 1, 1, 1, 1, {0}, 0, 0, 0, 0, true},
  };
  uint32_t seed = 60;
  for (const C& c : cases) {
    Nd x = Random(c.x, seed++), w = Random(c.w, seed++), b = Random({c.w[0]}, seed++);
    Tensor r = ToTensor(x).conv2d(ToTensor(w), c.bias ? std::optional<Tensor>(ToTensor(b)) : std::nullopt,
                                  {.groups = c.groups, .stride = {c.sh, c.sw}, .dilation = {c.dh, c.dw}, .padding = c.padding});
    double k = static_cast<double>(c.w[1] * c.w[2] * c.w[3]);
    ExpectClose(r, naive::Conv2d(x, w, c.bias ? &b : nullptr, c.groups, c.sh, c.sw, c.dh, c.dw, c.pt, c.pb, c.pl, c.pr),
                1e-5 * k, 1e-5, "conv2d");
  }
}

TEST(NN, Pools) {
  struct C {
    std::vector<int64_t> x;
    int64_t k, s, p;
    bool ceil, count_pad;
  };
  std::vector<C> cases = {{{1, 2, 6, 6}, 2, 2, 0, false, true},
                          {{2, 1, 7, 7}, 3, 2, 1, false, true},
                          {{1, 1, 7, 7}, 3, 2, 1, true, true},
                          {{1, 1, 7, 7}, 3, 2, 1, true, false},
                          {{1, 1, 5, 5}, 2, 1, 0, false, true}};
  uint32_t seed = 80;
  for (const C& c : cases) {
    Nd x = Random(c.x, seed++);
    PoolOpts o{.kernel = {c.k}, .stride = {c.s}, .padding = {c.p}, .ceil_mode = c.ceil, .count_include_pad = c.count_pad};
    ExpectClose(ToTensor(x).max_pool2d(o), naive::Pool2d(x, "max", c.k, c.s, c.p, c.ceil, true), 0, 0, "max_pool2d");
    ExpectClose(ToTensor(x).avg_pool2d(o), naive::Pool2d(x, "avg", c.k, c.s, c.p, c.ceil, c.count_pad), 1e-6, 1e-5,
                "avg_pool2d");
  }
}

// Also a regression test: layernorm's variance REDUCE once lost its ranges in run_rangeify (a
// copy from a hash-map slot that the same insert had rehashed away), and bufferize.cc stopped on
// "index on wrong bufferize"; see RunRangeifyTest in schedule/indexing_test.cc.
TEST(NN, Norms) {
  Nd x = Random({3, 33}, 90);
  Nd mean = naive::Reduce(x, {1}, true, 0, [](double a, double b) { return a + b; });
  for (double& v : mean.v) v /= 33;
  Nd c = naive::Zip(x, mean, [](double a, double b) { return a - b; });
  Nd var = naive::Reduce(Map(c, [](double v) { return v * v; }), {1}, true, 0, [](double a, double b) { return a + b; });
  for (double& v : var.v) v = 1 / std::sqrt(v / 33 + 1e-5);
  ExpectClose(ToTensor(x).layernorm(), naive::Zip(c, var, [](double a, double b) { return a * b; }), 1e-5, 1e-5, "layernorm");
  Nd y = Random({2, 3, 5}, 91), w = Random({3}, 92), b = Random({3}, 93), m = Random({3}, 94),
     inv = Random({3}, 95, 0.5, 2);
  Nd want = y;
  for (int64_t q = 0; q < y.numel(); ++q) {
    int64_t ch = (q / 5) % 3;
    want.v[q] = (y.v[q] - m.v[ch]) * w.v[ch] * inv.v[ch] + b.v[ch];
  }
  ExpectClose(ToTensor(y).batchnorm(ToTensor(w), ToTensor(b), ToTensor(m), ToTensor(inv)), want, 1e-5, 1e-5, "batchnorm");
}

Nd Attention(const Nd& q, const Nd& k, const Nd& v, const Nd* mask, bool causal) {
  int64_t B = q.shape[0], L = q.shape[1], S = k.shape[1], D = q.shape[2], E = v.shape[2];
  Nd out({B, L, E});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < L; ++i) {
      std::vector<double> s(S);
      double mx = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < S; ++j) {
        double acc = 0;
        for (int64_t d = 0; d < D; ++d) acc += q.at({b, i, d}) * k.at({b, j, d});
        acc /= std::sqrt(static_cast<double>(D));
        if (causal && j > i) acc = -std::numeric_limits<double>::infinity();
        if (mask && mask->at({i, j}) == 0) acc = -std::numeric_limits<double>::infinity();
        s[j] = acc;
        mx = std::max(mx, acc);
      }
      double tot = 0;
      for (double& x : s) tot += (x = std::exp(x - mx));
      for (int64_t e = 0; e < E; ++e) {
        double acc = 0;
        for (int64_t j = 0; j < S; ++j) acc += s[j] / tot * v.at({b, j, e});
        out.at({b, i, e}) = acc;
      }
    }
  return out;
}

TEST(NN, ScaledDotProductAttention) {
  Nd q = Random({2, 5, 8}, 100), k = Random({2, 5, 8}, 101), v = Random({2, 5, 3}, 102);
  Tensor tq = ToTensor(q), tk = ToTensor(k), tv = ToTensor(v);
  ExpectClose(tq.scaled_dot_product_attention(tk, tv), Attention(q, k, v, nullptr, false), 1e-5, 1e-4, "sdpa");
  ExpectClose(tq.scaled_dot_product_attention(tk, tv, std::nullopt, true), Attention(q, k, v, nullptr, true), 1e-5, 1e-4,
              "sdpa causal");
  Nd mask = Random({5, 5}, 103, 0, 2, true);
  for (int64_t i = 0; i < 5; ++i) mask.at({i, 0}) = 1;  // every row keeps one key
  ExpectClose(tq.scaled_dot_product_attention(tk, tv, naive::ToTensor<bool>(mask)), Attention(q, k, v, &mask, false), 1e-5,
              1e-4, "sdpa mask");
}

}  // namespace
}  // namespace tg
