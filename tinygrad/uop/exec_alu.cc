// Port of tinygrad/uop/ops.py: python_alu and exec_alu (one lane; the caller splits vectors).
#include "tinygrad/uop/exec_alu.h"

#include <cmath>
#include <limits>

#include "tinygrad/base/check.h"

namespace tg {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

bool IsIntLike(const ConstValue& v) { return v.is_int() || v.is_bool(); }

// Python's `&`, `|`, `^` on ints and bools: bool op bool stays a bool.
ConstValue Bitwise(Ops op, const ConstValue& a, const ConstValue& b) {
  TG_CHECK(IsIntLike(a) && IsIntLike(b)) << op << " on " << a << " and " << b;
  i128 x = a.to_int(), y = b.to_int();
  i128 r = op == Ops::AND ? (x & y) : op == Ops::OR ? (x | y) : (x ^ y);
  if (a.is_bool() && b.is_bool()) return ConstValue(r != 0);
  return ConstValue(r);
}

// Python's `<<` and `>>` on ints (arithmetic shift; a left shift that leaves i128 saturates).
ConstValue Shift(Ops op, const ConstValue& a, const ConstValue& b) {
  TG_CHECK(IsIntLike(a) && IsIntLike(b)) << op << " on " << a << " and " << b;
  i128 x = a.to_int(), s = b.to_int();
  TG_CHECK(s >= 0) << "negative shift count " << b;
  if (op == Ops::SHR) return ConstValue(s >= 127 ? (x < 0 ? i128{-1} : i128{0}) : x >> s);
  if (x == 0) return ConstValue(0);
  if (s >= 126) return ConstValue(x < 0 ? -kIntInf : kIntInf);
  return a * ConstValue(i128{1} << s);
}

// 2 ** x (tinygrad's safe_exp2): an int for a non-negative int x, else a float (inf on
// overflow). Exact ints past the saturation bound saturate.
ConstValue Exp2(const ConstValue& x) {
  if (IsIntLike(x) && x.to_int() >= 0) {
    i128 e = x.to_int();
    return ConstValue(e >= 126 ? kIntInf : i128{1} << e);
  }
  return ConstValue(std::exp2(x.to_float()));
}

// Python's pow(x, y) as tinygrad's safe_pow: complex results are NaN, 0 ** negative is inf.
ConstValue Pow(const ConstValue& x, const ConstValue& y) {
  if (IsIntLike(x) && IsIntLike(y) && y.to_int() >= 0) {
    ConstValue acc(1), base(x.to_int());
    for (i128 e = y.to_int(); e > 0; e >>= 1) {  // square and multiply, saturating
      if (e & 1) acc = acc * base;
      if (e > 1) base = base * base;
    }
    return acc;
  }
  double a = x.to_float(), b = y.to_float();
  if (a == 0 && b < 0) return ConstValue(kInf);  // ZeroDivisionError
  if (a < 0 && std::isfinite(b) && b != std::trunc(b)) return ConstValue(kNan);  // complex
  return ConstValue(std::pow(a, b));
}

ConstValue Unary(Ops op, const ConstValue& x) {
  switch (op) {
    case Ops::LOG2: {
      double v = x.to_float();
      return ConstValue(v > 0 ? std::log2(v) : v == 0 ? -kInf : kNan);
    }
    case Ops::SQRT: {
      double v = x.to_float();
      return ConstValue(v >= 0 ? std::sqrt(v) : kNan);
    }
    case Ops::RECIPROCAL: {
      double v = x.to_float();
      return ConstValue(v != 0 ? 1.0 / v : std::copysign(kInf, v));
    }
    case Ops::SIN: {
      double v = x.to_float();
      return ConstValue(std::isinf(v) ? kNan : std::sin(v));
    }
    case Ops::TRUNC:
      // math.trunc gives an int; of inf/nan it raises, and we keep the value (C's trunc).
      if (IsIntLike(x)) return ConstValue(x.to_int());
      if (!std::isfinite(x.to_float())) return x;
      return ConstValue(static_cast<i128>(std::trunc(x.to_float())));
    case Ops::NEG:
      return -x;
    default:
      TG_CHECK(false) << "exec_alu: " << op << " is not a unary op";
      return {};
  }
}

ConstValue Binary(Ops op, const ConstValue& a, const ConstValue& b) {
  switch (op) {
    case Ops::ADD:
      return a + b;
    case Ops::SUB:
      return a - b;
    case Ops::MUL:
      return a * b;
    case Ops::CMPNE:
      return ConstValue(!NumEq(a, b));
    case Ops::CMPEQ:
      return ConstValue(NumEq(a, b));
    case Ops::CMPLT:
      return ConstValue(NumLess(a, b));
    case Ops::XOR:
    case Ops::OR:
    case Ops::AND:
      return Bitwise(op, a, b);
    case Ops::SHL:
    case Ops::SHR:
      return Shift(op, a, b);
    case Ops::MAX:
      return NumLess(a, b) ? b : a;  // Python max(a, b): the first of equals
    case Ops::MOD: {
      i128 y = b.to_int();
      return ConstValue(y == 0 ? a.to_int() : CMod(a.to_int(), y));
    }
    case Ops::IDIV: {
      i128 y = b.to_int();
      return ConstValue(y == 0 ? i128{0} : CDiv(a.to_int(), y));
    }
    case Ops::POW:
      return Pow(a, b);
    case Ops::FDIV:
      return ConstValue(a.to_float() / b.to_float());
    default:
      TG_CHECK(false) << "exec_alu: " << op << " is not a binary op";
      return {};
  }
}

// Python's comparisons involving Invalid (InvalidType orders before and after everything but
// itself, and equals only itself).
ConstValue CompareInvalid(Ops op, const ConstValue& a, const ConstValue& b) {
  bool same = a.is_invalid() && b.is_invalid();
  if (op == Ops::CMPEQ) return ConstValue(same);
  return ConstValue(!same);  // CMPNE, CMPLT
}

// A fixed-width int result that Python computes exactly and then wraps (ctypes): computed
// modulo 2**64 here, so that products and shifts past our 128-bit ints still wrap exactly.
// False when `op` is not one of these or an operand is not a 64-bit int.
bool WrappingIntOp(Ops op, std::span<const ConstValue> operands, ConstValue* out) {
  if (op != Ops::ADD && op != Ops::SUB && op != Ops::MUL && op != Ops::SHL && op != Ops::NEG &&
      op != Ops::EXP2)
    return false;
  uint64_t v[2] = {0, 0};
  for (size_t i = 0; i < operands.size(); ++i) {
    const ConstValue& x = operands[i];
    if (!IsIntLike(x)) return false;
    i128 w = x.to_int();
    if (w < -(i128{1} << 64) || w >= (i128{1} << 64)) return false;
    v[i] = static_cast<uint64_t>(w);
  }
  uint64_t r;
  switch (op) {
    case Ops::ADD:
      r = v[0] + v[1];
      break;
    case Ops::SUB:
      r = v[0] - v[1];
      break;
    case Ops::MUL:
      r = v[0] * v[1];
      break;
    case Ops::NEG:
      r = uint64_t{0} - v[0];
      break;
    case Ops::SHL:
      if (operands[1].to_int() < 0) return false;
      r = operands[1].to_int() >= 64 ? 0 : v[0] << operands[1].to_int();
      break;
    default:  // EXP2 of an int: 2**x, an int only for x >= 0
      if (operands[0].to_int() < 0) return false;
      r = operands[0].to_int() >= 64 ? 0 : uint64_t{1} << operands[0].to_int();
      break;
  }
  *out = ConstValue(static_cast<i128>(r));
  return true;
}

}  // namespace

