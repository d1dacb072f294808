// Port of tinygrad/uop/divandmod.py: fold_divmod_general and div_and_mod_symbolic (truncating
// IDIV/MOD of index math).
//
// TODO(parity): tinygrad's default (CORRECT_DIVMOD_FOLDING=0) lets the congruence fold run on
// numerators that can be negative, which is unsound for truncating division (it folds
// (x*3+1)//3 to x for x in [-20, 20]). We always fold as tinygrad does with
// CORRECT_DIVMOD_FOLDING=1 (design note §10: the simplifier is sound).
#include <algorithm>
#include <vector>

#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

constexpr bool kCorrectDivmodFolding = true;

bool IsIntLike(const ConstValue& v) { return v.is_int() || v.is_bool(); }

// `0 + us[0] + ... + tail`: Python's builtin sum(us) followed by `+ tail`.
UOp SumPlus(const std::vector<UOp>& us, const UOp& tail) {
  return us.empty() ? ConstValue(0) + tail : PySum(us) + tail;
}

// x op y, op IDIV or MOD, for the parts of fold_divmod_general that need a positive const
// divisor c. Null when none applies.
UOp FoldConstDenominator(const UOp& d, const UOp& x, const UOp& y, const ConstValue& c,
                         const UOp& x_peeled, const ConstValue& cst,
                         const std::vector<UOp>& uops_no_const, bool correct);

// tinygrad's fold_divmod_general: the general folds of an index IDIV/MOD.
UOp FoldDivmodGeneral(const UOp& d, bool correct) {
  const UOp &x = d.src(0), &y = d.src(1);
  const bool is_mod = d.op() == Ops::MOD;
  const ConstValue &x_min = x.vmin(), &x_max = x.vmax(), &y_min = y.vmin(), &y_max = y.vmax();
  if (!IsIntLike(x_min) || !IsIntLike(x_max) || !IsIntLike(y_min) || !IsIntLike(y_max)) return {};
  // tinygrad raises ZeroDivisionError here; a division by zero is left alone.
  if (PyEq(y_min, 0) && PyEq(y_max, 0)) return {};

  // cancel_divmod: the numerator's range lies within a single denominator interval.
  if (PyGt(y_min * y_max, 0) && !IsSaturated(x_min) && !IsSaturated(x_max)) {
    ConstValue q = CDivV(x_min, y_min);
    if (PyEq(q, CDivV(x_min, y_max)) && PyEq(q, CDivV(x_max, y_min)) &&
        PyEq(q, CDivV(x_max, y_max)))
      return is_mod ? x - q * y : d.const_like(q);
  }

  // split uops for the rest of the processing
  auto [x_peeled, cst] = PopConst(x);
  std::vector<UOp> uops_no_const = SplitUOp(x_peeled, Ops::ADD);

  // ** Constant Denominator Rules **: these need y to be a scalar const > 0.
  if (y.op() == Ops::CONST && PyGt(ConstArg(y), 0)) {
    if (UOp r = FoldConstDenominator(d, x, y, ConstArg(y), x_peeled, cst, uops_no_const, correct))
      return r;
  }

  // ** Variable Denominator / Fallback Rules **: variables, or consts that failed above.
  std::vector<UOp> all_uops = uops_no_const;
  if (!PyEq(cst, 0)) all_uops.push_back(x.const_like(cst));

  // divide_by_gcd: x//y -> (x//gcd)//(y//gcd)
  std::vector<UOp> gcd_terms = all_uops;
  gcd_terms.push_back(y);
  UOp gcd = UOpGcd(gcd_terms);
  if (!gcd) return {};
  gcd = Simplify(gcd);
  if (!(gcd.op() == Ops::CONST && PyEq(ConstArg(gcd), 1))) {
    UOp xg = DivideExact(x, gcd), yg = DivideExact(y, gcd);
    if (!xg || !yg) return {};  // tinygrad asserts (unwrap)
    UOp ret = xg.alu(d.op(), {yg});
    return is_mod ? ret * gcd : ret;
  }

  // factor_remainder: (d*x+y)//d -> x+y//d
  if (PyLt(y.vmin(), 0) || PyLt(x.vmin(), 0)) return {};
  std::vector<UOp> quo, rem;
  for (const UOp& u : all_uops) {
    if (UOp q = DivideExact(u, y)) {
      quo.push_back(q);
      continue;
    }
    if (is_mod && y.op() == Ops::CONST) {
      ConstValue f(ConstFactor(u));
      if (!PyEq(FloorMod(f, ConstArg(y)), f)) {
        UOp t = Divides(u, f.to_int());
        if (!t) return {};
        rem.push_back(t * FloorMod(f, ConstArg(y)));
        quo.push_back(u.const_like(0));
        continue;
      }
    }
    rem.push_back(u);
  }
  if (quo.empty()) return {};
  UOp new_x = SumPlus(rem, x.const_like(0));
  if (PyLt(new_x.vmin(), 0)) return {};
  return is_mod ? new_x % y : new_x.idiv(y) + PySum(quo);
}

