// File: tinygrad/renderer/llvm/llvmir.cc
// Port of tinygrad/renderer/llvmir.py: LLVMRenderer (the CPU one; AMD and AMX are not ported).
//
// tinygrad renders each uop with a PatternMatcher whose rules return strings (base_rewrite);
// our PatternMatcher rewrites UOps, so RenderOp() below is the same rule list as one function:
// the first rule that matches a uop renders it, in the reference's order.
#include "tinygrad/renderer/llvm/llvmir.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "tinygrad/base/check.h"
#include "tinygrad/renderer/c/float_patterns.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

using Names = absl::flat_hash_map<UOp, std::string>;

const std::string& Name(const Names& r, const UOp& u) {
  auto it = r.find(u);
  TG_CHECK(it != r.end()) << "LLVMRenderer: " << OpName(u.op()) << " used before it is rendered";
  return it->second;
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

// ** llvm ops, tinygrad's lop[<dtype>][<op>] **

constexpr char kFastMath[] = " nsz arcp contract afn";

std::optional<std::string> UnsignedLop(Ops op) {
  switch (op) {
    case Ops::ADD: return "add";
    case Ops::MUL: return "mul";
    case Ops::IDIV: return "udiv";
    case Ops::MOD: return "urem";
    case Ops::CMPLT: return "icmp ult";
    case Ops::CMPNE: return "icmp ne";
    case Ops::CMPEQ: return "icmp eq";
    case Ops::OR: return "or";
    case Ops::AND: return "and";
    case Ops::XOR: return "xor";
    case Ops::SHL: return "shl";
    case Ops::SHR: return "lshr";
    default: return std::nullopt;
  }
}

std::optional<std::string> SignedLop(Ops op) {
  switch (op) {
    case Ops::ADD: return "add nsw";
    case Ops::CMPLT: return "icmp slt";
    case Ops::IDIV: return "sdiv";
    case Ops::MOD: return "srem";
    case Ops::SHR: return "ashr";
    default: return UnsignedLop(op);
  }
}

std::optional<std::string> FloatLop(Ops op) {
  switch (op) {
    case Ops::ADD: return absl::StrCat("fadd", kFastMath);
    case Ops::MUL: return absl::StrCat("fmul", kFastMath);
    case Ops::CMPLT: return absl::StrCat("fcmp", kFastMath, " ult");
    case Ops::CMPNE: return absl::StrCat("fcmp", kFastMath, " une");
    case Ops::CMPEQ: return absl::StrCat("fcmp", kFastMath, " oeq");
    case Ops::FDIV: return absl::StrCat("fdiv", kFastMath);
    default: return std::nullopt;
  }
}

// lop keys: bool and uints unsigned, sints signed, floats float (index is not a key).
std::string Lop(DType scalar, Ops op) {
  std::optional<std::string> s;
  if (scalar == dtypes::bool_ || (dtypes::is_unsigned(scalar) && scalar != dtypes::index))
    s = UnsignedLop(op);
  else if (dtypes::is_int(scalar) && scalar != dtypes::index)
    s = SignedLop(op);
  else if (dtypes::is_float(scalar))
    s = FloatLop(op);
  TG_CHECK(s.has_value()) << "LLVMRenderer: no llvm op for " << OpName(op) << " on "
                          << scalar.repr();
  return *s;
}

// ** base_rewrite, one rule per branch in the reference's order **

// LLVM's type mangling in intrinsic names: f32, v4f32.
std::string Mangle(DType dt) {
  std::string s;
  switch (dt.scalar_type()) {
    case ScalarType::kFloat16: s = "f16"; break;
    case ScalarType::kBFloat16: s = "bf16"; break;
    case ScalarType::kFloat32: s = "f32"; break;
    case ScalarType::kFloat64: s = "f64"; break;
    default: s = "i" + std::to_string(dt.itemsize() * 8 / dt.count()); break;
  }
  return dt.count() > 1 ? absl::StrCat("v", dt.count(), s) : s;
}

// `declares`: with llvm14, the intrinsic declarations the kernel needs (else null).
std::string RenderOp(const UOp& x, const Names& ctx, std::set<std::string>* declares) {
  const std::string& xn = Name(ctx, x);
  std::string xs = xn.substr(1);  // the name without '%' (block labels)
  auto src = [&](size_t i) -> const std::string& { return Name(ctx, x.src()[i]); };
  auto sdt = [&](size_t i) { return x.src()[i].dtype(); };
  switch (x.op()) {
    // memory load/store
    case Ops::INDEX:
      return absl::StrCat("  ", xn, " = getelementptr inbounds ", Ldt(x.dtype().base()), ", ",
                          Ldt(sdt(0)), " ", src(0), ", ", Ldt(sdt(1)), " ", src(1));
    case Ops::LOAD: {
      // a gated INDEX (or a CAST of one) with an alternative value: branch around the load
      const UOp& idx = x.src()[0];
      UOp index = idx.op() == Ops::CAST && idx.src().size() == 1 ? idx.src()[0] : idx;
      if (x.src().size() >= 2 && index.op() == Ops::INDEX && index.src().size() == 3) {
        const std::string& idxn = Name(ctx, idx);
        const std::string& mask = Name(ctx, index.src()[2]);
        const std::string& alt = src(1);
        return absl::StrCat("  br label ", xn, "_entry\n", xs, "_entry:\n", "  br i1 ", mask,
                            ", label ", xn, "_load, label ", xn, "_exit\n", xs, "_load:\n", "  ",
                            xn, "_yes = load ", Ldt(x.dtype()), ", ", Ldt(idx.dtype()), " ", idxn,
                            "\n", "  br label ", xn, "_exit\n", xs, "_exit:\n", "  ", xn,
                            " = phi ", Ldt(x.dtype()), " [", xn, "_yes, ", xn, "_load], [", alt,
                            ", ", xn, "_entry]");
      }
      return absl::StrCat("  ", xn, " = load ", Ldt(x.dtype()), ", ", Ldt(sdt(0)), " ", src(0));
    }
    case Ops::STORE:
      return absl::StrCat("  store ", Ldt(sdt(1)), " ", src(1), ", ", Ldt(sdt(0)), " ", src(0));
    // GEP/VECTORIZE/CAST for float4 support
    case Ops::GEP:
      return absl::StrCat("  ", xn, " = extractelement ", Ldt(sdt(0)), " ", src(0), ", i32 ",
                          x.arg().tuple()[0].int64());
    case Ops::VECTORIZE: {
      bool broadcast = true;
      for (const UOp& s : x.src()) broadcast = broadcast && s == x.src()[0];
      if (broadcast) {
        std::string y = Ldt(sdt(0));
        return absl::StrCat("  ", xn, "_z = insertelement <1 x ", y, "> poison, ", y, " ", src(0),
                            ", i32 0\n", "  ", xn, " = shufflevector <1 x ", y, "> ", xn,
                            "_z, <1 x ", y, "> poison, <", x.dtype().count(),
                            " x i32> zeroinitializer");
      }
      std::vector<std::string> lines;
      size_t n = x.src().size();
      for (size_t i = 0; i < n; ++i) {
        std::string lhs = i + 1 != n ? absl::StrCat("  ", xn, "_", i) : absl::StrCat("  ", xn);
        std::string prev = i != 0 ? absl::StrCat(xn, "_", i - 1) : "poison";
        lines.push_back(absl::StrCat(lhs, " = insertelement ", Ldt(x.dtype()), " ", prev, ", ",
                                     Ldt(sdt(i)), " ", src(i), ", i32 ", i));
      }
      return absl::StrJoin(lines, "\n");
    }
    // unary/binary/ternary ops
    case Ops::BITCAST:
      return absl::StrCat("  ", xn, " = bitcast ", Ldt(sdt(0)), " ", src(0), " to ",
                          Ldt(x.dtype()));
    case Ops::CAST:
      // cast to bool is CMPNE 0
      if (x.dtype().scalar() == dtypes::bool_)
        return absl::StrCat("  ", xn, " = ", Lop(sdt(0).scalar(), Ops::CMPNE), " ", Ldt(sdt(0)),
                            " ", src(0), ", zeroinitializer");
      return absl::StrCat("  ", xn, " = ", LCast(sdt(0), x.dtype()), " ", Ldt(sdt(0)), " ",
                          src(0), " to ", Ldt(x.dtype()));
    case Ops::TRUNC: {
      std::string fn = absl::StrCat(
          "@llvm.trunc.", declares != nullptr ? Mangle(x.dtype()) : Ldt(x.dtype().scalar()));
      if (declares != nullptr)
        declares->insert(absl::StrCat("declare ", Ldt(x.dtype()), " ", fn, "(", Ldt(sdt(0)), ")"));
      return absl::StrCat("  ", xn, " = call ", Ldt(x.dtype()), " ", fn, "(", Ldt(sdt(0)), " ",
                          src(0), ")");
    }
    case Ops::WHERE:
      return absl::StrCat("  ", xn, " = select ", Ldt(sdt(0)), " ", src(0), ", ", Ldt(sdt(1)),
                          " ", src(1), ", ", Ldt(sdt(2)), " ", src(2));
    // range
    case Ops::RANGE: {
      std::string rs = RangeStr(x), t = Ldt(x.dtype());
      return absl::StrCat("  br label %loop_entry_", rs, "\n", "loop_entry_", rs, ":\n",
                          "  br label %loop_latch_", rs, "\n", "loop_latch_", rs, ":\n", "  ",
                          xn, " = phi ", t, " [ 0, %loop_entry_", rs, " ], [ ", xn,
                          "phi, %loop_footer_", rs, " ]\n", "  ", xn, "phi = add ", t, " ", xn,
                          ", 1\n", "  ", xn, "cmp = icmp ult ", t, " ", xn, ", ", src(0), "\n",
                          "  br i1 ", xn, "cmp, label %loop_body_", rs, ", label %loop_exit_", rs,
                          "\n", "loop_body_", rs, ":");
    }
    case Ops::END: {
      TG_CHECK(x.src().size() == 2 && x.src()[1].op() == Ops::RANGE)
          << "LLVMRenderer: failed to render END with " << x.src().size() << " srcs";
      std::string rs = RangeStr(x.src()[1]);
      return absl::StrCat("  br label %loop_footer_", rs, "\n", "loop_footer_", rs, ":\n",
                          "  br label %loop_latch_", rs, "\n", "loop_exit_", rs, ":");
    }
    // if
    case Ops::IF:
      return absl::StrCat("  br i1 ", src(0), ", label %ifbody_", xs, ", label %ifskip_", xs,
                          "\nifbody_", xs, ":");
    case Ops::ENDIF: {
      std::string ifs = src(0).substr(1);
      return absl::StrCat("  br label %ifskip_", ifs, "\nifskip_", ifs, ":");
    }
    case Ops::BARRIER:
      return "";
    default:
      break;
  }
  if (GroupOp::Binary.contains(x.op()))
    return absl::StrCat("  ", xn, " = ", Lop(sdt(0).scalar(), x.op()), " ", Ldt(sdt(0)), " ",
                        src(0), ", ", src(1));
  TG_CHECK(false) << "LLVMRenderer: failed to render " << OpName(x.op()) << " with "
                  << x.dtype().repr();
  return "";
}

// str(u.arg) as the reference puts it in a DEFINE_LOCAL/DEFINE_REG name.
std::string ArgStr(const Arg& a) {
  std::string s = a.is_string() ? a.str() : a.repr();
  return absl::StrReplaceAll(s, {{"(", ""}, {")", ""}, {",", "_"}, {" ", ""}});
}

}  // namespace

