// File: tests/e2e/workloads_test.cc
// Every built-in workload (tinygrad/workloads) at small sizes, end to end: realize its random
// inputs, read them back, check the scheduler makes tinygrad's number of kernels for the output,
// realize it and compare with an independent naive C++ implementation of the model (plain
// loops over doubles, written from the workload's documented definition).
//
// Kernel counts: tinygrad 35900290 on the same graphs at the same sizes, from
//   PYTHONPATH=<tinygrad checkout> DEV=CPU python3 tests/e2e/ref_kernel_counts.py
// ("workload_small" lines: matmul 1, conv2d 1, mlp 3, attention 8, resnet_block 2).
//
// Tolerances: inputs are float32, the references accumulate in double, outputs are O(1); float32
// accumulation over at most a few hundred terms stays within atol 1e-5 + rtol 1e-4.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/e2e/e2e_util.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/workloads/workloads.h"

namespace tg {
namespace {

using e2e::ExpectAllClose;
using e2e::ScheduledKernels;
using e2e::Values;
using Vec = std::vector<double>;

constexpr double kAtol = 1e-5;
constexpr double kRtol = 1e-4;

// A workload built at `overrides` over its defaults, with its inputs realized and read back.
struct Built {
  WorkloadParams p;
  WorkloadGraph g;
  std::vector<Vec> in;
};

Built Build(const char* name, const WorkloadParams& overrides) {
  Built b;
  const Workload* w = FindWorkload(name);
  EXPECT_NE(w, nullptr) << name;
  if (w == nullptr) return b;
  b.p = w->Defaults();
  for (const auto& [k, v] : overrides) {
    EXPECT_TRUE(b.p.contains(k)) << name << " has no parameter " << k;
    b.p[k] = v;
  }
  b.g = w->build(b.p);
  absl::Status s = Realize(b.g.inputs);
  EXPECT_TRUE(s.ok()) << name << ": realizing the inputs: " << s;
  for (const Tensor& t : b.g.inputs) b.in.push_back(Values(t));
  return b;
}

// Checks the output's kernel count and shape, realizes it and returns its values.
Vec Output(const Built& b, int64_t kernels, const std::vector<int64_t>& shape) {
  EXPECT_EQ(b.g.outputs.size(), 1u);
  if (b.g.outputs.size() != 1) return {};
  const Tensor& out = b.g.outputs[0];
  EXPECT_EQ(out.shape(), shape);
  EXPECT_EQ(ScheduledKernels(out), kernels) << "kernels scheduled (tinygrad makes " << kernels << ")";
  int64_t before = GetEngineStats().kernel_count;
  Vec v = Values(out);
  EXPECT_EQ(GetEngineStats().kernel_count - before, kernels) << "kernels run";
  return v;
}

Vec Transpose(const Vec& a, int64_t rows, int64_t cols) {
  Vec t(a.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
  return t;
}

// x (rows, in) @ w.T + bias, w (out, in): a linear layer as the workloads write it.
Vec Linear(const Vec& x, const Vec& w, const Vec& bias, int64_t rows, int64_t in, int64_t out) {
  Vec y = e2e::MatMul(x, Transpose(w, out, in), rows, in, out);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < out; ++j) y[i * out + j] += bias[j];
  return y;
}

Vec Relu(Vec v) {
  for (double& x : v) x = std::max(x, 0.0);
  return v;
}

TEST(WorkloadsE2E, EveryWorkloadHasATest) {
  std::vector<std::string> names;
  for (const Workload& w : Workloads()) names.push_back(std::string(w.name));
  EXPECT_EQ(names, (std::vector<std::string>{"matmul", "matmul_packed_b", "bmm", "conv2d", "mlp", "attention", "resnet_block",
                                             "train_mlp", "train_cnn", "sum", "rowsum", "softmax"}))
      << "a new workload needs a test here";
}

void CheckMatmul() {
  const int64_t m = 5, n = 7, k = 9;  // distinct sizes catch transposed operands
  Built b = Build("matmul", {{"m", m}, {"n", n}, {"k", k}});
  ASSERT_EQ(b.in.size(), 2u);
  ExpectAllClose(Output(b, 1, {m, n}), e2e::MatMul(b.in[0], b.in[1], m, k, n), kAtol, kRtol,
                 "matmul");
}

// B given as panels Bp[j / nr, k, j % nr]: the same product as with B itself; an nr that does
// not divide n is an errored output.
TEST(WorkloadsE2E, MatmulPackedB) {
  const int64_t m = 5, n = 8, k = 9, nr = 4;
  Built b = Build("matmul_packed_b", {{"m", m}, {"n", n}, {"k", k}, {"nr", nr}});
  ASSERT_EQ(b.in.size(), 2u);
  Vec unpacked(k * n);
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t j = 0; j < n; ++j) unpacked[kk * n + j] = b.in[1][(j / nr) * k * nr + kk * nr + j % nr];
  ExpectAllClose(Output(b, 1, {m, n}), e2e::MatMul(b.in[0], unpacked, m, k, n), kAtol, kRtol, "matmul_packed_b");
  WorkloadGraph bad = FindWorkload("matmul_packed_b")->build({{"n", 6}, {"nr", 4}});
  ASSERT_EQ(bad.outputs.size(), 1u);
  EXPECT_FALSE(bad.outputs[0].ok());
}

TEST(WorkloadsE2E, BatchedMatmul) {
  const int64_t batch = 3, m = 5, n = 7, k = 9;
  Built b = Build("bmm", {{"batch", batch}, {"m", m}, {"n", n}, {"k", k}});
  ASSERT_EQ(b.in.size(), 2u);
  Vec want;
  for (int64_t i = 0; i < batch; ++i) {
    Vec a(b.in[0].begin() + i * m * k, b.in[0].begin() + (i + 1) * m * k);
    Vec bb(b.in[1].begin() + i * k * n, b.in[1].begin() + (i + 1) * k * n);
    Vec c = e2e::MatMul(a, bb, m, k, n);
    want.insert(want.end(), c.begin(), c.end());
  }
  ExpectAllClose(Output(b, 1, {batch, m, n}), want, kAtol, kRtol, "bmm");
}

void CheckConv2d() {
  const int64_t batch = 2, cin = 3, cout = 4, size = 6, kernel = 3;
  Built b = Build("conv2d",
                  {{"batch", batch}, {"cin", cin}, {"cout", cout}, {"size", size}, {"kernel", kernel}});
  ASSERT_EQ(b.in.size(), 2u);
  Vec want = e2e::Conv2d(b.in[0], b.in[1], batch, cin, size, size, cout, kernel, kernel, kernel / 2);
  ExpectAllClose(Output(b, 1, {batch, cout, size, size}), want, kAtol, kRtol, "conv2d");
}

TEST(WorkloadsE2E, Mlp) {
  const int64_t batch = 4, in = 16, hidden = 8, out = 3;
  Built b = Build("mlp", {{"batch", batch}, {"in", in}, {"hidden", hidden}, {"out", out}});
  ASSERT_EQ(b.in.size(), 7u);  // x, w1, b1, w2, b2, w3, b3
  const std::vector<Vec>& v = b.in;
  Vec h = Relu(Linear(v[0], v[1], v[2], batch, in, hidden));
  h = Relu(Linear(h, v[3], v[4], batch, hidden, hidden));
  ExpectAllClose(Output(b, 3, {batch, out}), Linear(h, v[5], v[6], batch, hidden, out), kAtol,
                 kRtol, "mlp");
}

// x + (causal multi-head SDPA of layernorm(x) @ wqkv split into q, k, v) @ wo.
void CheckAttention() {
  const int64_t batch = 2, seq = 8, dim = 16, heads = 2, hd = dim / heads;
  Built b = Build("attention", {{"batch", batch}, {"seq", seq}, {"dim", dim}, {"heads", heads}});
  ASSERT_EQ(b.in.size(), 3u);  // x, wqkv, wo
  const Vec &x = b.in[0], &wqkv = b.in[1], &wo = b.in[2];
  const int64_t rows = batch * seq;
  Vec qkv = e2e::MatMul(e2e::LayerNormRows(x, rows, dim), wqkv, rows, dim, 3 * dim);
  auto at = [&](int64_t bi, int64_t t, int64_t part, int64_t h, int64_t e) {
    return qkv[(bi * seq + t) * 3 * dim + part * dim + h * hd + e];
  };
  Vec att(rows * dim, 0.0);
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < seq; ++i) {
        Vec score(i + 1);  // causal: keys 0..i
        for (int64_t j = 0; j <= i; ++j) {
          double s = 0;
          for (int64_t e = 0; e < hd; ++e) s += at(bi, i, 0, h, e) * at(bi, j, 1, h, e);
          score[j] = s / std::sqrt(static_cast<double>(hd));
        }
        Vec p = e2e::SoftmaxRows(score, 1, i + 1);
        for (int64_t e = 0; e < hd; ++e) {
          double acc = 0;
          for (int64_t j = 0; j <= i; ++j) acc += p[j] * at(bi, j, 2, h, e);
          att[(bi * seq + i) * dim + h * hd + e] = acc;
        }
      }
  Vec want = e2e::MatMul(att, wo, rows, dim, dim);
  for (size_t i = 0; i < want.size(); ++i) want[i] += x[i];
  ExpectAllClose(Output(b, 8, {batch, seq, dim}), want, kAtol, kRtol, "attention");
}

