// File: tests/e2e/kernel_count_test.cc
// Kernel counts across Tensor API -> scheduler -> engine: the number of kernels (SINK schedule
// items) CreateScheduleWithVars makes for a tensor must be tinygrad's at the reference commit,
// the engine must run exactly that many when realizing, and the results must be right (checked
// against naive loops).
//
// The expected counts come from the reference (tinygrad 35900290), queried with
//   PYTHONPATH=<tinygrad checkout> DEV=CPU python3 tests/e2e/ref_kernel_counts.py [--defaults]
// which counts len([si for si in Tensor.schedule(out) if si.ast.op.name == 'SINK']) for the
// same graphs with realized inputs. Its output at 35900290 (--defaults adds the workloads at
// their default sizes: matmul 1, conv2d 1, mlp 3, attention 8, resnet_block 2):
//   softmax_8x32 3, matmul_relu_16x32x8 1, conv2d_1x4x10x10_8x4x3x3 1, sum_4096x4096 3,
//   layernorm_8x32 3, center_8x32 2, log_softmax_4x32 3, var_6x10_axis1 2, cumsum_64 1,
//   argmax_5x7_axis1 2, max_pool2d_1x2x8x8 1, sum0_sum1_together 2, shared_contig_sum_max 3,
//   softmax_and_logsoftmax 4, zero_size_sum 0, scalar_mul_add 1, transpose_contig 1,
//   matmul_self_T 1, permute_sum 1, cat 1, pad_shrink 1, std 2, argmax_all 2, cumsum_then_max 1.
// The workloads' counts at small sizes are checked in workloads_test.cc, which realizes them.
// (tinygrad/tensor/kernel_count_test.cc counts kernels run for a few of these through
// Tensor::realize; here the count is the scheduler's own and is cross-checked with the engine.)
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/e2e/e2e_util.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using e2e::ExpectAllClose;
using e2e::RandomInput;
using e2e::ScheduledKernels;
using e2e::Values;

// Checks the scheduler's count for `t`, then realizes it and checks the engine ran as many
// kernels.
void ExpectKernels(const std::vector<Tensor>& ts, int64_t want, const std::string& what) {
  EXPECT_EQ(ScheduledKernels(ts), want) << what << ": kernels scheduled";
  int64_t before = GetEngineStats().kernel_count;
  absl::Status s = Realize(ts);
  ASSERT_TRUE(s.ok()) << what << ": " << s;
  EXPECT_EQ(GetEngineStats().kernel_count - before, want) << what << ": kernels run";
}
void ExpectKernels(const Tensor& t, int64_t want, const std::string& what) {
  ExpectKernels(std::vector<Tensor>{t}, want, what);
}

TEST(KernelCountE2E, SoftmaxLastAxis) {
  std::vector<double> x;
  Tensor t = RandomInput({8, 32}, 1, &x, -3, 3).softmax(-1);
  ExpectKernels(t, 3, "softmax");
  ExpectAllClose(Values(t), e2e::SoftmaxRows(x, 8, 32), 1e-6, 1e-5, "softmax");
}

TEST(KernelCountE2E, MatmulRelu) {
  std::vector<double> a, b;
  Tensor t = RandomInput({16, 32}, 2, &a).matmul(RandomInput({32, 8}, 3, &b)).relu();
  ExpectKernels(t, 1, "(a@b).relu()");
  std::vector<double> want = e2e::MatMul(a, b, 16, 32, 8);
  for (double& v : want) v = std::max(v, 0.0);
  ExpectAllClose(Values(t), want, 1e-5, 1e-5, "(a@b).relu()");
}

TEST(KernelCountE2E, Conv2d) {
  std::vector<double> x, w;
  Tensor t = RandomInput({1, 4, 10, 10}, 4, &x).conv2d(RandomInput({8, 4, 3, 3}, 5, &w));
  ExpectKernels(t, 1, "conv2d");
  ASSERT_EQ(t.shape(), (std::vector<int64_t>{1, 8, 8, 8}));
  ExpectAllClose(Values(t), e2e::Conv2d(x, w, 1, 4, 10, 10, 8, 3, 3, 0), 1e-5, 1e-5, "conv2d");
}

// 16M elements are past REDUCEOP_SPLIT_THRESHOLD: tinygrad splits the reduce into 3 kernels.
// (A sum of an unrealized Tensor::Ones folds to a constant with no kernel, in tinygrad too, so
// the ones are realized into a buffer first.)
TEST(KernelCountE2E, BigSumSplitsIntoThree) {
  Tensor ones = Tensor::Ones({4096, 4096}).contiguous();
  ASSERT_TRUE(ones.realize().ok());
  Tensor t = ones.sum();
  ExpectKernels(t, 3, "sum 4096x4096");
  absl::StatusOr<float> v = t.item<float>();
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, 16777216.0f);
}

TEST(KernelCountE2E, LayerNorm) {
  std::vector<double> x;
  Tensor t = RandomInput({8, 32}, 6, &x, -2, 2).layernorm();
  ExpectKernels(t, 3, "layernorm");
  ExpectAllClose(Values(t), e2e::LayerNormRows(x, 8, 32), 1e-5, 1e-4, "layernorm");
}