UOp FoldConstDenominator(const UOp& d, const UOp& x, const UOp& y, const ConstValue& c,
                         const UOp& x_peeled, const ConstValue& cst,
                         const std::vector<UOp>& uops_no_const, bool correct) {
  const bool is_mod = d.op() == Ops::MOD;
  // remove_nested_mod: (a%4 + b)%2 -> (a+b)%2 when the inner modulus is a multiple.
  if (is_mod && PyGe(x.vmin(), 0)) {
    std::vector<UOp> new_xs;
    bool changed = false;
    for (UOp u : uops_no_const) {
      if (u.op() == Ops::MOD && Divides(u.src(1), c.to_int())) {
        u = u.src(0);
        changed = true;
      }
      new_xs.push_back(u);
    }
    if (changed) {
      UOp new_x = UOpSum(new_xs) + cst;
      if (PyGe(new_x.vmin(), 0)) return new_x % y;
    }
  }

  // Shared decomposition: each term as (term / factor, factor).
  std::vector<UOp> terms;
  std::vector<ConstValue> factors;
  for (const UOp& u : uops_no_const) {
    i128 f = ConstFactor(u);
    UOp t = Divides(u, f);
    if (!t) return {};
    terms.push_back(t);
    factors.push_back(ConstValue(f));
  }

  // fold_binary_numerator: one non-constant term that takes exactly two values.
  if (terms.size() == 1 && PyEq(terms[0].vmax() - terms[0].vmin(), 1)) {
    const UOp& v = terms[0];
    ConstValue n1 = factors[0] * v.vmin() + cst, n2 = factors[0] * v.vmax() + cst;
    ConstValue y1 = is_mod ? CModV(n1, c) : CDivV(n1, c);
    ConstValue y2 = is_mod ? CModV(n2, c) : CDivV(n2, c);
    return (y2 - y1) * (v - v.vmin()) + y1;
  }

  // fold_divmod_congruence: x is congruent to an expression whose range is in one period.
  if (!(PyLt(x.vmin(), 0) && correct)) {
    std::vector<ConstValue> rems;
    for (const ConstValue& f : factors) {
      ConstValue r = FloorMod(f, c), r2 = r - c;
      rems.push_back(PyLe(Abs(r.to_int()), Abs(r2.to_int())) ? r : r2);  // min(.., key=abs)
    }
    std::vector<UOp> rem_terms;
    for (size_t i = 0; i < terms.size(); ++i) rem_terms.push_back(rems[i] * terms[i]);
    UOp rem = PySum(rem_terms) + FloorMod(cst, c);
    if (!IsSaturated(rem.vmin()) && !IsSaturated(rem.vmax()) &&
        PyEq(FloorDiv(rem.vmin(), c), FloorDiv(rem.vmax(), c))) {
      ConstValue base = FloorDiv(rem.vmin(), c) * c;
      if (is_mod) return rem - base;
      std::vector<UOp> quo_terms;
      for (size_t i = 0; i < terms.size(); ++i)
        quo_terms.push_back(FloorDiv(factors[i] - rems[i], c) * terms[i]);
      return PySum(quo_terms) + FloorDiv(cst - FloorMod(cst, c) + base, c);
    }
  }

  // gcd_with_remainder: factor a common gcd out of the numerator (the constant excluded).
  if (PyGe(x.vmin(), 0)) {
    std::vector<UOp> gcd_terms = uops_no_const;
    gcd_terms.push_back(y);
    UOp gcd = UOpGcd(gcd_terms);
    if (gcd) gcd = Simplify(gcd);
    if (gcd && gcd.op() == Ops::CONST && PyGt(ConstArg(gcd), 1)) {
      const ConstValue& g = ConstArg(gcd);
      UOp divided = DivideExact(x_peeled, gcd);
      if (!divided) return {};  // tinygrad asserts (unwrap)
      UOp new_x = Simplify(divided) + FloorDiv(FloorMod(cst, c), g);
      if (PyGe(new_x.vmin(), 0)) {
        UOp ret = new_x.alu(d.op(), {x.const_like(FloorDiv(c, g))});
        return is_mod ? ret * gcd + FloorMod(cst, g) : ret + FloorDiv(cst, c);
      }
    }
  }

  // nest_div_by_smallest_factor: nest the division if that lets the numerator simplify.
  if (!is_mod && PyGe(x.vmin(), 0)) {
    ConstValue div = c;
    for (size_t i = 0; i < uops_no_const.size(); ++i) {
      const UOp& u = uops_no_const[i];
      ConstValue af(Abs(factors[i].to_int()));
      if (u.op() != Ops::CONST && u.op() != Ops::VCONST && PyGt(af, 1) &&
          PyEq(FloorMod(c, factors[i]), 0))
        div = NumMin(div, af);
    }
    if (PyLt(div, c)) {
      // NOTE: this is recursive!
      UOp newxs = FoldDivmodGeneral(x.idiv(div), correct);
      if (newxs && PyGe(newxs.vmin(), 0)) return newxs.idiv(FloorDiv(c, div));
    }
  }
  return {};
}