// relu(bn2(conv(relu(bn1(conv(x, w1))), w2)) + x) with tinygrad's inference batchnorm
// ((x - mean) * weight * invstd + bias); the workload's weight and invstd are ones and its
// bias zeros, its means are inputs.
TEST(WorkloadsE2E, ResnetBlock) {
  const int64_t batch = 1, c = 4, size = 6, plane = size * size;
  Built b = Build("resnet_block", {{"batch", batch}, {"channels", c}, {"size", size}});
  ASSERT_EQ(b.in.size(), 5u);  // x, w1, w2, m1, m2
  const Vec &x = b.in[0], &w1 = b.in[1], &w2 = b.in[2], &m1 = b.in[3], &m2 = b.in[4];
  auto bn = [&](Vec h, const Vec& mean) {
    for (int64_t i = 0; i < static_cast<int64_t>(h.size()); ++i)
      h[i] = (h[i] - mean[(i / plane) % c]) * 1.0 * 1.0 + 0.0;
    return h;
  };
  Vec h = Relu(bn(e2e::Conv2d(x, w1, batch, c, size, size, c, 3, 3, 1), m1));
  h = bn(e2e::Conv2d(h, w2, batch, c, size, size, c, 3, 3, 1), m2);
  for (size_t i = 0; i < h.size(); ++i) h[i] += x[i];
  ExpectAllClose(Output(b, 2, {batch, c, size, size}), Relu(h), kAtol, kRtol, "resnet_block");
}

