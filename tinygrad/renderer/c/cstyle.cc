// File: tinygrad/renderer/c/cstyle.cc
// Port of tinygrad/renderer/cstyle.py: CStyleLanguage (base_rewrite, _render, render_kernel).
#include "tinygrad/renderer/c/cstyle.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "tinygrad/base/check.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/renderer/c/vector_acc.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

bool IsBalanced(std::string_view s) {
  int d = 0;
  for (char c : s) {
    d += (c == '(') - (c == ')');
    if (d < 0) return false;
  }
  return d == 0;
}

bool ScalarIn(DType dt, std::initializer_list<DType> set) {
  for (DType d : set)
    if (dt == d || dt.scalar() == d) return true;
  return false;
}

// tinygrad's range_str: the RANGE arg's ints joined by '_', negatives as "m<abs>".
std::string RangeStr(const UOp& u) {
  std::span<const Arg> a = u.arg().tuple();
  std::vector<std::string> parts;
  for (size_t i = 0; i + 1 < a.size(); ++i) {
    int64_t x = a[i].int64();
    parts.push_back(x >= 0 ? std::to_string(x) : "m" + std::to_string(-x));
  }
  return absl::StrJoin(parts, "_");
}

// The naming prefix of a uop that is neither a param, a SPECIAL nor a RANGE.
std::string_view PrefixOf(Ops op) {
  switch (op) {
    case Ops::WMMA: return "wmma";
    case Ops::DEFINE_LOCAL: return "temp";
    case Ops::CONST: return "const";
    case Ops::CAST: case Ops::BITCAST: case Ops::VECTORIZE: return "cast";
    case Ops::GEP: return "gep";
    case Ops::INDEX: return "bidx";
    case Ops::DEFINE_REG: return "acc";
    case Ops::LOAD: return "val";
    default: return "alu";
  }
}

// An INDEX with a gate (buf, idx, gate), seen through one CAST (tinygrad's or_casted("bidx")).
const UOp* GatedIndex(const UOp& bidx) {
  const UOp* idx = &bidx;
  if (idx->op() == Ops::CAST && idx->src().size() == 1) idx = &idx->src(0);
  if (idx->op() == Ops::INDEX && idx->src().size() == 3) return idx;
  return nullptr;
}

}  // namespace

std::string StripParens(const std::string& s) {
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')' &&
      IsBalanced(std::string_view(s).substr(1, s.size() - 2)))
    return s.substr(1, s.size() - 2);
  return s;
}

std::string FormatCustom(std::string_view fmt, std::span<const std::string> args) {
  std::string out;
  size_t next_auto = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c == '{' && i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
    } else if (c == '}' && i + 1 < fmt.size() && fmt[i + 1] == '}') {
      out += '}';
      ++i;
    } else if (c == '{') {
      size_t close = fmt.find('}', i);
      TG_CHECK(close != std::string_view::npos) << "unclosed field in " << fmt;
      std::string_view field = fmt.substr(i + 1, close - i - 1);
      size_t k = next_auto++;
      if (!field.empty()) k = std::stoul(std::string(field));
      TG_CHECK(k < args.size()) << "field " << k << " of " << fmt << " has no source";
      out += args[k];
      i = close;
    } else {
      out += c;
    }
  }
  return out;
}

const std::string& NameOf(const RenderNames& r, const UOp& u) {
  auto it = r.find(u);
  TG_CHECK(it != r.end()) << "source rendered after its user: " << OpName(u.op());
  return it->second;
}

std::vector<DType> UopsToDTypes(std::span<const UOp> uops) {
  std::vector<DType> r;
  absl::flat_hash_set<DType> seen;
  for (const UOp& u : uops)
    if (!u.dtype().is_ptr() && seen.insert(u.dtype()).second) r.push_back(u.dtype());
  return r;
}

std::vector<std::pair<Arg, DType>> WmmaArgs(std::span<const UOp> uops) {
  std::vector<std::pair<Arg, DType>> r;
  for (const UOp& u : uops) {
    if (u.op() != Ops::WMMA) continue;
    std::pair<Arg, DType> key{u.arg(), u.dtype().scalar()};
    if (std::find(r.begin(), r.end(), key) == r.end()) r.push_back(std::move(key));
  }
  return r;
}

