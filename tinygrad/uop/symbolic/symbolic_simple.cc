// Port of tinygrad/uop/symbolic.py: propagate_invalid and symbolic_simple (phase 1, the most
// generic folding rules).
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "tinygrad/uop/exec_alu.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// `a / b` as tinygrad builds it: a * (1/b).
UPat Div(const UPat& a, const UPat& b) { return a * b.reciprocal(); }

DType BoolVec(int count) { return count == 1 ? dtypes::bool_ : dtypes::bool_.vec(count); }

// Python's truthiness of a const arg (Invalid is a truthy object).
bool Truthy(const ConstValue& v) { return v.is_invalid() || v.to_bool(); }

// ** constant folding **

// An unsigned int const as the program holds it: wrapped to its dtype (C's unsigned arithmetic
// and conversions are modular). Anything else passes through.
ConstValue WrapUnsigned(const ConstValue& v, DType d) {
  if (!dtypes::is_unsigned(d) || !(v.is_int() || v.is_bool())) return v;
  return Truncate(v, d.scalar());
}

// An ALU op of consts -> the const of its exec_alu. Untruncated, as tinygrad folds
// (exec_alu(..., truncate_output=False)); vector lanes are truncated, as tinygrad's per-lane
// exec_alu does. Unsigned ints differ: operands and result wrap to their dtypes. tinygrad keeps
// the exact Python int there and wraps it only when rendering a uint32/uint64 const, but our
// ints saturate at 2**120, so a folded chain of uint32 ops (a threefry of consts) became 2**120,
// not the wrapped value, and a literal C rejects; and >>, //, % and < of an unwrapped value
// differ from what the program computes. Signed ints keep tinygrad's exact folding (their
// overflow is undefined in C).
UOp FoldConstAlu(const Match& m) {
  // ops whose value is a float whatever the dtype: not wrapped (left as tinygrad folds them)
  static constexpr OpSet kFloatValued{Ops::LOG2, Ops::SQRT, Ops::RECIPROCAL, Ops::SIN, Ops::FDIV};
  const UOp& a = m["a"];
  int n = a.dtype().count();
  std::vector<std::vector<ConstValue>> lanes;
  for (const UOp& s : a.src()) {
    if (s.op() == Ops::VCONST && static_cast<int>(s.arg().size()) != n) return {};
    lanes.push_back(ConstLanes(s, n));
  }
  std::vector<ConstValue> out;
  for (int i = 0; i < n; ++i) {
    std::vector<ConstValue> operands;
    for (size_t j = 0; j < lanes.size(); ++j)
      operands.push_back(WrapUnsigned(lanes[j][i], a.src(j).dtype()));
    // Division by zero is never folded (ops.h). TODO(parity): tinygrad folds x//0 to 0.
    if ((a.op() == Ops::IDIV || a.op() == Ops::MOD) && !operands[1].is_invalid() &&
        PyEq(operands[1], 0))
      return {};
    out.push_back(ExecAlu(a.op(), a.dtype().scalar(), operands,
                          /*truncate_output=*/n > 1 || (dtypes::is_unsigned(a.dtype()) &&
                                                        !kFloatValued.contains(a.op()))));
  }
  return n == 1 ? a.const_like(out[0]) : ConstLikeLanes(a, out);
}

// ** pow **

// x ** c for a const c: negative -> reciprocal, 0 -> 1, half-integer -> pow*sqrt, integer ->
// square and multiply.
UOp SimplifyPow(const Match& m) {
  const UOp &x = m["x"], &c = m["c"];
  const ConstValue& v = ConstArg(c);
  if (!std::isfinite(v.to_float())) return {};  // tinygrad's int(c.arg) raises
  if (PyLt(v, 0)) return x.reciprocal().pow(-c);
  if (PyEq(v, 0)) return x.const_like(1);
  if (PyEq(ConstValue(static_cast<i128>(std::trunc(v.to_float() - 0.5))) + ConstValue(0.5), v))
    return x.pow(c.const_like(v - ConstValue(0.5))) * x.sqrt();
  if (PyEq(ConstValue(static_cast<i128>(std::trunc(v.to_float()))), v)) {
    UOp y = x.pow(c.const_like(FloorDiv(v, 2)));
    return PyEq(FloorMod(v, 2), 1) ? y * y * x : y * y * ConstValue(1);
  }
  return {};
}