TEST(WorkloadsE2E, Sum) {
  Built b = Build("sum", {{"n", 1001}});
  double want = 0;
  for (double v : b.in[0]) want += v;
  ExpectAllClose(Output(b, 1, {}), {want}, 1e-3, kRtol, "sum");
}

TEST(WorkloadsE2E, RowSum) {
  const int64_t rows = 7, cols = 33;
  Built b = Build("rowsum", {{"rows", rows}, {"cols", cols}});
  Vec want(rows, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) want[r] += b.in[0][r * cols + c];
  ExpectAllClose(Output(b, 1, {rows}), want, kAtol, kRtol, "rowsum");
}

TEST(WorkloadsE2E, Softmax) {
  const int64_t rows = 5, cols = 17;
  Built b = Build("softmax", {{"rows", rows}, {"cols", cols}});
  Vec want(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -1e30, sum = 0;
    for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, b.in[0][r * cols + c]);
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(b.in[0][r * cols + c] - mx);
    for (int64_t c = 0; c < cols; ++c) want[r * cols + c] = std::exp(b.in[0][r * cols + c] - mx) / sum;
  }
  ExpectAllClose(Output(b, 3, {rows, cols}), want, kAtol, kRtol, "softmax");
}

// A training step's loss (sparse categorical cross entropy, the mean over the batch) from its
// logits (batch, out), and the gradient of the last layer's bias, mean(softmax - one_hot).
struct LossAndBiasGrad {
  double loss = 0;
  Vec grad_bias;
};
LossAndBiasGrad CrossEntropy(const Vec& logits, const Vec& labels, int64_t batch, int64_t out) {
  LossAndBiasGrad r{0, Vec(out, 0.0)};
  for (int64_t i = 0; i < batch; ++i) {
    const double* row = &logits[i * out];
    double mx = *std::max_element(row, row + out), sum = 0;
    for (int64_t j = 0; j < out; ++j) sum += std::exp(row[j] - mx);
    const int64_t label = static_cast<int64_t>(labels[i]);
    r.loss -= (row[label] - mx - std::log(sum)) / batch;
    for (int64_t j = 0; j < out; ++j) r.grad_bias[j] += (std::exp(row[j] - mx) / sum - (j == label)) / batch;
  }
  return r;
}

