// File: tinygrad/tensor/linalg.cc
// Linear algebra built from tensor ops: qr, svd, newton_schulz.
// Port of tinygrad/tensor.py (35900290) Tensor.qr (Householder reflections), Tensor.svd (a qr,
// then one-sided Jacobi rotations on round-robin column pairs for the reference's fixed number
// of rounds, LAWN 169 p. 26) and Tensor.newton_schulz (the odd-polynomial iteration Muon uses).
//
// The reference writes its steps in place (setitem, which realizes each time); here every step
// builds a new lazy tensor from slices, cat and where instead, with the same arithmetic, so the
// values are the reference's and nothing runs until the results are read. The reference moves
// svd's column pairs next to each other with int index tensors and back; here each column is
// rotated where it stands, against a copy of its partner (U @ a 0/1 partner matrix, which moves
// values without rounding them), with the same pairs, rotations and round count.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;

namespace {

// Why `t` can't be factored by `op` (qr, svd), or ok.
absl::Status CheckMatrix(const std::string& op, const Tensor& t) {
  if (!t.ok()) return t.status();
  if (t.ndim() < 2)
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": expected two or more dimensions, got ", t.ndim()));
  if (absl::Status st = tensor_internal::NeedsIntShape(op, t); !st.ok()) return st;
  // The reference writes each step back in the input's dtype, so an int or bool matrix gives
  // meaningless factors there; refuse it instead.
  if (!dtypes::is_float(t.dtype()))
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": needs a float dtype, got ", t.dtype().repr()));
  return absl::OkStatus();
}

// An identity matrix of size n in t's dtype and device, expanded over `batch`.
Tensor BatchedEye(const Tensor& t, const std::vector<int64_t>& batch, int64_t n) {
  std::vector<int64_t> ones(batch.size(), 1), full = batch;
  ones.insert(ones.end(), {n, n});
  full.insert(full.end(), {n, n});
  return Tensor::Eye(n, std::nullopt, {.dtype = t.dtype(), .device = t.device()})
      .reshape(ones)
      .expand(full);
}

std::vector<int64_t> With(std::vector<int64_t> s, std::initializer_list<int64_t> tail) {
  s.insert(s.end(), tail);
  return s;
}

// svd's round-robin pairing, as the reference's permute tensor: in each round the column
// perm[j] pairs with perm[j + half] (an odd count leaves the last one out). Round 0 is
// 0, 1, ..., half - 1 followed by the rest reversed; NextPairing moves every column but one
// along the ring. The tensor is carried from round to round, as in the reference, so every
// round runs the same kernels.
Tensor FirstPairing(int64_t num, const std::string& device) {
  Tensor pos = Tensor::Arange(num, {.dtype = dtypes::int32, .device = device});
  return pos.lt(num / 2).where(pos, (num - 1 + num / 2) - pos).contiguous();
}
Tensor NextPairing(const Tensor& perm, int64_t num) {
  // odd: every entry minus 1 mod num; even: the first stays, the others minus 1 mod num - 1
  // (in 1..num-1).
  if (num % 2 == 1) return ((perm + (num - 1)) % num).contiguous();
  Tensor pos = Tensor::Arange(num, {.dtype = dtypes::int32, .device = perm.device()});
  return pos.eq(0).where(0, (perm + (num - 3)) % (num - 1) + 1).contiguous();
}

// A pairing as matrices for columns of dtype `dt`. partner: the (num, num) 0/1 matrix with
// U @ partner = each column's partner in its place (the column left out of an odd count is its
// own); left/right: (num,) bool, the columns that are the first/second of their pair.
struct Pairs {
  Tensor partner, left, right;
};
Pairs PairMatrices(const Tensor& perm, int64_t num, DType dt) {
  const int64_t half = num / 2;
  Tensor col = Tensor::Arange(num, {.dtype = dtypes::int32, .device = perm.device()})
                   .reshape({num, int64_t{1}});
  auto one_hot = [&](int64_t begin, int64_t end) {  // (num, end - begin): col == perm[j]
    return col.eq(perm.slice({Slice(begin, end)}).reshape({int64_t{1}, end - begin})).cast(dt);
  };
  Tensor a = one_hot(0, half), b = one_hot(half, 2 * half);
  Tensor partner = a.matmul(b.transpose()) + b.matmul(a.transpose());
  if (num % 2 == 1) {
    Tensor out = one_hot(num - 1, num);
    partner = partner + out.matmul(out.transpose());
  }
  return {partner, a.sum(-1).ne(0.0), b.sum(-1).ne(0.0)};
}

}  // namespace