TEST(KernelCountE2E, SubtractRowMean) {
  std::vector<double> x;
  Tensor in = RandomInput({8, 32}, 7, &x);
  Tensor t = in - in.mean(1, /*keepdim=*/true);
  ExpectKernels(t, 2, "x - x.mean(1, keepdim)");
  std::vector<double> want(x.size());
  for (int r = 0; r < 8; ++r) {
    double mean = 0;
    for (int c = 0; c < 32; ++c) mean += x[r * 32 + c] / 32;
    for (int c = 0; c < 32; ++c) want[r * 32 + c] = x[r * 32 + c] - mean;
  }
  ExpectAllClose(Values(t), want, 1e-6, 1e-5, "x - x.mean(1, keepdim)");
}

TEST(KernelCountE2E, LogSoftmax) {
  std::vector<double> x;
  Tensor t = RandomInput({4, 32}, 8, &x, -3, 3).log_softmax(-1);
  ExpectKernels(t, 3, "log_softmax");
  std::vector<double> want = e2e::SoftmaxRows(x, 4, 32);
  for (double& v : want) v = std::log(v);
  ExpectAllClose(Values(t), want, 1e-5, 1e-5, "log_softmax");
}

TEST(KernelCountE2E, VarianceAlongAxis) {
  std::vector<double> x;
  Tensor t = RandomInput({6, 10}, 9, &x).var(1);
  ExpectKernels(t, 2, "var(1)");
  std::vector<double> want(6);
  for (int r = 0; r < 6; ++r) {
    double mean = 0, ss = 0;
    for (int c = 0; c < 10; ++c) mean += x[r * 10 + c] / 10;
    for (int c = 0; c < 10; ++c) ss += (x[r * 10 + c] - mean) * (x[r * 10 + c] - mean);
    want[r] = ss / 9;  // correction 1
  }
  ExpectAllClose(Values(t), want, 1e-6, 1e-5, "var(1)");
}

TEST(KernelCountE2E, Cumsum) {
  std::vector<double> x;
  Tensor t = RandomInput({64}, 10, &x).cumsum();
  ExpectKernels(t, 1, "cumsum");
  std::vector<double> want(64);
  double acc = 0;
  for (int i = 0; i < 64; ++i) want[i] = acc += x[i];
  ExpectAllClose(Values(t), want, 1e-5, 1e-5, "cumsum");
}

TEST(KernelCountE2E, Argmax) {
  std::vector<double> x;
  Tensor t = RandomInput({5, 7}, 11, &x).argmax(1);
  ExpectKernels(t, 2, "argmax(1)");
  std::vector<double> want(5);
  for (int r = 0; r < 5; ++r)
    want[r] = static_cast<double>(std::max_element(x.begin() + r * 7, x.begin() + r * 7 + 7) -
                                  (x.begin() + r * 7));
  ExpectAllClose(Values(t), want, 0, 0, "argmax(1)");
}

TEST(KernelCountE2E, MaxPool2d) {
  std::vector<double> x;
  Tensor t = RandomInput({1, 2, 8, 8}, 12, &x).max_pool2d();
  ExpectKernels(t, 1, "max_pool2d");
  std::vector<double> want;
  for (int c = 0; c < 2; ++c)
    for (int y = 0; y < 4; ++y)
      for (int z = 0; z < 4; ++z) {
        double m = -INFINITY;
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) m = std::max(m, x[(c * 8 + 2 * y + i) * 8 + 2 * z + j]);
        want.push_back(m);
      }
  ExpectAllClose(Values(t), want, 0, 0, "max_pool2d");
}

// ** several outputs in one schedule **

std::vector<double> RowSums(const std::vector<double>& x, int rows, int cols) {
  std::vector<double> r(rows, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) r[i] += x[i * cols + j];
  return r;
}

TEST(KernelCountE2E, TwoReductionsOfOneInput) {
  std::vector<double> x;
  Tensor in = RandomInput({6, 10}, 13, &x);
  Tensor s0 = in.sum(0), s1 = in.sum(1);
  ExpectKernels({s0, s1}, 2, "x.sum(0), x.sum(1)");
  std::vector<double> want0(10, 0.0);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 10; ++j) want0[j] += x[i * 10 + j];
  ExpectAllClose(Values(s0), want0, 1e-6, 1e-5, "sum(0)");
  ExpectAllClose(Values(s1), RowSums(x, 6, 10), 1e-6, 1e-5, "sum(1)");
}

TEST(KernelCountE2E, SharedContiguousIntermediate) {
  std::vector<double> x;
  Tensor a = (RandomInput({6, 10}, 14, &x) * 2).contiguous();
  Tensor sum = a.sum(), max = a.max();
  ExpectKernels({sum, max}, 3, "a.sum(), a.max() of a = (x*2).contiguous()");
  double want_sum = 0, want_max = -INFINITY;
  for (double v : x) want_sum += 2 * v, want_max = std::max(want_max, 2 * v);
  ExpectAllClose(Values(sum), {want_sum}, 1e-5, 1e-5, "sum");
  ExpectAllClose(Values(max), {want_max}, 0, 0, "max");
}

