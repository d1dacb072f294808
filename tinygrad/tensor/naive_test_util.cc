// File: tinygrad/tensor/naive_test_util.cc
// Test-only naive reference implementations (see naive_test_util.h).
#include "tinygrad/tensor/naive_test_util.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"

namespace tg::naive {

Nd Map(const Nd& a, const std::function<double(double)>& f) {
  Nd r = a;
  for (double& x : r.v) x = f(x);
  return r;
}

static int64_t Ravel(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  int64_t q = 0;
  for (size_t i = 0; i < shape.size(); ++i) q = q * shape[i] + (shape[i] == 1 ? 0 : idx[i]);
  return q;
}

Nd Zip(const Nd& a, const Nd& b, const std::function<double(double, double)>& f) {
  size_t n = std::max(a.shape.size(), b.shape.size());
  auto align = [&](const std::vector<int64_t>& s) {
    std::vector<int64_t> r(n - s.size(), 1);
    r.insert(r.end(), s.begin(), s.end());
    return r;
  };
  std::vector<int64_t> sa = align(a.shape), sb = align(b.shape), so(n);
  for (size_t i = 0; i < n; ++i) so[i] = sa[i] == 1 ? sb[i] : sa[i];
  Nd r(so);
  for (int64_t q = 0; q < r.numel(); ++q) {
    std::vector<int64_t> idx = r.Unravel(q);
    r.v[q] = f(a.v[Ravel(sa, idx)], b.v[Ravel(sb, idx)]);
  }
  return r;
}

Nd Reduce(const Nd& a, std::vector<int64_t> axes, bool keepdim, double init,
          const std::function<double(double, double)>& f) {
  int64_t nd = static_cast<int64_t>(a.shape.size());
  if (axes.empty())
    for (int64_t i = 0; i < nd; ++i) axes.push_back(i);
  for (int64_t& x : axes) x = x < 0 ? x + nd : x;
  std::vector<int64_t> ks = a.shape;
  for (int64_t x : axes) ks[x] = 1;
  Nd r(ks, init);
  for (int64_t q = 0; q < a.numel(); ++q) {
    std::vector<int64_t> idx = a.Unravel(q);
    for (int64_t x : axes) idx[x] = 0;
    double& o = r.at(idx);
    o = f(o, a.v[q]);
  }
  if (!keepdim) {
    std::vector<int64_t> s;
    for (int64_t i = 0; i < nd; ++i)
      if (std::find(axes.begin(), axes.end(), i) == axes.end()) s.push_back(a.shape[i]);
    r.shape = s;
  }
  return r;
}

Nd Permute(const Nd& a, const std::vector<int64_t>& order) {
  std::vector<int64_t> s;
  for (int64_t o : order) s.push_back(a.shape[o]);
  Nd r(s);
  for (int64_t q = 0; q < r.numel(); ++q) {
    std::vector<int64_t> idx = r.Unravel(q), src(order.size());
    for (size_t i = 0; i < order.size(); ++i) src[order[i]] = idx[i];
    r.v[q] = a.at(src);
  }
  return r;
}

Nd MatMul(const Nd& a, const Nd& b) {
  size_t n = std::max(a.shape.size(), b.shape.size());
  auto align = [&](const std::vector<int64_t>& s) {
    std::vector<int64_t> r(n - s.size(), 1);
    r.insert(r.end(), s.begin(), s.end());
    return r;
  };
  std::vector<int64_t> sa = align(a.shape), sb = align(b.shape), so(n);
  for (size_t i = 0; i + 2 < n; ++i) so[i] = sa[i] == 1 ? sb[i] : sa[i];
  int64_t M = sa[n - 2], K = sa[n - 1], N = sb[n - 1];
  so[n - 2] = M;
  so[n - 1] = N;
  Nd r(so);
  for (int64_t q = 0; q < r.numel(); ++q) {
    std::vector<int64_t> idx = r.Unravel(q), ia = idx, ib = idx;
    double acc = 0;
    for (int64_t k = 0; k < K; ++k) {
      ia[n - 1] = k;
      ib[n - 2] = k;
      ib[n - 1] = idx[n - 1];
      acc += a.v[Ravel(sa, ia)] * b.v[Ravel(sb, ib)];
    }
    r.v[q] = acc;
  }
  return r;
}

Nd Conv2d(const Nd& x, const Nd& w, const Nd* bias, int64_t groups, int64_t sh, int64_t sw,
          int64_t dh, int64_t dw, int64_t pt, int64_t pb, int64_t pl, int64_t pr) {
  int64_t B = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  int64_t O = w.shape[0], CI = w.shape[1], KH = w.shape[2], KW = w.shape[3];
  int64_t OH = (H + pt + pb - dh * (KH - 1) - 1) / sh + 1, OW = (W + pl + pr - dw * (KW - 1) - 1) / sw + 1;
  (void)C;
  Nd r({B, O, OH, OW});
  int64_t opg = O / groups;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = bias ? bias->v[o] : 0;
          int64_t g = o / opg;
          for (int64_t ci = 0; ci < CI; ++ci)
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw) {
                int64_t ih = oh * sh + kh * dh - pt, iw = ow * sw + kw * dw - pl;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                acc += x.at({b, g * CI + ci, ih, iw}) * w.at({o, ci, kh, kw});
              }
          r.at({b, o, oh, ow}) = acc;
        }
  return r;
}

