// Port of tinygrad/uop/ops.py: UOp._min_max.
#include "tinygrad/uop/min_max.h"

#include <algorithm>
#include <initializer_list>

namespace tg::uop_internal {
namespace {

using Range = std::pair<ConstValue, ConstValue>;

bool IsIntLike(const ConstValue& v) { return v.is_int() || v.is_bool(); }

// Python's min()/max() over a list: the first extreme element wins.
ConstValue MinOf(std::initializer_list<ConstValue> vs) {
  ConstValue best = *vs.begin();
  for (const ConstValue& v : vs) best = NumMin(best, v);
  return best;
}
ConstValue MaxOf(std::initializer_list<ConstValue> vs) {
  ConstValue best = *vs.begin();
  for (const ConstValue& v : vs) best = NumMax(best, v);
  return best;
}

// The binary-op cases for non-float dtypes; false when none applies.
bool BinaryMinMax(Ops op, DType dtype, const UOp& a, const UOp& b, Range* out) {
  const ConstValue &a0 = a.vmin(), &a1 = a.vmax(), &b0 = b.vmin(), &b1 = b.vmax();
  switch (op) {
    case Ops::ADD: *out = {a0 + b0, a1 + b1}; return true;
    case Ops::SUB: *out = {a0 - b1, a1 - b0}; return true;
    case Ops::AND:
      if (dtypes::is_int(dtype) && NumEq(b0, b1) && !NumLess(b0, 0) && !NumLess(a0, 0)) {
        *out = {NumMin(0, a0), NumMin(a1, b1)};
        return true;
      }
      break;
    case Ops::MUL: {
      ConstValue p0 = a0 * b0, p1 = a0 * b1, p2 = a1 * b0, p3 = a1 * b1;
      *out = {MinOf({p0, p1, p2, p3}), MaxOf({p0, p1, p2, p3})};
      return true;
    }
    case Ops::SHL:
    case Ops::SHR:
      // Constant shift amounts only; Python rejects negative shifts, so we leave those alone.
      if (NumEq(b0, b1) && IsIntLike(a0) && IsIntLike(a1) && IsIntLike(b0) && b0.to_int() >= 0 &&
          b0.to_int() < 127) {
        int s = static_cast<int>(b0.to_int());
        if (op == Ops::SHR) {
          *out = {ConstValue(a0.to_int() >> s), ConstValue(a1.to_int() >> s)};
        } else {
          ConstValue f(i128{1} << s);
          *out = {a0 * f, a1 * f};
        }
        return true;
      }
      break;
    case Ops::MOD: {
      if (NumEq(b0, b1) && NumLess(0, b0)) {
        const ConstValue& c = b0;
        ConstValue lo = NumLess(0, a0) ? ConstValue(0)
                        : (!NumLess(0, a0) && NumLess(-c, a0)) ? a0
                                                               : -(b1 - 1);
        ConstValue hi = NumLess(a1, 0) ? ConstValue(0)
                        : (!NumLess(a1, 0) && NumLess(a1, c)) ? a1
                                                              : c - 1;
        *out = {lo, hi};
        return true;
      }
      if (NumLess(0, b0)) {
        ConstValue m = b1 - 1;
        *out = !NumLess(a0, 0) ? Range{0, m} : !NumLess(0, a1) ? Range{-m, 0} : Range{-m, m};
        return true;
      }
      if (NumLess(b1, 0)) {
        ConstValue m = -b0 - 1;
        *out = !NumLess(a0, 0) ? Range{0, m} : !NumLess(0, a1) ? Range{-m, 0} : Range{-m, m};
        return true;
      }
      break;
    }
    case Ops::IDIV:
      if (IsIntLike(a0) && IsIntLike(a1) && IsIntLike(b0) && IsIntLike(b1) &&
          NumLess(0, b0 * b1)) {
        i128 x0 = a0.to_int(), x1 = a1.to_int(), y0 = b0.to_int(), y1 = b1.to_int();
        ConstValue q0(CDiv(x0, y0)), q1(CDiv(x0, y1)), q2(CDiv(x1, y0)), q3(CDiv(x1, y1));
        *out = {MinOf({q0, q1, q2, q3}), MaxOf({q0, q1, q2, q3})};
        return true;
      }
      break;
    case Ops::MAX: *out = {NumMax(a0, b0), NumMax(a1, b1)}; return true;
    case Ops::CMPLT: *out = {ConstValue(NumLess(a1, b0)), ConstValue(NumLess(a0, b1))}; return true;
    case Ops::CMPNE: {
      bool all_same = NumEq(a0, a1) && NumEq(a1, b0) && NumEq(b0, b1);
      *out = {ConstValue(NumLess(a1, b0) || NumLess(b1, a0)), ConstValue(!all_same)};
      return true;
    }
    case Ops::OR:
      if (dtype == dtypes::bool_) {
        *out = {a0.to_bool() ? a0 : b0, a1.to_bool() ? a1 : b1};  // Python `or`
        return true;
      }
      break;
    default: break;
  }
  if (op == Ops::AND && dtype == dtypes::bool_) {
    *out = {a0.to_bool() ? b0 : a0, a1.to_bool() ? b1 : a1};  // Python `and`
    return true;
  }
  return false;
}

bool IsCastMonotone(DType d) {
  // tinygrad: dtype in floats + sints + (index,), compared as scalars of width 1.
  return d.vcount() == 1 && !d.is_ptr() &&
         (dtypes::is_float(d) || d == dtypes::index ||
          (dtypes::is_int(d) && !dtypes::is_unsigned(d)));
}

}  // namespace

Range ComputeMinMax(Ops op, DType dtype, std::span<const UOp> src, const Arg& arg) {
  Range r;
  if (GroupOp::Binary.contains(op) && !dtypes::is_float(dtype) && src.size() == 2 &&
      BinaryMinMax(op, dtype, src[0], src[1], &r))
    return r;
  switch (op) {
    case Ops::WHERE:
      // Floats are excluded: transcendental code uses explicit NaNs.
      if (dtypes::is_int(dtype) && src.size() == 3)
        return {NumMin(src[1].vmin(), src[2].vmin()), NumMax(src[1].vmax(), src[2].vmax())};
      break;
    case Ops::DEFINE_VAR:
      if (arg.is_tuple() && arg.size() >= 3) return {arg[1].number(), arg[2].number()};
      break;
    case Ops::RANGE:
    case Ops::SPECIAL:
      if (!src.empty()) return {ConstValue(0), src[0].vmax() + ConstValue(-1)};
      break;
    case Ops::BIND:
    case Ops::GEP:
      if (!src.empty()) return {src[0].vmin(), src[0].vmax()};
      break;
    case Ops::UNROLL:
    case Ops::VECTORIZE:
      if (!src.empty()) {
        r = {src[0].vmin(), src[0].vmax()};
        for (const UOp& s : src.subspan(1)) r = {NumMin(r.first, s.vmin()), NumMax(r.second, s.vmax())};
        return r;
      }
      break;
    case Ops::CONST:
      if (arg.is_number() && !arg.number().is_invalid()) return {arg.number(), arg.number()};
      break;
    case Ops::VCONST:
      if (arg.is_tuple() && arg.size() > 0) {
        bool has_invalid = false;
        for (const Arg& a : arg.tuple()) has_invalid |= a.number().is_invalid();
        if (!has_invalid) {
          r = {arg[0].number(), arg[0].number()};
          for (const Arg& a : arg.tuple()) r = {NumMin(r.first, a.number()), NumMax(r.second, a.number())};
          return r;
        }
      }
      break;
    case Ops::CAST:
      if (IsCastMonotone(dtype) && !src.empty())
        return {NumMax(dtypes::min(dtype), src[0].vmin()), NumMin(src[0].vmax(), dtypes::max(dtype))};
      break;
    default: break;
  }
  return {dtypes::min(dtype), dtypes::max(dtype)};
}

}  // namespace tg::uop_internal