// Checks a training workload's outputs after one step (the optimizer's state, the parameters,
// then the loss): the loss, and Adam's first update of the last bias (the last parameter),
// lr * g / (|g| + eps) = 1e-3 * sign(g) (the bias corrections cancel on step 1; its gradient
// has no zero entries).
void CheckTrainStep(const Built& b, const std::string& what, const LossAndBiasGrad& want, int64_t params) {
  ASSERT_TRUE(Realize(b.g.outputs).ok());
  const size_t n = b.g.outputs.size();
  ASSERT_GE(n, static_cast<size_t>(params + 1));
  ExpectAllClose(Values(b.g.outputs[n - 1]), {want.loss}, kAtol, kRtol, what + " loss");
  Vec bias = b.in[static_cast<size_t>(1 + params)];  // the last parameter's input
  for (size_t j = 0; j < bias.size(); ++j) bias[j] -= 1e-3 * (want.grad_bias[j] > 0 ? 1 : -1);
  ExpectAllClose(Values(b.g.outputs[n - 2]), bias, kAtol, kRtol, what + " last bias after the step");
  for (int64_t k = 0; k < params; ++k)  // the updated parameters, in the inputs' order
    EXPECT_EQ(b.g.outputs[n - 1 - params + k].shape(), b.g.inputs[2 + k].shape()) << what << " parameter " << k;
}

TEST(WorkloadsE2E, TrainMlp) {
  const int64_t batch = 4, in = 6, hidden = 5, out = 3;
  Built b = Build("train_mlp", {{"batch", batch}, {"in", in}, {"hidden", hidden}, {"out", out}});
  // x, y, w1, b1, w2, b2, the parameters the step updates (4), Adam's step counters (2) and moments (8)
  ASSERT_EQ(b.in.size(), 20u);
  const std::vector<Vec>& v = b.in;
  Vec logits = Linear(Relu(Linear(v[0], v[2], v[3], batch, in, hidden)), v[4], v[5], batch, hidden, out);
  CheckTrainStep(b, "train_mlp", CrossEntropy(logits, v[1], batch, out), 4);
}