std::string Ldt(DType dt) {
  if (dt.vcount() > 1) return absl::StrCat("<", dt.vcount(), " x ", Ldt(dt.scalar()), ">");
  if (dt.is_ptr()) return Ldt(dt.base()) + "*";
  switch (dt.scalar_type()) {
    case ScalarType::kVoid: return "void";
    case ScalarType::kBool: return "i1";
    case ScalarType::kInt8:
    case ScalarType::kUInt8:
    case ScalarType::kFp8e4m3:
    case ScalarType::kFp8e5m2: return "i8";
    case ScalarType::kInt16:
    case ScalarType::kUInt16: return "i16";
    case ScalarType::kInt32:
    case ScalarType::kUInt32: return "i32";
    case ScalarType::kInt64:
    case ScalarType::kUInt64: return "i64";
    case ScalarType::kFloat16: return "half";
    case ScalarType::kBFloat16: return "bfloat";
    case ScalarType::kFloat32: return "float";
    case ScalarType::kFloat64: return "double";
    default: break;
  }
  TG_CHECK(false) << "LLVMRenderer: no LLVM type for " << dt.repr();
  return "";
}

std::string LConst(const ConstValue& x, DType dtype) {
  TG_CHECK(dtype.vcount() == 1 && !dtype.is_ptr()) << "lconst of " << dtype.repr();
  if (dtypes::is_float(dtype)) {
    if (dtype == dtypes::fp8e4m3 || dtype == dtypes::fp8e5m2)
      return std::to_string(FloatToFp8(x.to_float(), dtype));
    double v = x.to_float();
    if (std::isinf(v) || std::isnan(v)) {
      // the double's bits, most significant byte first (Python's canonical nan is 0x7FF8...)
      uint64_t bits = std::isnan(v) ? 0x7FF8000000000000ull : std::bit_cast<uint64_t>(v);
      return absl::StrFormat("0x%016X", bits);
    }
    return ConstValue(Truncate(ConstValue(v), dtype).to_float()).repr();
  }
  return I128ToString(x.to_int());
}

