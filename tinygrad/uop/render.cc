// Port of tinygrad/uop/ops.py: the `renderer` PatternMatcher (UOp.render), strip_parens
// (tinygrad/helpers.py) and sym_infer. Written as a switch over ops on the toposort: every
// node's string is built from its sources' strings, as the matcher does with its ctx dict.
//
// sym_infer evaluates the graph as given: tinygrad simplifies first, but //tinygrad/uop sits
// below the simplifier. The value is the same (simplification preserves values); only the
// errors differ, for a variable or a division by zero that simplification would remove.
#include "tinygrad/uop/render.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/exec_alu.h"

namespace tg {
namespace {

// tinygrad's syms: the infix spelling of binary ops.
const char* Sym(Ops op) {
  switch (op) {
    case Ops::ADD:
      return "+";
    case Ops::SUB:
      return "-";
    case Ops::IDIV:
      return "//";
    case Ops::MOD:
      return "%";
    case Ops::SHL:
      return "<<";
    case Ops::SHR:
      return ">>";
    case Ops::MUL:
      return "*";
    case Ops::CMPLT:
      return "<";
    case Ops::CMPNE:
      return "!=";
    case Ops::AND:
      return "&";
    case Ops::OR:
      return "|";
    case Ops::XOR:
      return "^";
    default:
      return nullptr;
  }
}

// tinygrad's precedence; comparisons have none (Python chains them).
int Precedence(Ops op) {
  switch (op) {
    case Ops::MUL:
    case Ops::IDIV:
    case Ops::MOD:
      return 1;
    case Ops::ADD:
    case Ops::SUB:
      return 2;
    case Ops::SHL:
    case Ops::SHR:
      return 3;
    case Ops::AND:
      return 4;
    case Ops::XOR:
      return 5;
    case Ops::OR:
      return 6;
    default:
      return 99;
  }
}

// tinygrad's _is_balanced: the depth never goes negative and ends at zero.
bool IsBalanced(std::string_view s) {
  int d = 0;
  for (char c : s) {
    d += (c == '(') - (c == ')');
    if (d < 0) return false;
  }
  return d == 0;
}

// tinygrad's strip_parens: "(x)" -> "x" when the inner text is balanced.
std::string StripParens(const std::string& s) {
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')' &&
      IsBalanced(std::string_view(s).substr(1, s.size() - 2)))
    return s.substr(1, s.size() - 2);
  return s;
}

// tinygrad's range_str: axis ids joined by '_', negatives as "m<abs>".
std::string RangeStr(const UOp& u) {
  std::string out;
  std::span<const Arg> arg = u.arg().tuple();
  for (size_t i = 0; i + 1 < arg.size(); ++i) {
    if (i) out += "_";
    const ConstValue& v = arg[i].number();
    out += NumLess(v, 0) ? "m" + (-v).repr() : v.repr();
  }
  return out;
}

// Python's str() of a const arg: a number's repr, a tuple's repr.
std::string ConstStr(const UOp& u) { return u.arg().repr(); }

std::string RenderNode(const UOp& x, const absl::flat_hash_map<const void*, std::string>& ctx) {
  auto s = [&](size_t i) -> const std::string& { return ctx.at(x.src(i).id()); };
  switch (x.op()) {
    case Ops::DEFINE_VAR:
      return x.arg()[0].str();
    case Ops::SPECIAL:
      return x.arg().str();
    case Ops::RANGE:
      return "r" + RangeStr(x);
    case Ops::CONST:
    case Ops::VCONST:
      return ConstStr(x);
    // tinygrad's UNROLL rule reads an unbound name and raises; this is the string it means.
    case Ops::UNROLL:
      return absl::StrCat("UNROLL(", s(0), ", ", x.arg().repr(), ")");
    case Ops::CAST:
      return absl::StrCat("(", x.dtype().repr().substr(7), ")(", s(0), ")");
    case Ops::BIND:
      return s(0);
    case Ops::NEG:
      return absl::StrCat("(-", s(0), ")");
    case Ops::RECIPROCAL:
      return absl::StrCat("(1/", s(0), ")");
    case Ops::MAX:
      return absl::StrCat("max(", s(0), ", ", s(1), ")");
    case Ops::MULACC:
      return absl::StrCat("(", s(0), "*", s(1), "+", s(2), ")");
    case Ops::WHERE:
      return absl::StrCat("(", s(1), " if ", s(0), " else ", s(2), ")");
    case Ops::INDEX:
    case Ops::BUFFERIZE: {
      std::string out;
      for (size_t i = 1; i < x.src().size(); ++i)
        absl::StrAppend(&out, "[", StripParens(s(i)), "]");
      return out;
    }
    case Ops::VECTORIZE: {
      bool all_same = !x.src().empty();
      for (const UOp& y : x.src()) all_same &= (y == x.src(0));
      if (all_same) return absl::StrCat("{", s(0), ", ...}");
      std::string out = "{";
      for (size_t i = 0; i < x.src().size(); ++i) absl::StrAppend(&out, i ? "," : "", s(i));
      return out + "}";
    }
    default:
      break;
  }
  if (const char* sym = Sym(x.op()); sym != nullptr && x.src().size() == 2) {
    // strip_binary_parens: drop a source's parens where precedence makes them redundant.
    std::string left = s(0), right = s(1);
    int p = Precedence(x.op());
    if (p != 99) {
      if (Precedence(x.src(0).op()) <= p) left = StripParens(left);
      if (Precedence(x.src(1).op()) < p) right = StripParens(right);
    }
    return absl::StrCat("(", left, sym, right, ")");
  }
  return PrettyPrint(x);  // tinygrad: str(x)
}

// ** sym_infer **

using Value = absl::StatusOr<ConstValue>;

absl::Status DivisionByZero(const UOp& u) {
  return absl::InvalidArgumentError(absl::StrCat("sym_infer: division by zero in ", Render(u)));
}

// One node's value from its sources' values. Errors flow up through the sources that use
// them; WHERE is lazy like Python's `a if c else b`, so an error in the branch it does not
// take is dropped.
Value Eval(const UOp& u, const absl::flat_hash_map<const void*, Value>& vals,
           const absl::flat_hash_map<std::string, ConstValue>& vars) {
  auto src = [&](size_t i) -> const Value& { return vals.at(u.src(i).id()); };
  if (u.op() == Ops::WHERE) {
    if (!src(0).ok()) return src(0);
    return src(0)->to_bool() ? src(1) : src(2);
  }
  std::vector<ConstValue> operands;
  for (size_t i = 0; i < u.src().size(); ++i) {
    if (!src(i).ok()) return src(i);
    operands.push_back(*src(i));
  }
  switch (u.op()) {
    case Ops::CONST:
      if (u.arg().number().is_invalid()) return absl::InvalidArgumentError("sym_infer of Invalid");
      return u.arg().number();
    case Ops::DEFINE_VAR: {
      auto it = vars.find(u.arg()[0].str());
      if (it == vars.end())
        return absl::InvalidArgumentError(
            absl::StrCat("sym_infer: no value for variable '", u.arg()[0].str(), "'"));
      return it->second;
    }
    case Ops::BIND:
      return operands[0];
    case Ops::CAST: {
      // The rendered "(int)(x)" evaluates as Python's int(x); likewise float() and bool().
      DType d = u.dtype();
      if (d.count() != 1) break;
      if (dtypes::is_int(d)) return ConstValue(operands[0].to_int());
      if (dtypes::is_float(d)) return ConstValue(operands[0].to_float());
      if (d == dtypes::bool_) return ConstValue(operands[0].to_bool());
      break;
    }
    case Ops::IDIV:
    case Ops::MOD:
      if (operands[1].to_int() == 0) return DivisionByZero(u);
      break;
    case Ops::RECIPROCAL:
      if (operands[0].to_float() == 0) return DivisionByZero(u);
      break;
    default:
      break;
  }
  if (u.dtype().count() == 1 && GroupOp::ALU.contains(u.op())) {
    // Python's eval of the rendered text: exact numbers, no wrapping to the dtype.
    return ExecAlu(u.op(), u.dtype(), operands, /*truncate_output=*/false);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "sym_infer: cannot evaluate ", std::string(OpName(u.op())), " of ", u.dtype().repr()));
}

}  // namespace

std::string Render(const UOp& u) {
  absl::flat_hash_map<const void*, std::string> ctx;
  for (const UOp& n : u.toposort()) ctx.emplace(n.id(), RenderNode(n, ctx));
  return ctx.at(u.id());
}

absl::StatusOr<ConstValue> SymInfer(const UOp& u,
                                    const absl::flat_hash_map<std::string, ConstValue>& vars) {
  absl::flat_hash_map<const void*, Value> vals;
  for (const UOp& n : u.toposort()) vals.emplace(n.id(), Eval(n, vals, vars));
  return vals.at(u.id());
}

}  // namespace tg