// c ** x for a const c: 1 -> 1, c > 0 -> exp2(x*log2(c)).
UOp FoldConstBasePow(const Match& m) {
  const UOp &c = m["c"], &x = m["x"];
  const ConstValue& v = ConstArg(c);
  if (PyEq(v, 1)) return c;
  if (PyGt(v, 0)) return (x * ConstValue(std::log2(v.to_float()))).exp2();
  return {};
}

// ** bitcast **

// The bytes of struct.pack(fmt, v), little-endian, in a uint64; false when struct would fail.
bool Pack(char fmt, const ConstValue& v, uint64_t* bits) {
  auto int_in = [&](i128 lo, i128 hi) {
    if (!(v.is_int() || v.is_bool())) return false;
    i128 x = v.to_int();
    if (x < lo || x > hi) return false;
    *bits = static_cast<uint64_t>(static_cast<int64_t>(x));
    if (x > std::numeric_limits<int64_t>::max()) *bits = static_cast<uint64_t>(x);
    return true;
  };
  switch (fmt) {
    case '?':
      *bits = Truthy(v) ? 1 : 0;
      return true;
    case 'b':
      return int_in(-128, 127) && ((*bits &= 0xFF), true);
    case 'B':
      return int_in(0, 255);
    case 'h':
      return int_in(-32768, 32767) && ((*bits &= 0xFFFF), true);
    case 'H':
      return int_in(0, 65535);
    case 'i':
      return int_in(INT32_MIN, INT32_MAX) && ((*bits &= 0xFFFFFFFF), true);
    case 'I':
      return int_in(0, UINT32_MAX);
    case 'q':
      return int_in(INT64_MIN, INT64_MAX);
    case 'Q':
      return int_in(0, static_cast<i128>(UINT64_MAX));
    case 'f': {
      if (!(v.is_float() || v.is_int() || v.is_bool())) return false;
      float f = static_cast<float>(v.to_float());
      if (std::isinf(f) && std::isfinite(v.to_float())) return false;  // OverflowError
      uint32_t b;
      std::memcpy(&b, &f, 4);
      *bits = b;
      return true;
    }
    case 'd': {
      if (!(v.is_float() || v.is_int() || v.is_bool())) return false;
      double d = v.to_float();
      std::memcpy(bits, &d, 8);
      return true;
    }
    case 'e': {
      if (!(v.is_float() || v.is_int() || v.is_bool())) return false;
      double h = RoundToFloat16(v.to_float());
      if (std::isinf(h) && std::isfinite(v.to_float())) return false;  // OverflowError
      // Encode the (exactly representable) half.
      uint16_t sign = std::signbit(h) ? 0x8000 : 0;
      double a = std::fabs(h);
      uint16_t out;
      if (std::isnan(h)) {
        out = 0x7E00;
      } else if (std::isinf(a)) {
        out = 0x7C00;
      } else if (a < 6.103515625e-05) {  // subnormal: a = m * 2**-24
        out = static_cast<uint16_t>(std::lround(a * 16777216.0));
      } else {
        int e;
        double frac = std::frexp(a, &e);  // a = frac * 2**e, frac in [0.5, 1)
        out = static_cast<uint16_t>(((e + 14) << 10) | (std::lround(frac * 2048.0) - 1024));
      }
      *bits = sign | out;
      return true;
    }
    default:
      return false;
  }
}

// struct.unpack(fmt, bytes)[0] of the little-endian bits.
ConstValue Unpack(char fmt, uint64_t bits) {
  switch (fmt) {
    case '?':
      return ConstValue((bits & 0xFF) != 0);
    case 'b':
      return ConstValue(static_cast<int64_t>(static_cast<int8_t>(bits)));
    case 'B':
      return ConstValue(static_cast<int64_t>(static_cast<uint8_t>(bits)));
    case 'h':
      return ConstValue(static_cast<int64_t>(static_cast<int16_t>(bits)));
    case 'H':
      return ConstValue(static_cast<int64_t>(static_cast<uint16_t>(bits)));
    case 'i':
      return ConstValue(static_cast<int64_t>(static_cast<int32_t>(bits)));
    case 'I':
      return ConstValue(static_cast<int64_t>(static_cast<uint32_t>(bits)));
    case 'q':
      return ConstValue(static_cast<int64_t>(bits));
    case 'Q':
      return ConstValue(static_cast<i128>(bits));
    case 'f': {
      float f;
      uint32_t b = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b, 4);
      return ConstValue(static_cast<double>(f));
    }
    case 'd': {
      double d;
      std::memcpy(&d, &bits, 8);
      return ConstValue(d);
    }
    default: {  // 'e'
      uint16_t h = static_cast<uint16_t>(bits);
      int e = (h >> 10) & 0x1F, mant = h & 0x3FF;
      double a = e == 0    ? std::ldexp(mant, -24)
                 : e == 31 ? (mant ? kNan : std::numeric_limits<double>::infinity())
                           : std::ldexp(mant + 1024, e - 25);
      return ConstValue((h & 0x8000) ? -a : a);
    }
  }
}

