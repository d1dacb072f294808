// Port of tinygrad/uop/ops.py: the UOp algebra helpers of the symbolic rules.
#include "tinygrad/uop/symbolic/helpers.h"

#include <algorithm>
#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/base/check.h"

namespace tg {

// ** Python numbers **

bool IsNan(const ConstValue& v) { return v.is_float() && std::isnan(v.to_float()); }

i128 Abs(i128 a) { return a < 0 ? -a : a; }

i128 Gcd(i128 a, i128 b) {
  a = Abs(a);
  b = Abs(b);
  while (b != 0) {
    i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

bool IsSaturated(const ConstValue& v) { return v.is_int() && Abs(v.to_int()) >= kIntInf; }

namespace {
bool IsIntLike(const ConstValue& v) { return v.is_int() || v.is_bool(); }

// CPython's float_divmod: (floor quotient, remainder with the divisor's sign).
std::pair<double, double> FloatDivMod(double vx, double wx) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  double floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
  return {floordiv, mod};
}
}  // namespace

ConstValue FloorDiv(const ConstValue& a, const ConstValue& b) {
  if (IsIntLike(a) && IsIntLike(b)) {
    i128 x = a.to_int(), y = b.to_int();
    TG_CHECK(y != 0) << "floor division by zero";
    i128 q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0))) --q;
    return ConstValue(q);
  }
  return ConstValue(FloatDivMod(a.to_float(), b.to_float()).first);
}

ConstValue FloorMod(const ConstValue& a, const ConstValue& b) {
  if (IsIntLike(a) && IsIntLike(b)) {
    i128 x = a.to_int(), y = b.to_int();
    TG_CHECK(y != 0) << "modulo by zero";
    i128 r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return ConstValue(r);
  }
  return ConstValue(FloatDivMod(a.to_float(), b.to_float()).second);
}

ConstValue CDivV(const ConstValue& a, const ConstValue& b) { return CDiv(a.to_int(), b.to_int()); }

ConstValue CModV(const ConstValue& a, const ConstValue& b) { return CMod(a.to_int(), b.to_int()); }

// ** dtype groups **

const std::vector<DType>& IntsDtypes() {
  static const auto* const kInts =
      new std::vector<DType>{dtypes::uint8, dtypes::uint16, dtypes::uint32, dtypes::uint64,
                             dtypes::int8,  dtypes::int16,  dtypes::int32,  dtypes::int64};
  return *kInts;
}
const std::vector<DType>& SintsDtypes() {
  static const auto* const kSints =
      new std::vector<DType>{dtypes::int8, dtypes::int16, dtypes::int32, dtypes::int64};
  return *kSints;
}
const std::vector<DType>& IntsBoolIndexDtypes() {
  static const auto* const kDtypes = [] {
    auto* v = new std::vector<DType>(IntsDtypes());
    v->push_back(dtypes::bool_);
    v->push_back(dtypes::index);
    return v;
  }();
  return *kDtypes;
}
const std::vector<DType>& IntsIndexDtypes() {
  static const auto* const kDtypes = [] {
    auto* v = new std::vector<DType>(IntsDtypes());
    v->push_back(dtypes::index);
    return v;
  }();
  return *kDtypes;
}
bool InInts(DType d) {
  const auto& v = IntsDtypes();
  return std::find(v.begin(), v.end(), d) != v.end();
}
bool InSints(DType d) {
  const auto& v = SintsDtypes();
  return std::find(v.begin(), v.end(), d) != v.end();
}

// ** UOp algebra **

const ConstValue& ConstArg(const UOp& u) {
  TG_CHECK(u.op() == Ops::CONST) << "ConstArg of " << u.op();
  return u.arg().number();
}

std::vector<ConstValue> ConstLanes(const UOp& u, int count) {
  if (u.op() == Ops::VCONST) {
    std::vector<ConstValue> lanes;
    for (const Arg& a : u.arg().tuple()) lanes.push_back(a.number());
    TG_CHECK(static_cast<int>(lanes.size()) == count)
        << "VCONST with " << lanes.size() << " lanes used as " << count;
    return lanes;
  }
  return std::vector<ConstValue>(count, ConstArg(u));
}

UOp ConstLikeLanes(const UOp& u, const std::vector<ConstValue>& lanes) {
  return UOp::VConst(u.dtype(), lanes);
}