std::string LCast(DType input_type, DType output_type) {
  if (dtypes::is_float(input_type)) {
    if (dtypes::is_float(output_type))
      return output_type.itemsize() > input_type.itemsize() ? "fpext" : "fptrunc";
    if (dtypes::is_int(output_type)) return dtypes::is_unsigned(output_type) ? "fptoui" : "fptosi";
  }
  if (dtypes::is_unsigned(input_type) || dtypes::is_bool(input_type)) {
    if (dtypes::is_float(output_type)) return "uitofp";
    if (dtypes::is_int(output_type))
      return output_type.itemsize() < input_type.itemsize() ? "trunc" : "zext";
  }
  if (dtypes::is_int(input_type)) {
    if (dtypes::is_float(output_type)) return "sitofp";
    if (dtypes::is_int(output_type))
      return output_type.itemsize() < input_type.itemsize() ? "trunc" : "sext";
  }
  TG_CHECK(false) << "cast from " << input_type.repr() << " -> " << output_type.repr()
                  << " not implemented";
  return "";
}

namespace {

// A DEFINE_LOCAL's alignment: the reference's 16, or the size of the widest vector loaded from
// or stored to it (ours: the PACK opt's stack arrays are read as <16 x float>, whose loads
// LLVM takes to be 64-byte aligned).
int64_t LocalAlignment(std::span<const UOp> uops, const UOp& local) {
  auto reaches = [&](UOp p) {
    while (p.op() == Ops::CAST || p.op() == Ops::INDEX || p.op() == Ops::AFTER) p = p.src(0);
    return p == local;
  };
  int64_t align = 16;
  for (const UOp& u : uops) {
    if (u.op() != Ops::LOAD && u.op() != Ops::STORE) continue;
    const DType dt = u.op() == Ops::LOAD ? u.dtype() : u.src(1).dtype();
    if (dt.count() > 1 && reaches(u.src(0)))
      align = std::max<int64_t>(align, static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(dt.itemsize()))));
  }
  return align;
}

}  // namespace