// BITCAST of a const: repack the bytes (struct.pack/unpack) when both formats are known.
UOp FoldBitcast(const Match& m) {
  const UOp &root = m["root"], &c = m["c"];
  char from_fmt = c.dtype().scalar().fmt(), to_fmt = root.dtype().scalar().fmt();
  if (from_fmt == '\0' || to_fmt == '\0') return {};
  if (c.dtype().itemsize() != root.dtype().itemsize()) return {};
  auto convert = [&](const ConstValue& v, ConstValue* out) {
    uint64_t bits = 0;
    if (!Pack(from_fmt, v, &bits)) return false;
    *out = Unpack(to_fmt, bits);
    return true;
  };
  int n = root.dtype().count();
  std::vector<ConstValue> lanes;
  for (const ConstValue& v :
       ConstLanes(c, c.op() == Ops::VCONST ? static_cast<int>(c.arg().size()) : 1)) {
    ConstValue out;
    if (!convert(v, &out)) return {};
    lanes.push_back(out);
  }
  if (n == 1 || lanes.size() == 1) return root.const_like(lanes[0]);
  if (static_cast<int>(lanes.size()) != n) return {};
  return ConstLikeLanes(root, lanes);
}

// ** div/mod recombination **

// The product of two const args, or nullopt-like false when either is not a CONST (tinygrad
// multiplies the Python values; tuples there would raise).
bool ConstProductIs(const UOp& a, const UOp& b, const UOp& want) {
  if (a.op() != Ops::CONST || b.op() != Ops::CONST || want.op() != Ops::CONST) return false;
  return PyEq(ConstArg(a) * ConstArg(b), ConstArg(want));
}

// x*0 -> 0, or NaN when x is a NaN/inf float const (it should render as NaN).
UOp FoldMulZero(const Match& m) {
  const UOp& x = m["x"];
  bool nan =
      x.op() == Ops::CONST && ConstArg(x).is_float() && !std::isfinite(ConstArg(x).to_float());
  return nan ? x.const_like(kNan) : x.const_like(0);
}

// CAST of a const -> the const, converted (as_const; to an unsigned int also wrapped, see
// FoldConstAlu: tinygrad keeps e.g. a uint16 const of 2**20 that later folds get wrong).
UOp FoldCastConst(const Match& m) {
  const UOp &root = m["root"], &c = m["c"];
  int n = c.op() == Ops::VCONST ? static_cast<int>(c.arg().size()) : 1;
  std::vector<ConstValue> lanes = ConstLanes(c, n);
  for (ConstValue& v : lanes) v = WrapUnsigned(dtypes::as_const(v, root.dtype()), root.dtype());
  if (c.op() == Ops::VCONST) return ConstLikeLanes(root, lanes);
  return root.const_like(lanes[0]);
}

// x < x, x != x -> False (a bool of x's width)
UOp FalseLikeX(const Match& m) {
  return m["x"].const_like(false).cast(BoolVec(m["x"].dtype().count()));
}

// cast/bitcast to the same dtype -> x
UOp DropSameDtypeCast(const Match& m) {
  const UOp& root = m["root"];
  return root.dtype() == root.src(0).dtype() ? root.src(0) : UOp();
}

// x.cast(a).cast(b) -> x when b is x's dtype and a holds every value of b
UOp DropRoundTripCast(const Match& m) {
  const UOp &x = m["x"], &a = m["a"], &b = m["b"];
  return x.dtype() == b.dtype() && dtypes::can_lossless_cast(b.dtype(), a.dtype()) ? x : UOp();
}

}  // namespace