std::vector<UOp> SplitUOp(const UOp& u, Ops sep) {
  std::vector<UOp> out;
  std::vector<const UOp*> stack{&u};
  while (!stack.empty()) {
    const UOp* n = stack.back();
    stack.pop_back();
    if (n->op() != sep) {
      out.push_back(*n);
      continue;
    }
    std::span<const UOp> s = n->src();
    for (auto it = s.rbegin(); it != s.rend(); ++it) stack.push_back(&*it);
  }
  return out;
}

i128 ConstFactor(const UOp& u) {
  switch (u.op()) {
    case Ops::CONST: {
      const ConstValue& v = ConstArg(u);
      return IsIntLike(v) ? v.to_int() : i128{1};
    }
    case Ops::VCONST: {
      i128 g = 0;
      for (const Arg& a : u.arg().tuple()) {
        if (!IsIntLike(a.number())) return 1;
        g = Gcd(g, a.number().to_int());
      }
      return g;
    }
    case Ops::ADD:
      return Gcd(ConstFactor(u.src(0)), ConstFactor(u.src(1)));
    case Ops::MUL:
      for (int i = 0; i < 2; ++i) {
        if (u.src(i).op() == Ops::CONST) {
          const ConstValue& v = ConstArg(u.src(i));
          return IsIntLike(v) ? v.to_int() : i128{1};
        }
      }
      return 1;
    default:
      return 1;
  }
}

UOp Divides(const UOp& u, i128 v) {
  if (v == 1) return u;
  if (v == 0) return {};
  const ConstValue cv(v);
  switch (u.op()) {
    case Ops::CONST: {
      const ConstValue& a = ConstArg(u);
      if (a.is_invalid() || !PyEq(FloorMod(a, cv), 0)) return {};
      return u.const_like(FloorDiv(a, cv));
    }
    case Ops::VCONST: {
      std::vector<ConstValue> lanes;
      for (const Arg& a : u.arg().tuple()) {
        if (a.number().is_invalid() || !PyEq(FloorMod(a.number(), cv), 0)) return {};
        lanes.push_back(FloorDiv(a.number(), cv));
      }
      return ConstLikeLanes(u, lanes);
    }
    case Ops::ADD: {
      UOp d0 = Divides(u.src(0), v);
      if (!d0) return {};
      UOp d1 = Divides(u.src(1), v);
      if (!d1) return {};
      return d0 + d1;
    }
    case Ops::MUL: {
      if (UOp d0 = Divides(u.src(0), v)) return d0 * u.src(1);
      if (UOp d1 = Divides(u.src(1), v)) return u.src(0) * d1;
      return {};
    }
    default:
      return {};
  }
}

ConstValue IdentityElement(Ops op, DType dt) {
  switch (op) {
    case Ops::ADD:
      return dtypes::as_const(0, dt);
    case Ops::MUL:
      return dtypes::as_const(1, dt);
    case Ops::MAX:
      return dtypes::as_const(dtypes::min(dt), dt);
    default:
      TG_CHECK(false) << "no identity element for " << op;
      return {};
  }
}

std::pair<UOp, ConstValue> PopConst(const UOp& u, Ops op) {
  if (u.op() == op && u.src(1).op() == Ops::CONST) return {u.src(0), ConstArg(u.src(1))};
  return {u, IdentityElement(op, u.dtype())};
}

namespace {
// collections.Counter over nodes: insertion-ordered (node, count).
using Counter = std::vector<std::pair<UOp, int64_t>>;

Counter CountOf(const std::vector<UOp>& items) {
  Counter c;
  for (const UOp& u : items) {
    auto it = std::find_if(c.begin(), c.end(), [&](const auto& e) { return e.first == u; });
    if (it == c.end()) {
      c.emplace_back(u, 1);
    } else {
      ++it->second;
    }
  }
  return c;
}
int64_t CountGet(const Counter& c, const UOp& u) {
  for (const auto& [k, n] : c)
    if (k == u) return n;
  return 0;
}
// Counter `a & b`: the minimum counts, positive ones only, in a's order.
Counter CounterAnd(const Counter& a, const Counter& b) {
  Counter out;
  for (const auto& [k, n] : a) {
    int64_t m = std::min(n, CountGet(b, k));
    if (m > 0) out.emplace_back(k, m);
  }
  return out;
}
// Counter.elements(): each node repeated by its (positive) count.
std::vector<UOp> Elements(const Counter& c) {
  std::vector<UOp> out;
  for (const auto& [k, n] : c)
    for (int64_t i = 0; i < n; ++i) out.push_back(k);
  return out;
}
}  // namespace

