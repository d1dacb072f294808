// File: tinygrad/uop/pyrender.cc
// Port of tinygrad/uop/ops.py: pm_pyrender_extra, pm_pyrender and pyrender.
#include "tinygrad/uop/pyrender.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

using Names = absl::flat_hash_map<UOp, std::string>;  // the reference's ctx: node -> its text

// helpers.strip_parens: "(a+b)" -> "a+b", but "(a)+(b)" stays.
std::string StripParens(const std::string& s) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
  int depth = 0;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    depth += (s[i] == '(') - (s[i] == ')');
    if (depth < 0) return s;
  }
  return depth == 0 ? s.substr(1, s.size() - 2) : s;
}

// ops.py syms and precedence (comparisons are not in precedence: Python chains them).
std::optional<std::string_view> Sym(Ops op) {
  switch (op) {
    case Ops::ADD: return "+";
    case Ops::SUB: return "-";
    case Ops::IDIV: return "//";
    case Ops::MOD: return "%";
    case Ops::SHL: return "<<";
    case Ops::SHR: return ">>";
    case Ops::MUL: return "*";
    case Ops::CMPLT: return "<";
    case Ops::CMPNE: return "!=";
    case Ops::AND: return "&";
    case Ops::OR: return "|";
    case Ops::XOR: return "^";
    default: return std::nullopt;
  }
}
int Precedence(Ops op) {
  switch (op) {
    case Ops::MUL: case Ops::IDIV: case Ops::MOD: return 1;
    case Ops::ADD: case Ops::SUB: return 2;
    case Ops::SHL: case Ops::SHR: return 3;
    case Ops::AND: return 4;
    case Ops::XOR: return 5;
    case Ops::OR: return 6;
    default: return 99;  // not in the table
  }
}

// ops.py strip_binary_parens with the "(a<op>b)" formatter.
std::string Binary(const UOp& x, std::string left, std::string right) {
  const std::string sym(*Sym(x.op()));
  const int p = Precedence(x.op());
  if (p != 99) {
    if (Precedence(x.src(0).op()) <= p) left = StripParens(left);
    if (Precedence(x.src(1).op()) < p) right = StripParens(right);
  }
  return absl::StrCat("(", left, sym, right, ")");
}

std::string Lower(Ops op) { return absl::AsciiStrToLower(std::string(OpName(op))); }

// Python's repr of an arg; KernelInfo and its opts as the reference's dataclasses print.
std::string ArgRepr(const Arg& a) {
  if (!KernelInfo::IsKernelInfo(a)) return a.repr();
  KernelInfo k = KernelInfo::FromArg(a);
  auto opt_repr = [](const Arg& o) {  // (name, axis, arg) -> Opt(op=OptOps.NAME, axis=.., arg=..)
    return o.is_tuple() && o.size() == 3 && o[0].is_string()
               ? absl::StrCat("Opt(op=OptOps.", o[0].str(), ", axis=", o[1].repr(), ", arg=", o[2].repr(), ")")
               : o.repr();
  };
  auto tuple = [](const std::vector<std::string>& parts) {
    return parts.size() == 1 ? "(" + parts[0] + ",)" : "(" + absl::StrJoin(parts, ", ") + ")";
  };
  std::vector<std::string> axes, applied, to_apply;
  for (AxisType t : k.axis_types) axes.push_back(Arg(t).repr());
  for (const Arg& o : k.applied_opts) applied.push_back(opt_repr(o));
  if (k.opts_to_apply)
    for (const Arg& o : *k.opts_to_apply) to_apply.push_back(opt_repr(o));
  return absl::StrCat("KernelInfo(name=", Arg(k.name).repr(), ", axis_types=", tuple(axes),
                      ", dont_use_locals=", k.dont_use_locals ? "True" : "False",
                      ", applied_opts=", tuple(applied),
                      ", opts_to_apply=", k.opts_to_apply ? tuple(to_apply) : "None", ")");
}

// ops.py srcs(): "(a,)" for one source, "(a, b)" otherwise.
std::string Srcs(const Names& r, std::span<const UOp> src) {
  std::vector<std::string> parts;
  for (const UOp& s : src) parts.push_back(r.at(s));
  return parts.size() == 1 ? "(" + parts[0] + ",)" : "(" + absl::StrJoin(parts, ", ") + ")";
}

