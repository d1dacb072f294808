// File: tinygrad/tensor/naive_test_util.h
// Test-only: an independent naive N-d array (plain loops over doubles) that numeric Tensor
// tests compare against, random inputs, and a closeness check. Nothing here uses the Tensor
// library's formulations, so a wrong formulation cannot hide in both.
#ifndef TINYGRAD_TENSOR_NAIVE_TEST_UTIL_H_
#define TINYGRAD_TENSOR_NAIVE_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::naive {

struct Nd {
  std::vector<int64_t> shape;
  std::vector<double> v;

  Nd() = default;
  Nd(std::vector<int64_t> s, double fill = 0) : shape(std::move(s)), v(Numel(shape), fill) {}
  static int64_t Numel(const std::vector<int64_t>& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
  }
  int64_t numel() const { return static_cast<int64_t>(v.size()); }
  std::vector<int64_t> Strides() const {
    std::vector<int64_t> st(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * shape[i + 1];
    return st;
  }
  std::vector<int64_t> Unravel(int64_t flat) const {
    std::vector<int64_t> idx(shape.size());
    for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
      idx[i] = shape[i] ? flat % shape[i] : 0;
      flat = shape[i] ? flat / shape[i] : 0;
    }
    return idx;
  }
  double& at(const std::vector<int64_t>& idx) {
    int64_t f = 0;
    for (size_t i = 0; i < idx.size(); ++i) f = f * shape[i] + idx[i];
    return v[f];
  }
  double at(const std::vector<int64_t>& idx) const { return const_cast<Nd*>(this)->at(idx); }
};

// Uniform values in [lo, hi), deterministic per seed; `integral` rounds them.
inline Nd Random(std::vector<int64_t> shape, uint32_t seed, double lo = -2, double hi = 2,
                 bool integral = false) {
  Nd r(std::move(shape));
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  for (double& x : r.v) x = integral ? std::floor(d(g)) : static_cast<float>(d(g));
  return r;
}

template <typename T = float>
Tensor ToTensor(const Nd& a) {
  std::vector<T> data;
  for (double x : a.v) data.push_back(static_cast<T>(x));
  return Tensor::FromVector<T>(data, a.shape);
}

Nd Map(const Nd& a, const std::function<double(double)>& f);
// numpy broadcasting of two arrays.
Nd Zip(const Nd& a, const Nd& b, const std::function<double(double, double)>& f);
// Reduces `axes` (all when empty) with `f` from `init`.
Nd Reduce(const Nd& a, std::vector<int64_t> axes, bool keepdim, double init,
          const std::function<double(double, double)>& f);
Nd Permute(const Nd& a, const std::vector<int64_t>& order);
// a[..., m, k] @ b[..., k, n] with broadcast batch dims (both at least 2-D).
Nd MatMul(const Nd& a, const Nd& b);
// NCHW conv with OIHW weight; pads (top, bottom, left, right).
Nd Conv2d(const Nd& x, const Nd& w, const Nd* bias, int64_t groups, int64_t sh, int64_t sw,
          int64_t dh, int64_t dw, int64_t pt, int64_t pb, int64_t pl, int64_t pr);
// NCHW pooling; `op` "max" or "avg" (avg divides by the window count inside the padded input
// when count_pad, else by the in-bounds count). Output size from ceil_mode like torch.
Nd Pool2d(const Nd& x, const std::string& op, int64_t k, int64_t s, int64_t p, bool ceil_mode,
          bool count_pad);

// Checks shape and values: |got - want| <= atol + rtol * |want|; NaNs must match NaNs and
// infinities must match exactly.
void ExpectClose(const Tensor& t, const Nd& want, double atol, double rtol,
                 const std::string& what = "");
std::vector<double> Values(const Tensor& t);  // to_vector<double>, failing the test on error

// The op histogram of t's graph as the golden files write it: "ADD:2,BUFFER:1,..." (op names
// sorted, counts over the toposort), to compare graphs with the reference's.
std::string OpHistogram(const Tensor& t);

}  // namespace tg::naive

#endif  // TINYGRAD_TENSOR_NAIVE_TEST_UTIL_H_