std::pair<Tensor, Tensor> Tensor::qr() const {
  if (absl::Status st = CheckMatrix("qr", *this); !st.ok()) return {Error(st), Error(st)};
  std::vector<int64_t> s = shape();
  const int64_t m = s[s.size() - 2], n = s[s.size() - 1];
  const std::vector<int64_t> b(s.begin(), s.end() - 2);
  const std::vector<int64_t> b11 = With(b, {1, 1});
  Tensor r = *this;
  Tensor q = BatchedEye(*this, b, m);
  for (int64_t i = 0; i < std::min(m, n); ++i) {
    // The Householder vector w (w[0] = 1) and tau with (I - tau w w^T) x = s |x| e_0, for the
    // column x below the diagonal.
    Tensor x = r.slice({Ellipsis{}, Slice(i, m), Index{i}});
    Tensor norm = x.square().sum(-1).sqrt();
    Tensor x0 = x.slice({Ellipsis{}, Index{0}});
    Tensor sgn = x0.ne(0.0).where(-x0.sign(), -1.0);
    Tensor u1 = x0 - sgn * norm;
    Tensor nz = norm.ne(0.0);
    Tensor w = x.unsqueeze(-1) / nz.where(u1, 1.0).reshape(b11);
    Tensor first = Tensor::Arange(m - i, {.device = device()}).eq(0).reshape({m - i, int64_t{1}});
    w = first.where(1.0, w);
    Tensor tau = (-sgn * u1 / nz.where(norm, 1.0)).reshape(b11);
    tau = nz.reshape(b11).where(tau, 0.0);
    // Reflect rows i.. of R and columns i.. of Q.
    Tensor r_low = r.slice({Ellipsis{}, Slice(i, m), Slice()});
    r_low = r_low - (w * tau).matmul(w.transpose(-2, -1).matmul(r_low));
    r = i == 0 ? r_low : Cat({r.slice({Ellipsis{}, Slice(0, i), Slice()}), r_low}, -2);
    Tensor q_right = q.slice({Ellipsis{}, Slice(i, m)});
    q_right = q_right - q_right.matmul(w).matmul((tau * w).transpose(-2, -1));
    q = i == 0 ? q_right : Cat({q.slice({Ellipsis{}, Slice(0, i)}), q_right}, -1);
  }
  return {q, r};
}