std::vector<std::string> VectorMemberNames(int n) {
  static constexpr std::string_view kFirst = "xyzwabcdefghijkl";
  std::vector<std::string> r;
  for (int i = 0; i < n; ++i)
    r.push_back(i < static_cast<int>(kFirst.size()) ? std::string(1, kFirst[i]) : "v" + std::to_string(i));
  return r;
}

CStyleLanguage::CStyleLanguage() {
  code_for_op = OpSet{Ops::SQRT,  Ops::RECIPROCAL, Ops::NEG,   Ops::EXP2,  Ops::LOG2,
                      Ops::SIN,   Ops::TRUNC,      Ops::AND,   Ops::XOR,   Ops::OR,
                      Ops::ADD,   Ops::SUB,        Ops::MUL,   Ops::MOD,   Ops::IDIV,
                      Ops::CMPNE, Ops::SHR,        Ops::SHL,   Ops::CMPLT, Ops::WHERE,
                      Ops::CMPEQ};
}

std::string CStyleLanguage::RenderDType(DType dt, bool /*is_mutable*/) const {
  if (dt.is_ptr()) {
    std::string prefix;
    if (dt.addrspace() == AddrSpace::LOCAL && smem_prefix_for_cast) prefix = smem_prefix;
    if (dt.addrspace() == AddrSpace::GLOBAL) prefix = buffer_prefix;
    return prefix + RenderDType(dt.base()) + "*";
  }
  DType scalar = dt.scalar();
  auto it = type_map.find(scalar.scalar_type());
  std::string name = it != type_map.end() ? it->second : scalar.name();
  if (dt.count() > 1) return absl::StrReplaceAll(name, {{" ", "_"}}) + std::to_string(dt.count());
  return name;
}

std::string CStyleLanguage::RenderCast(DType dt, std::string_view val) const {
  return absl::StrCat("(", RenderDType(dt), ")(", std::string(val), ")");
}

std::string CStyleLanguage::CodeForOp(Ops op, std::span<const std::string> a,
                                      DType /*dtype*/) const {
  TG_CHECK(code_for_op.contains(op)) << "no code for " << op << " in this renderer";
  auto bin = [&](const char* sym) { return absl::StrCat("(", a[0], sym, a[1], ")"); };
  switch (op) {
    case Ops::SQRT: return absl::StrCat("sqrt(", a[0], ")");
    case Ops::RECIPROCAL: return absl::StrCat("(1/", a[0], ")");
    case Ops::NEG: return absl::StrCat("-", a[0]);
    case Ops::EXP2: return absl::StrCat("exp2(", a[0], ")");
    case Ops::LOG2: return absl::StrCat("log2(", a[0], ")");
    case Ops::SIN: return absl::StrCat("sin(", a[0], ")");
    case Ops::TRUNC: return absl::StrCat("trunc(", a[0], ")");
    case Ops::AND: return bin("&");
    case Ops::XOR: return bin("^");
    case Ops::OR: return bin("|");
    case Ops::ADD: return bin("+");
    case Ops::SUB: return bin("-");
    case Ops::MUL: return bin("*");
    case Ops::MOD: return bin("%");
    case Ops::IDIV: return bin("/");
    case Ops::FDIV: return bin("/");
    case Ops::CMPNE: return bin("!=");
    case Ops::SHR: return bin(">>");
    case Ops::SHL: return bin("<<");
    case Ops::CMPLT: return bin("<");
    case Ops::CMPEQ: return bin("==");
    case Ops::WHERE: return absl::StrCat("(", a[0], "?", a[1], ":", a[2], ")");
    default: TG_CHECK(false) << "no C spelling for " << op; return "";
  }
}

std::string CStyleLanguage::CodeForWorkitem(char kind, std::string_view dim) const {
  TG_CHECK(false) << "this renderer has no workitem '" << kind << "' (dim " << dim << ")";
  return "";
}