bool IsSugar(Ops op) {
  switch (op) {
    case Ops::SINK: case Ops::END: case Ops::STORE: case Ops::LOAD: case Ops::UNIQUE:
    case Ops::SQRT: case Ops::INDEX: case Ops::REDUCE: case Ops::AFTER: case Ops::THREEFRY:
    case Ops::WHERE: case Ops::RECIPROCAL: case Ops::EXP2: case Ops::LOG2: case Ops::SIN:
    case Ops::CONTIGUOUS: case Ops::BARRIER: case Ops::ASSIGN: case Ops::DETACH:
      return true;
    default:
      return false;
  }
}

// pm_pyrender_extra: the sugared forms; nullopt where the reference's rules return None.
std::optional<std::string> Sugared(const UOp& x, const Names& r) {
  const auto src = x.src();
  const std::string dt = x.dtype().repr();
  switch (x.op()) {
    case Ops::CONST:
      if (src.size() == 2 && src[0].op() == Ops::DEVICE && src[1].op() == Ops::UNIQUE)
        return absl::StrCat("UOp.unique_const(", dt, ", ", x.arg().repr(), ", device=", src[0].arg().repr(),
                            ", unique=", src[1].arg().repr(), ")");
      if (src.size() == 1 && src[0].op() == Ops::DEVICE)
        return absl::StrCat("UOp.const(", dt, ", ", x.arg().repr(), ", device=", src[0].arg().repr(), ")");
      return absl::StrCat("UOp.const(", dt, ", ", x.arg().repr(), ")");
    case Ops::DEFINE_VAR:
      if (!src.empty()) break;
      return absl::StrCat("UOp.variable(\"", x.arg()[0].str(), "\", ", x.arg()[1].repr(), ", ", x.arg()[2].repr(),
                          x.dtype() != dtypes::index ? ", dtype=" + dt : "", ")");
    case Ops::CAST:
    case Ops::BITCAST:
      return absl::StrCat(r.at(src[0]), ".", Lower(x.op()), "(", dt, ")");
    case Ops::SPECIAL:
      if (src.size() != 1 || src[0].op() != Ops::CONST) break;
      return absl::StrCat("UOp.special(", src[0].arg().repr(), ", ", x.arg().repr(), ", dtype=", dt, ")");
    case Ops::BUFFER:
      if (src.size() != 2 || src[0].op() != Ops::UNIQUE || src[1].op() != Ops::DEVICE) break;
      return absl::StrCat("UOp.new_buffer(", src[1].arg().repr(), ", ", x.arg().repr(), ", ", dt, ", ",
                          src[0].arg().repr(), ")");
    case Ops::COPY:
      if (src.size() != 2 || src[1].op() != Ops::DEVICE) break;
      return absl::StrCat(r.at(src[0]), ".copy_to_device(", src[1].arg().repr(), ")");
    case Ops::ENCDEC: {
      std::string rest;
      for (size_t i = 1; i < src.size(); ++i) absl::StrAppend(&rest, r.at(src[i]), ", ");
      return absl::StrCat(r.at(src[0]), ".encdec(", rest, "arg=", ArgRepr(x.arg()), ")");
    }
    case Ops::REDUCE_AXIS:
      return absl::StrCat(r.at(src[0]), ".r(", x.arg()[0].repr(), ", ", x.arg()[1].repr(), ")");
    case Ops::RANGE: {
      if (src.empty() || src[0].op() != Ops::CONST) break;
      std::vector<std::string> parts{src[0].arg().repr()};
      for (const Arg& y : x.arg().tuple()) parts.push_back(y.repr());
      return absl::StrCat("UOp.range(", absl::StrJoin(parts, ", "),
                          src.size() > 1 ? ", src=" + Srcs(r, src.subspan(1)) : "",
                          x.dtype() != dtypes::index ? ", dtype=" + dt : "", ")");
    }
    case Ops::INDEX:
      // only a pointer-typed INDEX: a value INDEX falls through to the generic sugar below
      if (src.size() < 2 || src[0].dtype().base() == x.dtype()) break;
      return absl::StrCat(r.at(src[0]), ".index(", r.at(src[1]), ", ", src.size() > 2 ? r.at(src[2]) + ", " : "",
                          src[0].dtype() != x.dtype() ? "dtype=" + dt + ")" : "ptr=True)");
    default:
      break;
  }
  if (Sym(x.op()) && x.op() != Ops::SUB && src.size() == 2) {
    // NOTE: CMPNE has no __rne__, and SUB is written as add/mul, so neither takes a const first
    if (x.op() != Ops::CMPNE && src[0].op() == Ops::CONST) return Binary(x, src[0].arg().repr(), r.at(src[1]));
    if (src[1].op() == Ops::CONST) return Binary(x, r.at(src[0]), src[1].arg().repr());
    return Binary(x, r.at(src[0]), r.at(src[1]));
  }
  if (IsSugar(x.op())) {
    if (src.empty()) return absl::StrCat("UOp.", Lower(x.op()), "(", x.arg().is_none() ? "" : "arg=" + ArgRepr(x.arg()), ")");
    std::vector<std::string> parts;
    for (size_t i = 1; i < src.size(); ++i) parts.push_back(r.at(src[i]));
    if (!x.arg().is_none()) parts.push_back("arg=" + ArgRepr(x.arg()));
    return absl::StrCat(r.at(src[0]), ".", Lower(x.op()), "(", absl::StrJoin(parts, ", "), ")");
  }
  return std::nullopt;
}