TEST(KernelCountE2E, SoftmaxAndLogSoftmaxTogether) {
  std::vector<double> x;
  Tensor in = RandomInput({6, 10}, 15, &x, -3, 3);
  Tensor sm = in.softmax(), lsm = in.log_softmax();
  ExpectKernels({sm, lsm}, 4, "softmax, log_softmax");
  std::vector<double> want = e2e::SoftmaxRows(x, 6, 10);
  ExpectAllClose(Values(sm), want, 1e-6, 1e-5, "softmax");
  for (double& v : want) v = std::log(v);
  ExpectAllClose(Values(lsm), want, 1e-5, 1e-5, "log_softmax");
}

// A reduce over an empty axis is a constant: no kernel.
TEST(KernelCountE2E, ZeroSizeSum) {
  Tensor t = Tensor::FromVector<float>(std::vector<float>{}, {3, 0}).sum(1);
  ExpectKernels(t, 0, "sum of (3, 0)");
  ExpectAllClose(Values(t), {0, 0, 0}, 0, 0, "sum of (3, 0)");
}

// ** movement ops fuse into their consumers **

TEST(KernelCountE2E, MovementAndElementwiseFuse) {
  std::vector<double> x8, x234, x44, x12;
  Tensor a = RandomInput({8, 8}, 16, &x8);
  Tensor t = a.T().contiguous();
  ExpectKernels(t, 1, "x.T.contiguous()");
  std::vector<double> want(64);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) want[j * 8 + i] = x8[i * 8 + j];
  ExpectAllClose(Values(t), want, 0, 0, "x.T.contiguous()");

  Tensor g = a.matmul(a.T());
  ExpectKernels(g, 1, "x @ x.T");
  ExpectAllClose(Values(g), e2e::MatMul(x8, want, 8, 8, 8), 1e-5, 1e-5, "x @ x.T");

  Tensor p = RandomInput({2, 3, 4}, 17, &x234).permute({2, 0, 1}).sum(2);  // (4, 2)
  ExpectKernels(p, 1, "permute(2, 0, 1).sum(2)");
  std::vector<double> pw(8, 0.0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) pw[k * 2 + i] += x234[(i * 3 + j) * 4 + k];
  ExpectAllClose(Values(p), pw, 1e-6, 1e-5, "permute(2, 0, 1).sum(2)");

  Tensor b = RandomInput({4, 4}, 18, &x44);
  Tensor c = b.cat({b * 2}, 0);
  ExpectKernels(c, 1, "cat(x, x * 2)");
  std::vector<double> cw = x44;
  for (double v : x44) cw.push_back(2 * v);
  ExpectAllClose(Values(c), cw, 0, 0, "cat(x, x * 2)");

  Tensor ps = RandomInput({12}, 19, &x12).pad({{2, 3}}).shrink({{1, 15}}) + 1;  // 14 elements
  ExpectKernels(ps, 1, "pad + shrink + 1");
  std::vector<double> psw;
  for (int i = 1; i < 15; ++i) psw.push_back((i >= 2 && i < 14 ? x12[i - 2] : 0.0) + 1);
  ExpectAllClose(Values(ps), psw, 1e-6, 1e-6, "pad + shrink + 1");
}

TEST(KernelCountE2E, ReductionChains) {
  std::vector<double> x, y, z, w;
  Tensor sd = RandomInput({4, 5}, 20, &x).stddev(1);
  ExpectKernels(sd, 2, "std(1)");
  std::vector<double> sdw(4);
  for (int r = 0; r < 4; ++r) {
    double mean = 0, ss = 0;
    for (int c = 0; c < 5; ++c) mean += x[r * 5 + c] / 5;
    for (int c = 0; c < 5; ++c) ss += (x[r * 5 + c] - mean) * (x[r * 5 + c] - mean);
    sdw[r] = std::sqrt(ss / 4);
  }
  ExpectAllClose(Values(sd), sdw, 1e-6, 1e-5, "std(1)");

  Tensor am = RandomInput({4, 5}, 21, &y).argmax();
  ExpectKernels(am, 2, "argmax()");
  ExpectAllClose(Values(am), {static_cast<double>(std::max_element(y.begin(), y.end()) - y.begin())},
                 0, 0, "argmax()");

  Tensor cm = RandomInput({10}, 22, &z).cumsum().max();
  ExpectKernels(cm, 1, "cumsum().max()");
  double acc = 0, best = -INFINITY;
  for (double v : z) best = std::max(best, acc += v);
  ExpectAllClose(Values(cm), {best}, 1e-6, 1e-5, "cumsum().max()");

  Tensor sa = RandomInput({16}, 23, &w) * 2 + 1;
  ExpectKernels(sa, 1, "x * 2 + 1");
  for (double& v : w) v = v * 2 + 1;
  ExpectAllClose(Values(sa), w, 1e-6, 1e-6, "x * 2 + 1");
}

}  // namespace
}  // namespace tg