std::tuple<Tensor, Tensor, Tensor> Tensor::svd(bool full_matrices) const {
  auto all_err = [](const absl::Status& st) {
    return std::tuple<Tensor, Tensor, Tensor>{Error(st), Error(st), Error(st)};
  };
  if (absl::Status st = CheckMatrix("svd", *this); !st.ok()) return all_err(st);
  std::vector<int64_t> shp = shape();
  const int64_t m = shp[shp.size() - 2], n = shp[shp.size() - 1];
  const std::vector<int64_t> b(shp.begin(), shp.end() - 2);
  const int64_t num = std::min(m, n), q_num = std::max(m, n);
  if (num < 2)
    return all_err(absl::InvalidArgumentError(absl::StrCat(
        "svd: needs at least 2 rows and 2 columns, got ", tensor_internal::ShapeStr(shp))));

  // Reduce to the square upper-triangular part of a qr of the taller orientation.
  auto [q, r] = m >= n ? qr() : transpose(-2, -1).qr();
  Tensor u = r.slice({Ellipsis{}, Slice(0, num), Slice(0, num)});
  Tensor v = BatchedEye(*this, b, num);

  const int64_t rounds = static_cast<int64_t>(num * std::log2(static_cast<double>(num)) * 2 + 2);
  Tensor perm = FirstPairing(num, device());
  for (int64_t round = 0; round < rounds; ++round) {
    Pairs pairs = PairMatrices(perm, num, dtype());
    Tensor u_p = u.matmul(pairs.partner), v_p = v.matmul(pairs.partner);
    // The rotation that makes each pair of columns of U orthogonal; each column gets its pair's
    // (c, s), the left one of the pair as alpha's column.
    Tensor norms = u.square().sum(-2, /*keepdim=*/true);
    Tensor norms_p = norms.matmul(pairs.partner);
    Tensor gamma = (u * u_p).sum(-2, /*keepdim=*/true);
    Tensor alpha = pairs.left.where(norms, norms_p), beta = pairs.left.where(norms_p, norms);
    Tensor rot = gamma.ne(0.0);
    Tensor tau = (beta - alpha) / (2.0 * rot.where(gamma, 1.0));
    Tensor t = tau.ne(0.0).where(tau.sign(), 1.0) / (tau.abs() + (1.0 + tau.square()).sqrt());
    t = rot.where(t, 0.0);
    Tensor c = 1.0 / (1.0 + t.square()).sqrt();
    Tensor sn = c * t;
    // left' = c left - s right, right' = s left + c right; the column left out stays.
    u = pairs.left.where(c * u - sn * u_p, pairs.right.where(sn * u_p + c * u, u)).contiguous();
    v = pairs.left.where(c * v - sn * v_p, pairs.right.where(sn * v_p + c * v, v)).contiguous();
    perm = NextPairing(perm, num);
  }

  // Singular values are the column norms of U; sort them, normalize U's columns.
  auto [sv, indices] = u.square().sum(-2).sqrt().sort(-1, /*descending=*/true);
  Tensor new_indices = indices.reshape(With(b, {1, num})).expand(With(b, {num, num}));
  u = u.gather(-1, new_indices) / sv.ne(0.0).where(sv, 1.0).unsqueeze(-2);
  v = v.gather(-1, new_indices);
  // U embedded in the top-left of a q_num identity, then taken back through the qr's Q.
  if (q_num > num) {
    std::vector<std::pair<SInt, SInt>> pads(b.size(), {SInt(0), SInt(0)});
    PadArg pad_u = pads, pad_eye = pads;
    pad_u.insert(pad_u.end(), {{0, q_num - num}, {0, q_num - num}});
    pad_eye.insert(pad_eye.end(), {{num, 0}, {num, 0}});
    u = u.pad(pad_u) + BatchedEye(*this, b, q_num - num).pad(pad_eye);
  }
  u = q.matmul(u);
  if (!full_matrices) {
    u = u.slice({Ellipsis{}, Slice(0, num)});
    v = v.slice({Ellipsis{}, Slice(0, num)});
  }
  if (m >= n) return {u, sv, v.transpose(-2, -1)};
  return {v, sv, u.transpose(-2, -1)};
}

Tensor Tensor::newton_schulz(int64_t steps, const std::vector<double>& params, double eps) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (ndim() < 2) return Err("newton_schulz", absl::StrCat("needs two or more dims, got ", ndim()));
  if (steps > 0 && params.empty()) return Err("newton_schulz", "params is empty");
  const std::vector<int64_t> s = shape();
  if (s[s.size() - 2] > s[s.size() - 1])
    return transpose(-2, -1).newton_schulz(steps, params, eps).transpose(-2, -1);
  Tensor g = *this / (square().sum({-2, -1}, /*keepdim=*/true).sqrt() + eps);
  for (int64_t step = 0; step < steps; ++step) {
    // Python's sum(p_i * (G G^T)^i G for i, p_i), which starts from the int 0.
    Tensor gg = g.matmul(g.transpose(-2, -1));
    Tensor total = (params[0] * g).add(int64_t{0}, /*reverse=*/true);
    Tensor term = g;
    for (size_t i = 1; i < params.size(); ++i) {
      term = gg.matmul(term);
      total = total + params[i] * term;
    }
    g = total;
  }
  return g;
}

}  // namespace tg