UOp UOpGcd(std::span<const UOp> uops) {
  TG_CHECK(!uops.empty()) << "gcd of no terms";
  std::vector<UOp> terms;
  i128 g = 0;
  for (const UOp& u : uops) {
    i128 f = ConstFactor(u);
    UOp t = Divides(u, f);
    if (!t) return {};  // tinygrad fails here (a zero const factor); we decline
    terms.push_back(t);
    g = Gcd(g, f);
  }
  Counter count = CountOf(SplitUOp(terms[0], Ops::MUL));
  for (size_t i = 1; i < terms.size(); ++i)
    count = CounterAnd(count, CountOf(SplitUOp(terms[i], Ops::MUL)));
  std::vector<UOp> factors = Elements(count);
  factors.push_back(terms[0].const_like(ConstValue(g)));  // the const goes on top
  return PyProd(factors);
}

UOp DivideExact(const UOp& u, const UOp& v) {
  if (u == v) return u.const_like(1);
  if (v.op() == Ops::CONST) {
    const ConstValue& c = ConstArg(v);
    if (PyEq(c, 1)) return u;
    if (!IsIntLike(c)) return {};
    return Divides(u, c.to_int());
  }
  if (u.op() == Ops::ADD) {
    UOp s0 = DivideExact(u.src(0), v);
    if (!s0) return {};
    UOp s1 = DivideExact(u.src(1), v);
    if (!s1) return {};
    return s0 + s1;
  }
  if (u.op() == Ops::MUL) {
    auto [fac, c] = PopConst(u, Ops::MUL);
    auto [div_fac, div_c] = PopConst(v, Ops::MUL);
    if (PyEq(div_c, 0)) return {};
    Counter count = CountOf(SplitUOp(fac, Ops::MUL));
    for (const UOp& d : SplitUOp(div_fac, Ops::MUL)) {
      auto it =
          std::find_if(count.begin(), count.end(), [&](const auto& e) { return e.first == d; });
      if (it == count.end()) {
        count.emplace_back(d, -1);
      } else {
        --it->second;
      }
    }
    bool all_nonneg =
        std::all_of(count.begin(), count.end(), [](const auto& e) { return e.second >= 0; });
    if (PyEq(FloorMod(c, div_c), 0) && all_nonneg) {
      std::vector<UOp> factors = Elements(count);
      factors.push_back(u.const_like(FloorDiv(c, div_c)));
      return PyProd(factors);
    }
  }
  return {};
}

bool IsIncreasing(const UOp& u) {
  if (GroupOp::Irreducible.contains(u.op())) return true;
  if (u.op() == Ops::ADD) return IsIncreasing(u.src(0)) && IsIncreasing(u.src(1));
  if ((u.op() == Ops::MUL || u.op() == Ops::IDIV) && u.src(1).op() == Ops::CONST &&
      PyGe(ConstArg(u.src(1)), 0))
    return IsIncreasing(u.src(0));
  return false;  // false if not sure
}

UOp UOpSum(std::span<const UOp> us) {
  TG_CHECK(!us.empty()) << "UOp.sum of nothing";
  bool is_bool = us[0].dtype() == dtypes::bool_;
  UOp acc = us[0];
  for (const UOp& u : us.subspan(1)) acc = is_bool ? (acc | u) : (acc + u);
  return acc;
}

UOp UOpProd(std::span<const UOp> us) {
  TG_CHECK(!us.empty()) << "UOp.prod of nothing";
  bool is_bool = us[0].dtype() == dtypes::bool_;
  UOp acc = us[0];
  for (const UOp& u : us.subspan(1)) acc = is_bool ? (acc & u) : (acc * u);
  return acc;
}

UOp PySum(std::span<const UOp> us) {
  TG_CHECK(!us.empty()) << "sum of nothing";
  UOp acc = ConstValue(0) + us[0];
  for (const UOp& u : us.subspan(1)) acc = acc + u;
  return acc;
}

UOp PyProd(std::span<const UOp> us) {
  TG_CHECK(!us.empty()) << "prod of nothing";
  UOp acc = ConstValue(1) * us[0];
  for (const UOp& u : us.subspan(1)) acc = acc * u;
  return acc;
}

bool Overflows(const UOp& u, DType dt) {
  return PyLt(u.vmin(), dtypes::min(dt)) || PyLt(dtypes::max(dt), u.vmax());
}

bool OpInBackwardSliceWithSelf(const UOp& u, OpSet ops) {
  if (ops.contains(u.op())) return true;
  for (const UOp& x : u.toposort())
    if (ops.contains(x.op())) return true;
  return false;
}

bool InBackwardSliceWithSelf(const UOp& u, const UOp& x) {
  for (const UOp& n : u.toposort())
    if (n == x) return true;
  return false;
}