// pm_pyrender: the sugar, else UOp(op, dtype, srcs[, arg]).
std::string RenderOne(const UOp& u, const Names& r) {
  if (std::optional<std::string> s = Sugared(u, r)) return *s;
  std::ostringstream os;
  os << "UOp(" << u.op() << ", " << u.dtype().repr() << ", " << Srcs(r, u.src());
  if (!u.arg().is_none()) os << ", " << ArgRepr(u.arg());
  os << ")";
  return os.str();
}

bool NeverNamed(Ops op) { return op == Ops::CONST || op == Ops::VCONST || op == Ops::DEVICE; }
bool AlwaysNamed(Ops op) {
  switch (op) {
    case Ops::DEFINE_GLOBAL: case Ops::LOAD: case Ops::SPECIAL: case Ops::RANGE: case Ops::CONTIGUOUS:
    case Ops::VECTORIZE: case Ops::BUFFER: case Ops::COPY: case Ops::KERNEL: case Ops::WHERE:
    case Ops::END: case Ops::ASSIGN:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string PyRender(const UOp& ast) {
  const std::vector<UOp> lst = ast.toposort();
  // consumer_map_from_toposort, as counts: distinct consumers, and uses by each
  absl::flat_hash_map<UOp, std::vector<UOp>> consumers;
  for (const UOp& u : lst) {
    absl::flat_hash_set<UOp> seen;
    for (const UOp& s : u.src())
      if (seen.insert(s).second) consumers[s].push_back(u);
  }
  absl::flat_hash_set<UOp> named{ast};
  for (const UOp& u : lst) {
    if (u.op() == Ops::SINK)
      for (const UOp& s : u.src()) named.insert(s);
    if (u.op() == Ops::STORE && u.src().size() > 1) named.insert(u.src(1));
    if ((u.op() == Ops::REDUCE || u.op() == Ops::REDUCE_AXIS) && !u.src().empty()) named.insert(u.src(0));
    if (NeverNamed(u.op())) continue;
    // one consumer is not enough: it must also use u only once
    const std::vector<UOp>& cs = consumers[u];
    if (cs.size() == 1 && std::count(cs[0].src().begin(), cs[0].src().end(), u) == 1 && !AlwaysNamed(u.op()))
      continue;
    named.insert(u);
  }
  Names r;
  std::vector<std::string> lines;
  for (size_t i = 0; i < lst.size(); ++i) {
    const UOp& u = lst[i];
    std::string text = RenderOne(u, r);
    if (!u.tag().is_none()) absl::StrAppend(&text, ".rtag(", u.tag().repr(), ")");
    if (!named.contains(u)) {
      r[u] = std::move(text);
      continue;
    }
    std::string name = i + 1 == lst.size() ? "ast" : absl::StrCat("c", i);
    lines.push_back(absl::StrCat(name, " = ", StripParens(text)));
    r[u] = std::move(name);
  }
  return absl::StrJoin(lines, "\n");
}

}  // namespace tg