Nd Pool2d(const Nd& x, const std::string& op, int64_t k, int64_t s, int64_t p, bool ceil_mode,
          bool count_pad) {
  int64_t B = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  auto out = [&](int64_t n) {
    int64_t num = n + 2 * p - k;
    int64_t o = (ceil_mode ? (num + s - 1) / s : num / s) + 1;
    if (ceil_mode && (o - 1) * s >= n + p) --o;  // last window must start inside input+left pad
    return o;
  };
  int64_t OH = out(H), OW = out(W);
  Nd r({B, C, OH, OW});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double acc = op == "max" ? -std::numeric_limits<double>::infinity() : 0;
          int64_t cnt = 0;
          for (int64_t kh = 0; kh < k; ++kh)
            for (int64_t kw = 0; kw < k; ++kw) {
              int64_t ih = oh * s + kh - p, iw = ow * s + kw - p;
              bool in_pad = ih < H + p && iw < W + p;  // inside the (symmetric) padded input
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) {
                if (count_pad && in_pad) ++cnt;
                continue;
              }
              ++cnt;
              double v = x.at({b, c, ih, iw});
              acc = op == "max" ? std::max(acc, v) : acc + v;
            }
          r.at({b, c, oh, ow}) = op == "max" ? acc : acc / cnt;
        }
  return r;
}

std::vector<double> Values(const Tensor& t) {
  absl::StatusOr<std::vector<double>> v = t.to_vector<double>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<double>();
}

void ExpectClose(const Tensor& t, const Nd& want, double atol, double rtol, const std::string& what) {
  ASSERT_TRUE(t.ok()) << what << ": " << t.status();
  ASSERT_EQ(t.shape(), want.shape) << what;
  std::vector<double> got = Values(t);
  ASSERT_EQ(got.size(), want.v.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < got.size() && bad < 5; ++i) {
    double g = got[i], w = want.v[i];
    bool ok = std::isnan(w) ? std::isnan(g)
              : std::isinf(w) ? g == w
                              : std::abs(g - w) <= atol + rtol * std::abs(w);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << what << " [" << i << "]: got " << g << ", want " << w;
    }
  }
}

std::string OpHistogram(const Tensor& t) {
  std::map<std::string, int> h;
  for (const UOp& u : t.uop().toposort()) ++h[std::string(OpName(u.op()))];
  std::vector<std::string> parts;
  for (const auto& [k, v] : h) parts.push_back(k + ":" + std::to_string(v));
  return absl::StrJoin(parts, ",");
}

}  // namespace tg::naive