const PatternMatcher& PropagateInvalid() {
  static const auto* const kRules = [] {
    UPat i = UPat(Ops::CONST).arg(ConstValue::Invalid()).named("i");
    UPat invalid_gate = UPat::Var("cond").where(UPat::Var("x"), i);
    UPat y = UPat::Var("y");
    std::vector<Rule> rules = {
        // propagate invalid, push it past children: cast(where(c, x, Invalid)) -> cast(x)
        {invalid_gate.cast().named("cast"),
         [](const Match& m) { return m["x"].cast(m["cast"].dtype()); }},
    };
    OpSet binary_no_cmp;
    GroupOp::Binary.ForEach([&](Ops op) {
      if (!GroupOp::Comparison.contains(op)) binary_no_cmp.Add(op);
    });
    // where(c, x, Invalid) op y -> where(c, x op y, Invalid)
    binary_no_cmp.ForEach([&](Ops op) {
      rules.push_back(Rule(invalid_gate.alu(op, {y}).named("alu"), [](const Match& m) {
                         return m["cond"].where(m["x"].alu(m["alu"].op(), {m["y"]}), m["i"]);
                       }));
    });
    // where(c, x, Invalid) cmp y -> x cmp y (tinygrad's TODO: when is dropping the gate safe?)
    GroupOp::Comparison.ForEach([&](Ops op) {
      rules.push_back(Rule(invalid_gate.alu(op, {y}).named("alu"),
                           [](const Match& m) { return m["x"].alu(m["alu"].op(), {m["y"]}); }));
    });
    // Invalid op y -> Invalid
    binary_no_cmp.ForEach([&](Ops op) {
      rules.push_back(
          Rule(i.alu(op, {UPat().dtype(dtypes::index)}), [](const Match& m) { return m["i"]; }));
    });
    return new PatternMatcher(std::move(rules));
  }();
  return *kRules;
}