// A 3x3 convolution without padding, x (n, cin, size, size), w (cout, cin, 3, 3), bias (cout).
Vec Conv3x3(const Vec& x, const Vec& w, const Vec& bias, int64_t n, int64_t cin, int64_t cout, int64_t size) {
  const int64_t o = size - 2;
  Vec y(n * cout * o * o);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t co = 0; co < cout; ++co)
      for (int64_t i = 0; i < o; ++i)
        for (int64_t j = 0; j < o; ++j) {
          double acc = bias[co];
          for (int64_t ci = 0; ci < cin; ++ci)
            for (int64_t di = 0; di < 3; ++di)
              for (int64_t dj = 0; dj < 3; ++dj)
                acc += x[((b * cin + ci) * size + i + di) * size + j + dj] * w[((co * cin + ci) * 3 + di) * 3 + dj];
          y[((b * cout + co) * o + i) * o + j] = acc;
        }
  return y;
}

// 2x2 max pooling with stride 2 of (planes, size, size), an odd last row/column dropped.
Vec MaxPool2(const Vec& x, int64_t planes, int64_t size) {
  const int64_t o = size / 2;
  Vec y(planes * o * o);
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < o; ++i)
      for (int64_t j = 0; j < o; ++j) {
        const double* at = &x[(p * size + 2 * i) * size + 2 * j];
        y[(p * o + i) * o + j] = std::max({at[0], at[1], at[size], at[size + 1]});
      }
  return y;
}

// tg train's CNN at small sizes; 15x15 images pool to 6x6 (dropping a row), then to 2x2.
TEST(WorkloadsE2E, TrainCnn) {
  const int64_t batch = 3, size = 15, c1 = 2, c2 = 3, hidden = 4, out = 3;
  Built b = Build("train_cnn",
                  {{"batch", batch}, {"size", size}, {"c1", c1}, {"c2", c2}, {"hidden", hidden}, {"out", out}});
  // x, y, conv1 w and b, conv2 w and b, linear1 w and b, linear2 w and b, the parameters the
  // step updates (8), Adam's step counters (2) and moments (16)
  ASSERT_EQ(b.in.size(), 36u);
  const std::vector<Vec>& v = b.in;
  Vec h = MaxPool2(Relu(Conv3x3(v[0], v[2], v[3], batch, 1, c1, size)), batch * c1, size - 2);  // 6x6
  h = MaxPool2(Relu(Conv3x3(h, v[4], v[5], batch, c1, c2, 6)), batch * c2, 4);                  // 2x2
  Vec logits = Linear(Relu(Linear(h, v[6], v[7], batch, c2 * 4, hidden)), v[8], v[9], batch, hidden, out);
  CheckTrainStep(b, "train_cnn", CrossEntropy(logits, v[1], batch, out), 8);
}

TEST(WorkloadsE2E, TrainCnnImagesTooSmall) {
  const Workload* w = FindWorkload("train_cnn");
  ASSERT_NE(w, nullptr);
  WorkloadGraph g = w->build({{"size", 9}});
  ASSERT_FALSE(g.outputs.empty());
  EXPECT_EQ(g.outputs[0].status().message(), "train_cnn: size must be >= 10 (two 3x3 convs and pools), got 9");
}

TEST(WorkloadsE2E, Matmul) { CheckMatmul(); }
TEST(WorkloadsE2E, Conv2d) { CheckConv2d(); }
TEST(WorkloadsE2E, Attention) { CheckAttention(); }

// NOOPT=1: the same kernels without hand-coded opts (no upcasts/unrolls, plain loops) must give
// the same values; the scheduler's kernels do not depend on it.
Config Noopt() {
  Config c = GetConfig();
  c.noopt = true;
  return c;
}
TEST(WorkloadsE2E, MatmulNoopt) {
  ScopedConfig noopt(Noopt());
  CheckMatmul();
}
TEST(WorkloadsE2E, Conv2dNoopt) {
  ScopedConfig noopt(Noopt());
  CheckConv2d();
}
TEST(WorkloadsE2E, AttentionNoopt) {
  ScopedConfig noopt(Noopt());
  CheckAttention();
}

}  // namespace
}  // namespace tg