ConstValue ExecAlu(Ops op, DType dtype, std::span<const ConstValue> operands,
                   bool truncate_output) {
  TG_CHECK(dtype.count() == 1) << "ExecAlu on a vector dtype " << dtype;
  TG_CHECK(operands.size() == (GroupOp::Binary.contains(op)  ? 2u
                               : GroupOp::Unary.contains(op) ? 1u
                                                             : 3u))
      << op << " with " << operands.size() << " operands";
  bool any_invalid = false;
  for (const ConstValue& v : operands) any_invalid |= v.is_invalid();
  if (any_invalid) {
    // tinygrad: an index binary op with Invalid is Invalid; elsewhere Python's InvalidType
    // decides (comparisons order it against anything, `where` picks it like any value).
    if (GroupOp::Comparison.contains(op) && dtype != dtypes::index)
      return CompareInvalid(op, operands[0], operands[1]);
    if (op == Ops::WHERE)
      return (operands[0].is_invalid() || operands[0].to_bool()) ? operands[1] : operands[2];
    return ConstValue::Invalid();
  }
  ConstValue out;
  if (truncate_output && dtypes::is_int(dtype) && dtype != dtypes::index &&
      WrappingIntOp(op, operands, &out))
    return Truncate(out, dtype);
  if (GroupOp::Binary.contains(op)) {
    out = Binary(op, operands[0], operands[1]);
  } else if (op == Ops::EXP2) {
    out = Exp2(operands[0]);
  } else if (GroupOp::Unary.contains(op)) {
    out = Unary(op, operands[0]);
  } else if (op == Ops::WHERE) {
    out = operands[0].to_bool() ? operands[1] : operands[2];
  } else if (op == Ops::MULACC) {
    out = operands[0] * operands[1] + operands[2];
  } else {
    TG_CHECK(false) << "exec_alu: no python_alu for " << op;
  }
  return truncate_output ? Truncate(out, dtype) : out;
}

}  // namespace tg