std::string CStyleLanguage::RenderConst(const UOp& u) const {
  DType dt = u.dtype();
  const ConstValue& v = u.arg().number();
  if (v.is_float() && std::isinf(v.to_float()))  // arg=math.inf / -math.inf
    return "(" + RenderCast(dt, v.to_float() > 0 ? infinity : "-" + infinity) + ")";
  if (dtypes::is_float(dt) && v.is_float() && std::isnan(v.to_float()))
    return "(" + RenderCast(dt, nan) + ")";
  if (ScalarIn(dt, {dtypes::float32})) return v.repr() + "f";
  if (ScalarIn(dt, {dtypes::int64})) return v.repr() + "ll";
  if (ScalarIn(dt, {dtypes::uint64})) return Truncate(v, dtypes::uint64).repr() + "ull";
  if (ScalarIn(dt, {dtypes::uint32})) return Truncate(v, dtypes::uint32).repr() + "u";
  if (ScalarIn(dt, {dtypes::bool_})) return v.to_bool() ? "1" : "0";
  // consts are rendered to a larger type and cast
  if (ScalarIn(dt, {dtypes::fp8e4m3, dtypes::fp8e5m2, dtypes::bfloat16, dtypes::float16}))
    return "(" + RenderCast(dt, v.repr() + "f") + ")";
  if (ScalarIn(dt, {dtypes::uint8, dtypes::uint16})) return "(" + RenderCast(dt, v.repr() + "u") + ")";
  if (ScalarIn(dt, {dtypes::int8, dtypes::int16})) return "(" + RenderCast(dt, v.repr()) + ")";
  return v.repr();
}

std::optional<std::string> CStyleLanguage::StringRewrite(const UOp& u,
                                                         const RenderNames& r) const {
  return BaseRewrite(u, r);
}

std::optional<std::string> CStyleLanguage::BaseRewrite(const UOp& u, const RenderNames& r) const {
  auto n = [&](const UOp& x) -> const std::string& { return NameOf(r, x); };
  switch (u.op()) {
    case Ops::DEFINE_REG:
      return absl::StrCat(RenderDType(u.dtype().base()), " ", n(u), "[", u.dtype().size(), "];");
    case Ops::IF: return absl::StrCat("if (", n(u.src(0)), ") {");
    case Ops::ENDIF: case Ops::END: return std::string("}");
    case Ops::WMMA:
      return absl::StrCat("__", u.arg()[0].str(), "(", n(u.src(0)), ", ", n(u.src(1)), ", ",
                          n(u.src(2)), ")");
    case Ops::RANGE:
      return absl::StrCat("for (", RenderDType(u.dtype()), " ", n(u), " = 0; ", n(u), " < ",
                          n(u.src(0)), "; ", n(u), "++) {");
    case Ops::VECTORIZE: {
      TG_CHECK(float4.has_value()) << "this renderer has no vector constructor";
      std::vector<std::string> parts;
      for (const UOp& s : u.src()) parts.push_back(n(s));
      return absl::StrCat(absl::StrReplaceAll(*float4, {{"float4", RenderDType(u.dtype())}}),
                          float4_style.first, absl::StrJoin(parts, ","), float4_style.second);
    }
    case Ops::CAST:
      if (u.dtype().count() > 1 && !u.dtype().is_ptr())
        return absl::StrCat("__builtin_convertvector(", n(u.src(0)), ", ", RenderDType(u.dtype()),
                            ")");
      return "(" + RenderCast(u.dtype(), n(u.src(0))) + ")";
    case Ops::BITCAST:
      return absl::StrCat("__builtin_bit_cast(", RenderDType(u.dtype()), ", (",
                          RenderDType(u.src(0).dtype()), ")(", n(u.src(0)), "))");
    case Ops::DEFINE_LOCAL:
      return absl::StrCat(smem_align, smem_prefix, RenderDType(u.dtype().base()), " ", n(u), "[",
                          u.dtype().size(), "];");
    case Ops::BARRIER: return barrier;
    case Ops::SPECIAL: {
      const std::string& a = u.arg().str();
      return absl::StrCat(CodeForWorkitem(a.front(), a.substr(a.size() - 1)), "; /* ",
                          tg::Render(Simplify(u.src(0))), " */");
    }
    case Ops::CONST: return RenderConst(u);
    case Ops::INDEX: {
      const UOp& idx = u.src(1);
      bool strip = idx.arg().is_ops() && idx.arg().ops() == Ops::ADD;  // as tinygrad: the arg
      return absl::StrCat("(", n(u.src(0)), "+", strip ? StripParens(n(idx)) : n(idx), ")");
    }
    case Ops::LOAD:
      if (u.src().size() >= 2) {
        if (const UOp* gidx = GatedIndex(u.src(0)))
          return absl::StrCat("(", n(gidx->src(2)), "?*", n(u.src(0)), ":", n(u.src(1)), ")");
      }
      return absl::StrCat("(*", n(u.src(0)), ")");
    case Ops::STORE:
      if (u.src().size() < 2) return std::nullopt;
      return absl::StrCat("*", n(u.src(0)), " = ", n(u.src(1)), ";");
    case Ops::GEP: {
      int64_t lane = u.arg()[0].int64();
      if (u.src(0).dtype().count() > gep_arr_threshold)
        return absl::StrCat(n(u.src(0)), "[", lane, "]");
      return absl::StrCat(n(u.src(0)), ".", std::string(1, "xyzwabcd"[lane]));
    }
    case Ops::CUSTOM: case Ops::CUSTOMI: {
      std::vector<std::string> args;
      for (const UOp& s : u.src()) args.push_back(n(s));
      return FormatCustom(u.arg().str(), args);
    }
    default: break;
  }
  if (GroupOp::ALU.contains(u.op())) {
    // TODO: look for left-associative (tinygrad's note); same-op chains drop inner parens
    static constexpr OpSet kFlat{Ops::ADD, Ops::MUL, Ops::XOR, Ops::OR, Ops::AND};
    std::vector<std::string> args;
    for (const UOp& s : u.src())
      args.push_back(s.op() == u.op() && kFlat.contains(u.op()) ? StripParens(n(s)) : n(s));
    return CodeForOp(u.op(), args, u.dtype());
  }
  return std::nullopt;
}