// (x//c+a)//d -> (x+a*c)//(c*d) when c, d > 0 and x, a share a sign
UOp MergeNestedDiv(const Match& m) {
  const UOp &x = m["x"], &c = m["c"], &a = m["a"], &d = m["d"];
  bool same_sign =
      (PyGe(x.vmin(), 0) && PyGe(a.vmin(), 0)) || (PyLe(x.vmax(), 0) && PyLe(a.vmax(), 0));
  if (!(PyGt(c.vmin(), 0) && PyGt(d.vmin(), 0) && same_sign)) return {};
  return (x + a * c).idiv(c * d);
}

// (x+c)//d -> (x+c%d)//d + c//d when x, x+c >= 0 and d > 0
UOp SplitConstNonNegative(const Match& m) {
  const UOp &x = m["x"], &n = m["n"], &d = m["d"];
  const ConstValue &cv = ConstArg(m["c"]), &dv = ConstArg(d);
  if (!(PyGt(dv, 0) && !PyEq(FloorMod(cv, dv), cv) && PyGe(x.vmin(), 0) && PyGe(n.vmin(), 0)))
    return {};
  return (x + FloorMod(cv, dv)).idiv(d) + FloorDiv(cv, dv);
}

// (x+c)//d -> -((-(c%d + x - (d-1)))//d) + c//d when x <= 0 <= x+c and d > 0
UOp SplitConstNonPositive(const Match& m) {
  const UOp &x = m["x"], &n = m["n"], &d = m["d"];
  const ConstValue &cv = ConstArg(m["c"]), &dv = ConstArg(d);
  if (!(PyGt(dv, 0) && PyLe(x.vmax(), 0) && PyGe(n.vmin(), 0))) return {};
  return -((-(FloorMod(cv, dv) + x - (dv - 1))).idiv(d)) + FloorDiv(cv, dv);
}

}  // namespace

const PatternMatcher& DivAndModSymbolic() {
  static const auto* const kRules = [] {
    UPat x = UPat::Var("x"), x_idx = UPat::Var("x", {dtypes::index}), d = UPat::Var("d");
    UPat c = UPat::CVar("c"), a = UPat::CVar("a"), dc = UPat::CVar("d");
    UPat c_scalar = UPat::CVar("c", {}, false), d_scalar = UPat::CVar("d", {}, false);
    return new PatternMatcher({
        // ** 1. Fast Inline Rules **
        // (x//c+a)//d -> (x+a*c)//(c*d) when c, d > 0 and x, a share a sign
        Rule((x.idiv(c) + a).idiv(dc), MergeNestedDiv),
        // x//d -> -(x//(-d)) when d < 0
        Rule(x_idx.idiv(d),
         [](const Match& m) { return PyLt(m["d"].vmax(), 0) ? -(m["x"].idiv(-m["d"])) : UOp(); }),
        // x//d -> -((-x)//d) when x <= 0
        Rule(x_idx.idiv(d),
         [](const Match& m) { return PyLe(m["x"].vmax(), 0) ? -((-m["x"]).idiv(m["d"])) : UOp(); }),
        // (x+c)//d -> (x+c%d)//d + c//d when x, x+c >= 0 and d > 0
        Rule((x_idx + c_scalar).named("n").idiv(d_scalar), SplitConstNonNegative),
        // (x+c)//d -> -((-(c%d + x - (d-1)))//d) + c//d when x <= 0 <= x+c and d > 0
        Rule((x_idx + c_scalar).named("n").idiv(d_scalar), SplitConstNonPositive),
        // ** 2. Slow Rules **
        Rule(UPat(OpSet{Ops::IDIV, Ops::MOD}).dtype(dtypes::index).named("d"),
         [](const Match& m) { return FoldDivmodGeneral(m["d"], kCorrectDivmodFolding); }),
        // NOTE: these have to go at the bottom or TestSymbolicOps.test_var loops
        // x%d -> -((-x)%d) when x <= 0
        Rule(x_idx % d,
         [](const Match& m) { return PyLe(m["x"].vmax(), 0) ? -((-m["x"]) % m["d"]) : UOp(); }),
        // x%d -> x%(-d) when d < 0
        Rule(x_idx % d,
         [](const Match& m) { return PyLt(m["d"].vmax(), 0) ? m["x"] % (-m["d"]) : UOp(); }),
    });
  }();
  return *kRules;
}

}  // namespace tg
