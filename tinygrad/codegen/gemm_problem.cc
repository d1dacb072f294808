// File: tinygrad/codegen/gemm_problem.cc
// MatchGemm reads the kernel AST the scheduler makes for `a @ b`:
//   SINK(END(STORE(INDEX(out, m*N + n), CAST?(REDUCE(CAST?(MUL(INDEX(a, m*K + k),
//                                                               INDEX(b, k*N + n))), k, ADD))), m,
//                                                               n))
// Index expressions are checked as affine functions of the three ranges by evaluating them at
// the origin and at a unit step of each range (and at one more point, so that products of ranges
// are not mistaken for sums); anything else about the kernel is a reason to say no.
#include "tinygrad/codegen/gemm_problem.h"

#include <algorithm>
#include <array>
#include <optional>

namespace tg {
namespace {

// The value of an index expression of ADD/MUL/CONST over `ranges` at the given range values.
std::optional<int64_t> Eval(const UOp& u, const std::array<UOp, 3>& ranges,
                            const std::array<int64_t, 3>& at) {
  for (int i = 0; i < 3; ++i)
    if (u == ranges[i]) return at[i];
  switch (u.op()) {
    case Ops::CONST:
      if (!u.arg().is_number() || !dtypes::is_int(u.dtype())) return std::nullopt;
      return u.arg().int64();
    case Ops::ADD:
    case Ops::MUL: {
      if (u.src().size() != 2) return std::nullopt;
      std::optional<int64_t> x = Eval(u.src(0), ranges, at), y = Eval(u.src(1), ranges, at);
      if (!x || !y) return std::nullopt;
      return u.op() == Ops::ADD ? *x + *y : *x * *y;
    }
    default:
      return std::nullopt;
  }
}

// Whether `index` is exactly c[0]*m + c[1]*n + c[2]*k over ranges (m, n, k).
bool IsAffine(const UOp& index, const std::array<UOp, 3>& ranges, const std::array<int64_t, 3>& c) {
  const std::array<std::array<int64_t, 3>, 5> points = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {3, 5, 7}}};
  for (const auto& p : points) {
    std::optional<int64_t> v = Eval(index, ranges, p);
    if (!v || *v != c[0] * p[0] + c[1] * p[1] + c[2] * p[2]) return false;
  }
  return true;
}

// A range's constant size, or 0.
int64_t RangeSize(const UOp& r) {
  if (r.op() != Ops::RANGE || r.src().empty() || r.src(0).op() != Ops::CONST ||
      !r.src(0).arg().is_number())
    return 0;
  return r.src(0).arg().int64();
}

// INDEX(DEFINE_GLOBAL slot, expr) read as a value: the slot, or -1.
int64_t ReadSlot(const UOp& u) {
  if (u.op() != Ops::INDEX || u.src().size() != 2 || u.dtype().is_ptr() ||
      u.src(0).op() != Ops::DEFINE_GLOBAL)
    return -1;
  return u.src(0).arg().int64();
}

const UOp& SkipCast(const UOp& u) { return u.op() == Ops::CAST ? u.src(0) : u; }

}  // namespace

std::optional<GemmProblem> MatchGemm(const UOp& ast) {
  if (!ast || ast.op() != Ops::SINK || ast.src().size() != 1) return std::nullopt;
  const UOp& end = ast.src(0);
  if (end.op() != Ops::END || end.src().size() != 3 || end.src(0).op() != Ops::STORE)
    return std::nullopt;
  const UOp& store = end.src(0);
  if (store.src().size() != 2) return std::nullopt;
  const UOp& out_index = store.src(0);
  if (out_index.op() != Ops::INDEX || out_index.src().size() != 2 ||
      out_index.src(0).op() != Ops::DEFINE_GLOBAL)
    return std::nullopt;
  const UOp& reduce = SkipCast(store.src(1));
  if (reduce.op() != Ops::REDUCE || reduce.src().size() != 2 || !reduce.arg().is_ops() ||
      reduce.arg().ops() != Ops::ADD)
    return std::nullopt;
  const UOp& mul = SkipCast(reduce.src(0));
  if (mul.op() != Ops::MUL || mul.src().size() != 2) return std::nullopt;
  const UOp& x = SkipCast(mul.src(0));
  const UOp& y = SkipCast(mul.src(1));
  const std::array<UOp, 3> ranges = {end.src(1), end.src(2), reduce.src(1)};
  GemmProblem p;
  p.m = RangeSize(ranges[0]);
  p.n = RangeSize(ranges[1]);
  p.k = RangeSize(ranges[2]);
  if (p.m <= 0 || p.n <= 0 || p.k <= 0) return std::nullopt;
  p.in = x.dtype();
  p.acc = reduce.dtype();
  p.out = store.src(1).dtype();
  if (y.dtype() != p.in || !(p.in == dtypes::float16 || p.in == dtypes::bfloat16) ||
      p.acc != dtypes::float32)
    return std::nullopt;
  // a reads (m, k) with k contiguous, b reads (k, n) with n contiguous; either may come first
  const bool x_is_a = IsAffine(x.src(1), ranges, {p.k, 0, 1});
  const UOp& a = x_is_a ? x : y;
  const UOp& b = x_is_a ? y : x;
  if (!IsAffine(a.src(1), ranges, {p.k, 0, 1}) || !IsAffine(b.src(1), ranges, {0, 1, p.n}) ||
      !IsAffine(out_index.src(1), ranges, {p.n, 1, 0}))
    return std::nullopt;
  p.out_slot = out_index.src(0).arg().int64();
  p.a_slot = ReadSlot(a);
  p.b_slot = ReadSlot(b);
  // three buffers, 0 to 2 (not a @ a, whose operands share one)
  if (p.a_slot + p.b_slot + p.out_slot != 3 || p.a_slot == p.b_slot || p.a_slot == p.out_slot ||
      p.b_slot == p.out_slot || std::min({p.a_slot, p.b_slot, p.out_slot}) < 0)
    return std::nullopt;
  return p;
}

}  // namespace tg