const PatternMatcher& LlvmExtraMatcher() {
  static const auto* const kRules =
      new PatternMatcher(CreateNonNativeFloatPats({dtypes::bfloat16}) + PmManualBf16Cast());
  return *kRules;
}

LLVMRenderer::LLVMRenderer(const CpuRendererOptions& options) {
  device = "CPU";
  supports_float4 = true;
  has_local = false;
  // the threads extension (the reference: has_threads False, global_max None)
  has_threads = options.threads;
  global_max = LaunchDims{options.cpu_count, 0, 0};
  // FDIV and CMPLT are native; everything else the decompositions rewrite
  code_for_op = OpSet{Ops::FDIV, Ops::CMPLT};
  extra_matcher = &LlvmExtraMatcher();
}

std::string LLVMRenderer::Render(std::span<const UOp> uops) const {
  Names r;
  std::vector<std::pair<std::string, DType>> args;
  std::vector<std::string> kernel;
  std::set<std::string> declares;
  int vc = -1, casts = -1;
  bool core_id = false;
  std::string name = "test";
  for (const UOp& u : uops) {
    Ops op = u.op();
    if (op == Ops::NOOP || op == Ops::GROUP) continue;
    if (op == Ops::AFTER) {
      std::string alias = Name(r, u.src()[0]);  // copied: r[u] may rehash
      r[u] = std::move(alias);
      continue;
    }
    if (op == Ops::SINK) {
      if (!u.arg().is_none()) name = KernelInfo::FromArg(u.arg()).function_name();
      continue;
    }
    if (op == Ops::DEFINE_GLOBAL || op == Ops::DEFINE_VAR) {
      r[u] = op == Ops::DEFINE_GLOBAL ? absl::StrCat("%data", u.arg().int64())
                                      : absl::StrCat("%", u.arg().tuple()[0].str());
      args.emplace_back(r[u], u.dtype());
    } else if (op == Ops::DEFINE_LOCAL || op == Ops::DEFINE_REG) {
      r[u] = absl::StrCat("%", op == Ops::DEFINE_LOCAL ? "local" : "reg", "_", ArgStr(u.arg()));
      TG_CHECK(u.dtype().is_ptr()) << "DEFINE_LOCAL/DEFINE_REG of " << u.dtype().repr();
      // the CPU has no shared memory: locals are stack arrays too (typed pointers: an alloca
      // of N elements, whose type is the element pointer INDEX expects)
      std::string base = Ldt(u.dtype().base());
      kernel.push_back(absl::StrCat(
          "  ", r[u], " = alloca ",
          llvm14 ? absl::StrCat(base, ", i32 ", u.dtype().size())
                         : absl::StrCat("[", u.dtype().size(), " x ", base, "]"),
          op == Ops::DEFINE_LOCAL ? absl::StrCat(", align ", LocalAlignment(uops, u)) : ""));
    } else if (op == Ops::SPECIAL) {
      // the threads extension: the THREAD axis is the core id, a trailing i32 parameter
      TG_CHECK(u.arg().str() == "gidx0") << "LLVMRenderer: only gidx0 (threads) on the CPU, got "
                                         << u.arg().str();
      r[u] = "%core_id";
      core_id = true;
    } else if (op == Ops::CONST) {
      r[u] = LConst(u.arg().number(), u.dtype());
    } else if (op == Ops::CAST && u.dtype().is_ptr() && llvm14 &&
               Ldt(u.dtype()) != Ldt(u.src()[0].dtype())) {
      // own numbering, so every other value keeps the reference's name
      r[u] = absl::StrCat("%cast", ++casts);
      kernel.push_back(absl::StrCat("  ", r[u], " = bitcast ", Ldt(u.src()[0].dtype()), " ",
                                    Name(r, u.src()[0]), " to ", Ldt(u.dtype())));
    } else if (op == Ops::CAST &&
               (u.dtype().is_ptr() || Ldt(u.dtype()) == Ldt(u.src()[0].dtype()))) {
      // a cast between signed and unsigned of one size, or of a pointer, is a no-op
      std::string alias = Name(r, u.src()[0]);  // copied: r[u] may rehash
      r[u] = std::move(alias);
    } else {
      r[u] = absl::StrCat("%v", ++vc);
      kernel.push_back(RenderOp(u, r, llvm14 ? &declares : nullptr));
    }
  }
  std::vector<std::string> sargs;
  // NOTE: CpuBuffer (like tinygrad's CPUAllocator) promises 0x20 alignment
  for (const auto& [arg, dt] : args)
    sargs.push_back(absl::StrCat(Ldt(dt), dt.is_ptr() ? " noalias align 32" : "", " ", arg));
  if (core_id) sargs.push_back("i32 %core_id");
  std::string prefix;
  for (const std::string& d : declares) absl::StrAppend(&prefix, d, "\n");
  return absl::StrCat(prefix, "define void @", name, "(", absl::StrJoin(sargs, ", "), ") #0\n{\n",
                      absl::StrJoin(kernel, "\n"), kernel.empty() ? "" : "\n", "  ret void\n}\n",
                      "attributes #0 = { alwaysinline nounwind \"no-builtins\" "
                      "\"no-trapping-math\"=\"true\" }");
}

}  // namespace tg