// ** tuplize order **

namespace {
// Rank of an arg's kind, for args Python cannot order against each other (its TypeError).
int ArgKindRank(const Arg& a) {
  if (a.is_none()) return 0;
  if (a.is_number()) return 1;
  if (a.is_string()) return 2;
  if (a.is_ops()) return 3;
  if (a.is_axis_type()) return 4;
  return 5;
}

bool ArgPyEq(const Arg& a, const Arg& b);
bool ArgPyLess(const Arg& a, const Arg& b);

bool NumberPyEq(const ConstValue& a, const ConstValue& b) {
  if (a.is_invalid() || b.is_invalid()) return a.is_invalid() && b.is_invalid();
  return NumEq(a, b);
}
// Invalid orders before and after everything but itself (InvalidType's __lt__ and __gt__).
bool NumberPyLess(const ConstValue& a, const ConstValue& b) {
  if (a.is_invalid() || b.is_invalid()) return !(a.is_invalid() && b.is_invalid());
  return NumLess(a, b);
}

bool ArgPyEq(const Arg& a, const Arg& b) {
  if (a.is_number() && b.is_number()) return NumberPyEq(a.number(), b.number());
  if (a.is_tuple() && b.is_tuple()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!ArgPyEq(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

bool ArgPyLess(const Arg& a, const Arg& b) {
  if (a.is_number() && b.is_number()) return NumberPyLess(a.number(), b.number());
  if (a.is_string() && b.is_string()) return a.str() < b.str();
  if (a.is_ops() && b.is_ops()) return a.ops() < b.ops();
  if (a.is_axis_type() && b.is_axis_type()) return a.axis_type() < b.axis_type();
  if (a.is_tuple() && b.is_tuple()) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
      if (!ArgPyEq(a[i], b[i])) return ArgPyLess(a[i], b[i]);
    return a.size() < b.size();
  }
  return ArgKindRank(a) < ArgKindRank(b);
}

bool TuplizeEq(const UOp& a, const UOp& b) {
  if (a == b) return true;
  if (a.op() != b.op() || a.dtype() != b.dtype() || a.src().size() != b.src().size() ||
      !ArgPyEq(a.arg(), b.arg()))
    return false;
  for (size_t i = 0; i < a.src().size(); ++i)
    if (!TuplizeEq(a.src(i), b.src(i))) return false;
  return true;
}
}  // namespace

bool TuplizeLess(const UOp& a, const UOp& b) {
  if (a == b) return false;
  if (a.op() != b.op()) return a.op() < b.op();
  if (!ArgPyEq(a.arg(), b.arg())) return ArgPyLess(a.arg(), b.arg());
  if (a.dtype() != b.dtype()) return a.dtype() < b.dtype();
  size_t n = std::min(a.src().size(), b.src().size());
  for (size_t i = 0; i < n; ++i)
    if (!TuplizeEq(a.src(i), b.src(i))) return TuplizeLess(a.src(i), b.src(i));
  return a.src().size() < b.src().size();
}

// ** ranges **

std::vector<UOp> Ranges(const UOp& root) { return root.ranges(); }

// ** index validity **

namespace {
bool IsInvalidConst(const UOp& u) {
  return u.op() == Ops::CONST && u.arg().is_number() && u.arg().number().is_invalid();
}
bool IsGated(const UOp& u) { return u.op() == Ops::WHERE && IsInvalidConst(u.src(2)); }
}  // namespace

UOp GetIdx(const UOp& u) {
  TG_CHECK(u.dtype().scalar() == dtypes::index) << "get_idx on " << u.dtype();
  return IsGated(u) ? u.src(1) : u;
}

UOp GetValid(const UOp& u) {
  TG_CHECK(u.dtype().scalar() == dtypes::index) << "get_valid on " << u.dtype();
  return IsGated(u) ? u.src(0) : UOp::Const(dtypes::bool_, !IsInvalidConst(u));
}

UOp Valid(const UOp& u, const UOp& cond) { return cond.where(u, UOp::Invalid(u.dtype().count())); }

// ** lists **

std::vector<UOp> Dedup(std::span<const UOp> us) {
  std::vector<UOp> out;
  for (const UOp& u : us)
    if (!Contains(out, u)) out.push_back(u);
  return out;
}

bool AllSame(std::span<const UOp> us) {
  return std::all_of(us.begin(), us.end(), [&](const UOp& u) { return u == us[0]; });
}

bool Contains(std::span<const UOp> us, const UOp& u) {
  return std::find(us.begin(), us.end(), u) != us.end();
}

}  // namespace tg