CStyleLanguage::Body CStyleLanguage::RenderBody(std::span<const UOp> uops) const {
  RenderNames r;
  absl::flat_hash_map<UOp, int> child_count;
  for (const UOp& u : uops)
    for (const UOp& s : u.src()) ++child_count[s];
  std::vector<UOp> buf_order;  // params in first-seen order (tinygrad's dict order)
  absl::flat_hash_map<UOp, KernelParam> bufs;
  Body body;
  body.function_name = "test";
  int depth = 1;
  absl::flat_hash_map<std::string_view, int> c;
  static constexpr OpSet kInlineAlways{Ops::CONST, Ops::GEP, Ops::INDEX, Ops::CUSTOMI};
  static constexpr OpSet kInlineSingleUse =
      (GroupOp::ALU | OpSet{Ops::VECTORIZE, Ops::CAST, Ops::BITCAST});
  static constexpr OpSet kNoDecl{Ops::RANGE, Ops::DEFINE_LOCAL, Ops::STORE, Ops::DEFINE_REG};
  const VectorAccPlan vacc = PlanVectorAccs(uops, vector_acc_min_width);
  // a register of the plan: `float8 acc0[8];`, its slots acc0[vector][lane] (lvalues)
  auto render_vector_acc = [&](const UOp& u) -> std::optional<std::string> {
    auto n = [&](const UOp& x) -> const std::string& { return NameOf(r, x); };
    if (u.op() == Ops::DEFINE_REG) {
      auto w = vacc.width.find(u);
      if (w == vacc.width.end()) return std::nullopt;
      return absl::StrCat(RenderDType(u.dtype().base().vec(w->second)), " ", n(u), "[",
                          u.dtype().size() / w->second, "];");
    }
    if (u.op() == Ops::INDEX) {
      if (const VectorAccLane* l = vacc.Lane(u)) return absl::StrCat(n(u.src(0)), "[", l->vector, "][", l->lane, "]");
    }
    if ((u.op() == Ops::LOAD || u.op() == Ops::STORE) && !u.src().empty() && vacc.Lane(u.src(0)) != nullptr) {
      if (u.op() == Ops::LOAD) return n(u.src(0));
      if (u.src().size() >= 2) return absl::StrCat(n(u.src(0)), " = ", n(u.src(1)), ";");
    }
    return std::nullopt;
  };

  for (const UOp& u : uops) {
    Ops op = u.op();
    if (op == Ops::NOOP || op == Ops::GROUP) continue;
    if (op == Ops::AFTER) {
      // Copy first: inserting into `r` may rehash and move the string NameOf refers to.
      std::string alias = NameOf(r, u.src(0));
      r[u] = std::move(alias);
      continue;
    }
    if (op == Ops::SINK) {
      if (!u.arg().is_none()) body.function_name = KernelInfo::FromArg(u.arg()).function_name();
      continue;
    }
    if (op == Ops::DEFINE_GLOBAL || op == Ops::DEFINE_VAR) {
      if (op == Ops::DEFINE_GLOBAL) {
        int64_t sz = u.dtype().size();
        r[u] = sz > 0 ? absl::StrCat("data", u.arg().int64(), "_", sz)
                      : absl::StrCat("data", u.arg().int64());
      } else {
        r[u] = u.arg()[0].str();
      }
      if (!bufs.contains(u)) buf_order.push_back(u);
      bufs[u] = KernelParam{r[u], u.dtype(), false};
      continue;
    }
    // mark buffers that we store to writable
    if (op == Ops::STORE)
      for (const UOp& up : u.src(0).toposort())
        if (up.op() == Ops::DEFINE_GLOBAL && bufs.contains(up)) bufs[up].writable = true;

    // naming
    std::optional<std::string_view> prefix;
    if (op == Ops::SPECIAL) {
      r[u] = u.arg().str();
    } else if (op == Ops::RANGE) {
      r[u] = absl::StrCat(std::string(1, AxisLetter(u.arg()[u.arg().size() - 1].axis_type())),
                          "idx", RangeStr(u));
    } else {
      prefix = PrefixOf(op);
      r[u] = absl::StrCat(std::string(*prefix), c[*prefix]);
    }

    std::optional<std::string> rendered = render_vector_acc(u);
    if (!rendered) rendered = StringRewrite(u, r);
    TG_CHECK(rendered.has_value()) << "failed to render " << op << " " << u.dtype();
    std::string l = std::move(*rendered);

    if (op == Ops::ENDIF || op == Ops::END) --depth;
    bool inline_it =
        (op != Ops::CAST || u.dtype().vcount() == 1) &&
        (kInlineAlways.contains(op) ||
         (op == Ops::LOAD && u.src(0).dtype().is_ptr() &&
          u.src(0).dtype().addrspace() == AddrSpace::REG) ||
         (op == Ops::CAST && u.dtype().is_ptr()) ||
         (kInlineSingleUse.contains(op) && op != Ops::WHERE && child_count[u] == 1 &&
          !expand_ssa));
    if (inline_it) {
      r[u] = std::move(l);
    } else {
      if (!kNoDecl.contains(op) && u.dtype() != dtypes::void_)
        l = absl::StrCat(RenderDType(u.dtype()), " ", r[u], " = ", l, op != Ops::SPECIAL ? ";" : "");
      body.kernel.push_back(std::string(2 * depth, ' ') + l);
      if (prefix) ++c[*prefix];  // if it was used, increment
    }
    if (op == Ops::IF || op == Ops::RANGE) ++depth;
  }
  for (const UOp& b : buf_order) body.bufs.push_back(bufs[b]);
  return body;
}