const PatternMatcher& SymbolicSimple() {
  static const auto* const kRules = [] {
    UPat x = UPat::Var("x"), y = UPat::Var("y");
    UPat x_int = UPat::Var("x", IntsBoolIndexDtypes());
    UPat x_bool = UPat::Var("x", {dtypes::bool_}), y_bool = UPat::Var("y", {dtypes::bool_});
    UPat c = UPat::CVar("c"), a = UPat::CVar("a"), b = UPat::CVar("b");
    UPat c1 = UPat::CVar("c1"), c2 = UPat::CVar("c2"), c3 = UPat::CVar("c3");
    UPat any_const = UPat(OpSet{Ops::VCONST, Ops::CONST});
    OpSet binary_no_threefry;
    GroupOp::Binary.ForEach([&](Ops op) {
      if (op != Ops::THREEFRY) binary_no_threefry.Add(op);
    });
    UPat x_u64 = UPat::Var("x", {dtypes::uint64}), y_u32 = UPat::Var("y", {dtypes::uint32});
    UPat any_u64 = UPat::Var("", {dtypes::uint64}), any_u32 = UPat::Var("", {dtypes::uint32});
    UPat shifted_mul = (any_u64 * ConstValue(int64_t{1} << 32)) | y_u32.cast(dtypes::uint64);
    UPat x_shifted_mul = (x_u64 * ConstValue(int64_t{1} << 32)) | any_u32.cast(dtypes::uint64);
    UPat shifted_shl = (any_u64 << any_u64.const_like(32)) | y_u32.cast(dtypes::uint64);
    UPat x_shifted_shl = (x_u64 << x_u64.const_like(32)) | any_u32.cast(dtypes::uint64);
    return new PatternMatcher(
        PropagateInvalid() +
        PatternMatcher({
            // ** self folding **
            Rule(x + ConstValue(0), [](const Match& m) { return m["x"]; }),            // x+0 -> x
            Rule(x * ConstValue(1), [](const Match& m) { return m["x"]; }),            // x*1 -> x
            Rule(x_int ^ x_int.const_like(0), [](const Match& m) { return m["x"]; }),  // x^0 -> x
            Rule(x.idiv(x), [](const Match& m) { return m["x"].const_like(1); }),      // x//x -> 1
            Rule(x.idiv(x.const_like(1)), [](const Match& m) { return m["x"]; }),      // x//1 -> x
            Rule(x.idiv(x.const_like(-1)), [](const Match& m) { return -m["x"]; }),    // x//-1 -> -x
            // (x%y)%y -> x%y
            Rule((UPat::Var() % y).named("base") % y, [](const Match& m) { return m["base"]; }),
            // x%c + (x//c)*c -> x
            Rule(x % c + x.idiv(c) * c, [](const Match& m) { return m["x"]; }),
            // (x//a)%c + (x//b)*c -> x//a when a*c == b
            Rule(x.idiv(a) % c + x.idiv(b) * c,
             [](const Match& m) {
               return ConstProductIs(m["a"], m["c"], m["b"]) ? m["x"].idiv(m["a"]) : UOp();
             }),
            // (x//c1)*c3 + (x%c1)*c2 -> x*c2 when c1*c2 == c3
            Rule(x.idiv(c1) * c3 + x % c1 * c2,
             [](const Match& m) {
               return ConstProductIs(m["c1"], m["c2"], m["c3"]) ? m["x"] * m["c2"] : UOp();
             }),
            // (y + (x//c)*c) + x%c -> y+x
            Rule((y + x.idiv(c) * c) + x % c, [](const Match& m) { return m["y"] + m["x"]; }),
            // (y + x%c) + (x//c)*c -> y+x
            Rule((y + x % c) + x.idiv(c) * c, [](const Match& m) { return m["y"] + m["x"]; }),
            // (y + (x//c1)*c3) + (x%c1)*c2 -> y + x*c2 when c1*c2 == c3
            Rule((y + x.idiv(c1) * c3) + x % c1 * c2,
             [](const Match& m) {
               return ConstProductIs(m["c1"], m["c2"], m["c3"]) ? m["y"] + m["x"] * m["c2"] : UOp();
             }),
            // (y + (x%c1)*c2) + (x//c1)*c3 -> y + x*c2 when c1*c2 == c3
            Rule((y + x % c1 * c2) + x.idiv(c1) * c3,
             [](const Match& m) {
               return ConstProductIs(m["c1"], m["c2"], m["c3"]) ? m["y"] + m["x"] * m["c2"] : UOp();
             }),
            // x & c -> c ? x : c (bool)
            Rule(x_bool & UPat::CVar("c", {}, false),
             [](const Match& m) { return Truthy(ConstArg(m["c"])) ? m["x"] : m["c"]; }),
            // x | c -> c ? c : x (bool)
            Rule(x_bool | UPat::CVar("c", {}, false),
             [](const Match& m) { return Truthy(ConstArg(m["c"])) ? m["c"] : m["x"]; }),
            // x op x -> x for idempotent ops
            Rule(UPat(GroupOp::Idempotent).src({x, x}), [](const Match& m) { return m["x"]; }),
            // !!x -> x
            Rule(x_bool.logical_not().logical_not(), [](const Match& m) { return m["x"]; }),
            // where(x, True, False) -> x
            Rule(x_bool.where(UPat::Const(dtypes::bool_, true), UPat::Const(dtypes::bool_, false)),
             [](const Match& m) { return m["x"]; }),
            // where(x, False, True) -> !x
            Rule(x_bool.where(UPat::Const(dtypes::bool_, false), UPat::Const(dtypes::bool_, true)),
             [](const Match& m) { return m["x"].logical_not(); }),
            // trunc(x) -> x for ints
            Rule(x_int.alu(Ops::TRUNC), [](const Match& m) { return m["x"]; }),
            // ** zero folding **
            // x < x -> False
            Rule(x.lt(x), FalseLikeX),
            Rule(x % x, [](const Match& m) { return m["x"].const_like(0); }),  // x%x -> 0
            Rule(x ^ x, [](const Match& m) { return m["x"].const_like(0); }),  // x^x -> 0
            // x != x -> False (only ints)
            Rule(x_int.ne(x_int), FalseLikeX),
            // ** constant folding **
            // op(consts) -> const
            Rule(UPat(GroupOp::Unary).src({any_const}).named("a"), FoldConstAlu),
            Rule(UPat(binary_no_threefry).src({any_const, any_const}).named("a"), FoldConstAlu),
            Rule(UPat(GroupOp::Ternary).src({any_const, any_const, any_const}).named("a"),
             FoldConstAlu),
            // bool MUL is AND, ADD/MAX is OR (keeps other rules from rewriting them as numbers)
            Rule(x_bool * y_bool, [](const Match& m) { return m["x"] & m["y"]; }),         // x*y -> x&y
            Rule(x_bool + y_bool, [](const Match& m) { return m["x"] | m["y"]; }),         // x+y -> x|y
            Rule(x_bool.maximum(y_bool), [](const Match& m) { return m["x"] | m["y"]; }),  // max -> |
            // *** div rules ***
            // 0/0 -> nan
            Rule(Div(UPat::CVar("x").arg(0), UPat::CVar("x").const_like(0)),
             [](const Match& m) { return m["x"].const_like(kNan); }),
            // (x*0)/0 -> nan
            Rule(Div(x * ConstValue(0), (x * ConstValue(0)).const_like(0)),
             [](const Match& m) { return m["x"].const_like(kNan); }),
            // x/x -> 1 (wrong when x is 0)
            Rule(Div(x, x), [](const Match& m) { return m["x"].const_like(1); }),
            // (x*x2)/x2 -> x (wrong when x2 is 0)
            Rule(Div(x * UPat::Var("x2"), UPat::Var("x2")), [](const Match& m) { return m["x"]; }),
            // x*0 -> 0, NaN for a NaN/inf const x (wrong for a loaded NaN)
            Rule(x * ConstValue(0), FoldMulZero),
            // *** cast/bitcast ***
            // cast(c) -> c
            Rule(UPat(Ops::CAST).named("root").src({c}), FoldCastConst),
            // cast/bitcast to the same dtype -> x
            Rule(UPat(OpSet{Ops::CAST, Ops::BITCAST}).named("root"), DropSameDtypeCast),
            // bitcast(c) -> c with its bytes reinterpreted
            Rule(UPat(Ops::BITCAST).named("root").src({c}), FoldBitcast),
            // x.cast(a).cast(b) -> x when b is x's dtype and a holds every value of b
            Rule(x.cast().named("a").cast().named("b"), DropRoundTripCast),
            // ** pow **
            Rule(x.alu(Ops::POW, {UPat::CVar("c", {}, false)}), SimplifyPow),  // x**c -> mul chain
            // c**x -> exp2(x*log2(c)) for c > 0, 1**x -> 1
            Rule(UPat::CVar("c", {}, false).alu(Ops::POW, {x}), FoldConstBasePow),
            // ** rules for threefry **
            // (x & 0xFFFFFFFF).cast(uint32) -> x.cast(uint32)
            Rule((x_u64 & ConstValue(int64_t{0xFFFFFFFF})).cast(dtypes::uint32),
             [](const Match& m) { return m["x"].cast(dtypes::uint32); }),
            // ((_*2**32) | y.cast(uint64)).cast(uint32) -> y
            Rule(shifted_mul.cast(dtypes::uint32), [](const Match& m) { return m["y"]; }),
            // ((x*2**32) | _.cast(uint64)) // 2**32 -> x
            Rule(x_shifted_mul.idiv(x_shifted_mul.const_like(int64_t{1} << 32)),
             [](const Match& m) { return m["x"]; }),
            // ((_<<32) | y.cast(uint64)).cast(uint32) -> y
            Rule(shifted_shl.cast(dtypes::uint32), [](const Match& m) { return m["y"]; }),
            // ((x<<32) | _.cast(uint64)) >> 32 -> x
            Rule(x_shifted_shl >> x_shifted_shl.const_like(32), [](const Match& m) { return m["x"]; }),
            // ** simple where folding **
            // where(_, v, v) -> v
            Rule(UPat::Var().where(UPat::Var("val"), UPat::Var("val")),
             [](const Match& m) { return m["val"]; }),
            // where(const gate, c0, c1) -> c0 or c1
            Rule(UPat::CVar("gate", {}, false).where(UPat::Var("c0"), UPat::Var("c1")),
             [](const Match& m) { return Truthy(ConstArg(m["gate"])) ? m["c0"] : m["c1"]; }),
            // where(a, where(b, c, d), d) -> where(a&b, c, d)
            Rule(UPat::Var("a").where(UPat::Var("b").where(UPat::Var("c"), UPat::Var("d")),
                                  UPat::Var("d")),
             [](const Match& m) { return (m["a"] & m["b"]).where(m["c"], m["d"]); }),
        }));
  }();
  return *kRules;
}

}  // namespace tg