std::string CStyleLanguage::RenderKernel(const std::string& function_name,
                                         std::span<const std::string> kernel,
                                         std::span<const KernelParam> bufs,
                                         std::span<const UOp> uops,
                                         const std::vector<std::string>* prefix) const {
  std::vector<std::string> params;
  for (const KernelParam& b : bufs) {
    // tinygrad renders a non-int variable's type as Python's None
    std::string t = b.dtype.is_ptr()            ? RenderDType(b.dtype, b.writable) + buffer_suffix
                    : b.dtype == dtypes::int32 ? arg_int_prefix
                                               : "None";
    params.push_back(t + " " + b.name);
  }
  for (const std::string& a : extra_args) params.push_back(a);
  int64_t launch_bounds = 1;
  for (const UOp& u : uops)
    if (u.op() == Ops::SPECIAL && u.arg().str().front() == 'l')
      launch_bounds *= u.src(0).vmax().to_int64();
  std::string prg = absl::StrCat(
      absl::StrReplaceAll(kernel_typedef, {{"{launch_bounds}", std::to_string(launch_bounds)}}),
      " ", function_name, "(", absl::StrJoin(params, ", "), ") {\n", absl::StrJoin(kernel, "\n"),
      "\n}");
  if (prefix == nullptr) return prg;
  return absl::StrCat(absl::StrJoin(*prefix, "\n"), "\n", prg);
}

std::string CStyleLanguage::Render(std::span<const UOp> uops) const {
  Body b = RenderBody(uops);
  return RenderKernel(b.function_name, b.kernel, b.bufs, uops);
}

}  // namespace tg
