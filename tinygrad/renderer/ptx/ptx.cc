// File: tinygrad/renderer/ptx/ptx.cc
// Port of tinygrad/renderer/ptx.py: PTXRenderer (render_val, asm_for_op, string_rewrite,
// render_wmma, render_kernel, render). The extra matcher is in ptx_matcher.cc.
//
// tinygrad renders each uop with a PatternMatcher whose rules return lines (string_rewrite); our
// PatternMatcher rewrites UOps, so KernelWriter::Lines() below is the same rule list as one
// function: the first rule that matches a uop renders it, in the reference's order.
#include "tinygrad/renderer/ptx/ptx.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

// ** register and memory types (PTXRenderer.types, mem_types, cast_types) **

enum class TypeTable { kReg, kMem, kCast };

// The PTX type of scalar `dt` in one of the reference's tables. Like its dict lookups, anything
// else (a vector, a pointer, bfloat16, fp8) has no entry: a CHECK failure naming the dtype.
std::string PtxType(DType dt, TypeTable table = TypeTable::kReg) {
  TG_CHECK(!dt.is_ptr() && dt.count() == 1)
      << "PTXRenderer: no register type for " << dt.repr() << " (only scalars have one)";
  switch (dt.scalar_type()) {
    case ScalarType::kBool:
      return table == TypeTable::kMem ? "u8" : "pred";
    case ScalarType::kInt8:
      return table == TypeTable::kReg ? "s16" : "s8";
    case ScalarType::kUInt8:
      return table == TypeTable::kReg ? "u16" : "u8";
    case ScalarType::kInt16:
      return "s16";
    case ScalarType::kUInt16:
      return "u16";
    case ScalarType::kInt32:
      return "s32";
    case ScalarType::kUInt32:
      return "u32";
    case ScalarType::kInt64:
      return "s64";
    case ScalarType::kUInt64:
      return "u64";
    case ScalarType::kFloat16:
      return table == TypeTable::kMem ? "b16" : "f16";
    case ScalarType::kFloat32:
      return "f32";
    case ScalarType::kFloat64:
      return "f64";
    default:
      break;
  }
  TG_CHECK(false) << "PTXRenderer: no register type for " << dt.repr()
                  << " (PTX kernels hold no bfloat16 or fp8 values: see PtxSupportsDType)";
  return "";
}
// "s32" -> "32": the width, for the .b<n> spellings
std::string Bits(DType dt) { return PtxType(dt).substr(1); }

// ** asm_for_op **

// The line(s) computing `op` into `d` from `a` (1 to 3 sources); `dt` and its register type
// `name` decide the spelling (for compares, the sources' type).
std::vector<std::string> AsmForOp(Ops op, const std::string& d, std::span<const std::string> a,
                                  DType dt, const std::string& name) {
  const bool is_bool = dt == dtypes::bool_, is_float = dtypes::is_float(dt),
             is_int = dtypes::is_int(dt);
  auto want = [&](size_t n) {
    TG_CHECK(a.size() == n) << "PTXRenderer: " << op << " with " << a.size() << " sources";
  };
  auto un = [&](const std::string& instr) {
    want(1);
    return std::vector<std::string>{absl::StrCat(instr, " ", d, ", ", a[0], ";")};
  };
  auto bin = [&](const std::string& instr) {
    want(2);
    return std::vector<std::string>{absl::StrCat(instr, " ", d, ", ", a[0], ", ", a[1], ";")};
  };
  std::string b = "b" + name.substr(1);
  switch (op) {
    case Ops::RECIPROCAL:
      return un(absl::StrCat("rcp", is_float ? ".approx" : "", ".", name));
    case Ops::EXP2:
      return un("ex2.approx." + name);
    case Ops::LOG2:
      return un("lg2.approx." + name);
    case Ops::SIN:
      return un("sin.approx." + name);
    case Ops::SQRT:
      return un("sqrt.approx." + name);
    case Ops::TRUNC:
      return un(absl::StrCat("cvt.rzi.", name, ".", name));
    case Ops::SHR:
      return bin("shr." + name);
    case Ops::SHL:
      return bin("shl." + b);
    case Ops::ADD:
      return bin(absl::StrCat(is_bool ? "or" : "add", ".", name));
    case Ops::MUL:
      return bin(absl::StrCat(is_bool ? "and" : "mul", is_int ? ".lo" : "", ".", name));
    case Ops::XOR:
      return bin(is_bool ? "xor.pred" : "xor." + b);
    case Ops::AND:
      return bin(is_bool ? "and.pred" : "and." + b);
    case Ops::OR:
      return bin(is_bool ? "or.pred" : "or." + b);
    case Ops::IDIV:
      return bin("div." + name);
    case Ops::MOD:
      return bin("rem." + name);
    case Ops::MAX:
      return bin("max." + name);
    case Ops::CMPEQ:
      return bin("setp.eq." + name);
    case Ops::CMPLT:
      return bin("setp.lt." + name);
    case Ops::CMPNE:
      return bin("setp.ne." + name);
    case Ops::MULACC:
      want(3);
      return {absl::StrCat(is_float ? "fma.rn" : "mad.lo", ".", name, " ", d, ", ", a[0], ", ",
                           a[1], ", ", a[2], ";")};
    case Ops::WHERE:
      want(3);
      if (is_bool)
        return {absl::StrCat("@", a[0], " mov.", name, " ", d, ", ", a[1], ";"),
                absl::StrCat("@!", a[0], " mov.", name, " ", d, ", ", a[2], ";")};
      return {absl::StrCat("selp.", name == "f16" ? "b16" : name, " ", d, ", ", a[1], ", ", a[2],
                           ", ", a[0], ";")};
    default:
      break;
  }
  TG_CHECK(false) << "PTXRenderer: no instruction for " << op << " (not in code_for_op)";
  return {};
}

// The ops asm_for_op renders (tinygrad's code_for_op keys): the rest are decomposed.
constexpr OpSet kCodeForOp{
    Ops::RECIPROCAL, Ops::EXP2, Ops::LOG2,  Ops::SIN,   Ops::SQRT,  Ops::TRUNC,  Ops::SHR,
    Ops::SHL,        Ops::ADD,  Ops::MUL,   Ops::XOR,   Ops::AND,   Ops::OR,     Ops::IDIV,
    Ops::MOD,        Ops::MAX,  Ops::CMPEQ, Ops::CMPLT, Ops::CMPNE, Ops::MULACC, Ops::WHERE};

// tinygrad's modifier: the rounding mode of a cvt from `b` to `a`.
std::string CvtModifier(DType a, DType b) {
  if (dtypes::is_int(a) && dtypes::is_float(b)) return ".rzi";
  if (dtypes::is_float(a) &&
      (a.itemsize() < b.itemsize() || dtypes::is_int(b) || b == dtypes::bool_))
    return ".rn";
  return "";
}

// str(arg) as the reference puts it in a shared array's name (local0).
std::string ArgStr(const Arg& a) { return a.is_string() ? a.str() : a.repr(); }

// The bits of the half nearest to x (round to nearest even, as struct.pack("e")); beyond half's
// range it is inf, where Python raises.
uint16_t HalfBits(double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return sign | 0x7E00;
  const double a = std::fabs(RoundToFloat16(x));
  if (std::isinf(a)) return sign | 0x7C00;
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): a half normal has exponent field e + 14
  if (e + 14 >= 1)
    return sign |
           static_cast<uint16_t>(((e + 14) << 10) | static_cast<int>(std::ldexp(a, 11 - e) - 1024));
  return sign | static_cast<uint16_t>(std::ldexp(a, 24));  // subnormal: a multiple of 2^-24
}

// ** the kernel writer: one Render call's state (tinygrad's self.r, c, kernel, bufs) **

class KernelWriter {
 public:
  explicit KernelWriter(std::span<const UOp> uops) : uops_(uops) {
    for (size_t i = 0; i < uops.size(); ++i) position_.try_emplace(uops[i], static_cast<int>(i));
  }

  std::string Render();

 private:
  // tinygrad's r[u]: one register name, or one per lane (vectors, WMMA results, register arrays)
  struct Reg {
    std::string name;
    std::vector<std::string> lanes;
    bool is_list = false;
  };

  const Reg& RegOf(const UOp& u) const {
    auto it = r_.find(u);
    TG_CHECK(it != r_.end()) << "PTXRenderer: " << u.op() << " used before it is rendered";
    return it->second;
  }
  const std::string& R(const UOp& u) const {
    const Reg& reg = RegOf(u);
    TG_CHECK(!reg.is_list) << "PTXRenderer: " << u.op() << " of " << u.dtype().repr()
                           << " used as a scalar";
    return reg.name;
  }
  const std::vector<std::string>& Lanes(const UOp& u) const {
    const Reg& reg = RegOf(u);
    TG_CHECK(reg.is_list) << "PTXRenderer: " << u.op() << " of " << u.dtype().repr()
                          << " used as a vector";
    return reg.lanes;
  }
  void Set(const UOp& u, std::string name) { r_[u] = Reg{.name = std::move(name)}; }
  void SetLanes(const UOp& u, std::vector<std::string> lanes) {
    r_[u] = Reg{.lanes = std::move(lanes), .is_list = true};
  }

  // tinygrad's ssa: a fresh register "%<prefix>_<type>_<n>", counted per prefix and type.
  std::string Ssa(const std::string& prefix, const std::string& type) {
    std::string key = absl::StrCat(prefix, "_", type, "_");
    auto [it, fresh] = count_index_.try_emplace(key, counts_.size());
    if (fresh) counts_.emplace_back(key, 0);
    return absl::StrCat("%", key, counts_[it->second].second++);
  }

  std::optional<std::vector<std::string>> Lines(const UOp& x);
  std::vector<std::string> RenderWmma(const UOp& wmma) const;
  std::string RenderKernel(const std::string& function_name) const;

  std::span<const UOp> uops_;
  absl::flat_hash_map<UOp, int> position_;  // uops.index(u)
  absl::flat_hash_map<UOp, Reg> r_;
  std::vector<std::pair<std::string, int>> counts_;  // c, in first-use order
  absl::flat_hash_map<std::string, size_t> count_index_;
  std::vector<std::string> kernel_;
  std::vector<std::pair<std::string, DType>> bufs_;
  std::vector<std::vector<std::string>> wmma_r_;  // the last WMMA's packed a, b and c registers
};

// mem_type: the state space a buffer lives in.
std::string MemType(const UOp& x) {
  switch (x.op()) {
    case Ops::AFTER:
      return MemType(x.src(0));
    case Ops::DEFINE_LOCAL:
      return "shared";
    case Ops::DEFINE_GLOBAL:
      return "global";
    default:
      break;
  }
  TG_CHECK(false) << "PTXRenderer: " << x.op() << " needs to be memory";
  return "";
}

std::string Braced(std::span<const std::string> regs) {
  return absl::StrCat("{", absl::StrJoin(regs, ", "), "}");
}

std::optional<std::vector<std::string>> KernelWriter::Lines(const UOp& x) {
  using Lst = std::vector<std::string>;
  const Ops op = x.op();
  const DType dt = x.dtype();
  auto srcs = [&] {
    std::vector<std::string> s;
    for (const UOp& v : x.src()) s.push_back(R(v));
    return s;
  };
  // constants: a bool is set by a compare, the rest moved as bits
  if (op == Ops::CONST) {
    if (dt.scalar() == dtypes::bool_)
      return Lst{
          absl::StrCat("setp.ne.s16 ", R(x), ", ", PtxRenderVal(x.arg().number(), dt), ", 0;")};
    return Lst{
        absl::StrCat("mov.b", Bits(dt), " ", R(x), ", ", PtxRenderVal(x.arg().number(), dt), ";")};
  }
  if (op == Ops::SPECIAL) {
    const std::string& s = x.arg().str();
    TG_CHECK(!s.empty() && s.back() >= '0' && s.back() <= '2')
        << "PTXRenderer: bad launch index " << s;
    return Lst{absl::StrCat("mov.u32 %", s, ", %", s[0] == 'g' ? "ctaid" : "tid", ".",
                            std::string(1, 'x' + (s.back() - '0')), ";")};
  }
  if (op == Ops::DEFINE_GLOBAL)
    return Lst{absl::StrCat("ld.param.u64 ", R(x), ", [data", x.arg().int64(), "+0];")};
  // compares are spelled by their sources' type
  if ((op == Ops::CMPLT || op == Ops::CMPNE || op == Ops::CMPEQ) && !x.src().empty())
    return AsmForOp(op, R(x), srcs(), x.src(0).dtype(), PtxType(x.src(0).dtype()));
  if (GroupOp::ALU.contains(op)) return AsmForOp(op, R(x), srcs(), dt, PtxType(dt));
  if (op == Ops::BITCAST && !x.src().empty())
    return Lst{absl::StrCat("mov.b", Bits(dt), " ", R(x), ", ", R(x.src(0)), ";")};
  if (op == Ops::CAST && x.src().size() == 1) {
    const UOp& a = x.src(0);
    if (a.dtype().scalar() == dtypes::bool_)
      return Lst{absl::StrCat("selp.b", Bits(dt), " ", R(x), ", ", PtxRenderVal(1, dt), ", ",
                              PtxRenderVal(0, dt), ", ", R(a), ";")};
    if (dt.scalar() == dtypes::bool_)
      return Lst{absl::StrCat("setp.ne.b", Bits(a.dtype()), " ", R(x), ", ", R(a), ", ",
                              PtxRenderVal(0, a.dtype()), ";")};
    return Lst{absl::StrCat("cvt", CvtModifier(dt, a.dtype()), ".", PtxType(dt, TypeTable::kCast),
                            ".", PtxType(a.dtype(), TypeTable::kCast), " ", R(x), ", ", R(a), ";")};
  }
  // store / gated load / load
  if (op == Ops::STORE && x.src().size() == 2 && x.src(0).op() == Ops::INDEX &&
      x.src(0).src().size() >= 2) {
    const UOp &buf = x.src(0).src(0), &loc = x.src(0).src(1), &var = x.src(1);
    const int cnt = var.dtype().count();
    return Lst{absl::StrCat("st.", MemType(buf), cnt > 1 ? absl::StrCat(".v", cnt) : "", ".",
                            PtxType(var.dtype().scalar(), TypeTable::kMem), " [", R(loc), "+0], ",
                            cnt > 1 ? Braced(Lanes(var)) : R(var), ";")};
  }
  if (op == Ops::LOAD && !x.src().empty() && x.src(0).op() == Ops::INDEX &&
      x.src(0).src().size() >= 2) {
    const UOp& index = x.src(0);
    const UOp &buf = index.src(0), &loc = index.src(1);
    const DType scalar = dt.scalar();
    const std::string mem = PtxType(scalar, TypeTable::kMem);
    if (x.src().size() >= 2 && index.src().size() == 3) {
      const UOp &gate = index.src(2), &alt = x.src(1);
      if (alt.dtype().count() > 1) {
        // a vector's alternative is zeros (the reference ignores alt's values)
        Lst lines;
        for (const std::string& v : Lanes(x))
          lines.push_back(absl::StrCat("mov.", mem, " ", v, ", ", PtxRenderVal(0, scalar), ";"));
        lines.push_back(absl::StrCat("@", R(gate), " ld.", MemType(buf), ".v", dt.count(), ".", mem,
                                     " ", Braced(Lanes(x)), ", [", R(loc), "+0];"));
        return lines;
      }
      return Lst{absl::StrCat("@", R(gate), " ld.", MemType(buf), ".", mem, " ", R(x), ", [",
                              R(loc), "+0];"),
                 absl::StrCat("@!", R(gate), " mov.b", Bits(scalar), " ", R(x), ", ", R(alt), ";")};
    }
    if (index.src().size() == 2) {
      if (dt.count() > 1)
        return Lst{absl::StrCat("ld.", MemType(buf), ".v", dt.count(), ".", mem, " ",
                                Braced(Lanes(x)), ", [", R(loc), "+0];")};
      return Lst{absl::StrCat("ld.", MemType(buf), ".", PtxType(dt, TypeTable::kMem), " ", R(x),
                              ", [", R(loc), "+0];")};
    }
    return std::nullopt;
  }
  // simple
  if (op == Ops::DEFINE_REG && x.src().empty()) return Lst{};
  if (op == Ops::RANGE) {
    std::string label = R(x).substr(1);
    return Lst{absl::StrCat("mov.u32 ", R(x), ", -1;"), absl::StrCat("bra END_", label, ";"),
               absl::StrCat("LOOP_", label, ":")};
  }
  if (op == Ops::END && x.src().size() == 2 && x.src(1).op() == Ops::RANGE) {
    const UOp& rng = x.src(1);
    const std::string& ri = R(rng);
    std::string label = ri.substr(1);
    const std::string s32 = PtxType(dtypes::int32);
    Lst lines{absl::StrCat("END_", label, ":")};
    lines.push_back(
        AsmForOp(Ops::ADD, ri, std::vector<std::string>{ri, "1"}, dtypes::int32, s32)[0]);
    lines.push_back(AsmForOp(Ops::CMPLT, R(x), std::vector<std::string>{ri, R(rng.src(0))},
                             dtypes::int32, s32)[0]);
    lines.push_back(absl::StrCat("@", R(x), " bra LOOP_", label, ";"));
    return lines;
  }
  if (op == Ops::DEFINE_LOCAL) {
    std::string name = absl::StrCat("local", ArgStr(x.arg()));
    return Lst{absl::StrCat(".shared .align 16 .b8 ", name, "[", dt.size() * dt.itemsize(), "];"),
               absl::StrCat("mov.u64 ", R(x), ", ", name, "[0];")};
  }
  if (op == Ops::IF)
    return Lst{absl::StrCat("@!", R(x.src(0)), " bra IF_", R(x.src(0)).substr(1), "_",
                            position_.at(x), ";")};
  if (op == Ops::ENDIF) {
    const UOp& iff = x.src(0);
    return Lst{absl::StrCat("IF_", R(iff.src(0)).substr(1), "_", position_.at(iff), ":")};
  }
  if (op == Ops::WMMA) return RenderWmma(x);
  if (op == Ops::BARRIER) return Lst{"bar.sync\t0;"};
  if (op == Ops::DEFINE_VAR)
    return Lst{absl::StrCat("ld.param.", PtxType(dt, TypeTable::kMem), " ", R(x), ", [",
                            x.arg()[0].str(), "+0];")};
  return std::nullopt;
}

std::vector<std::string> KernelWriter::RenderWmma(const UOp& wmma) const {
  TG_CHECK(wmma_r_.size() == 3) << "PTXRenderer: registry values for wmma must be populated";
  const Arg& arg = wmma.arg();
  const int64_t n = arg[1][0].int64(), m = arg[1][1].int64(), k = arg[1][2].int64();
  const DType dtype_in = WmmaDTypeIn(arg), dtype_out = WmmaDTypeOut(arg);
  std::vector<std::string> lines;
  // pack input and acc registers: 4 bytes each
  for (size_t s = 0; s < 3; ++s) {
    const std::vector<std::string>& vals = Lanes(wmma.src(s));
    const size_t per_reg = 4 / wmma.src(s).dtype().scalar().itemsize();
    for (size_t i = 0; i < wmma_r_[s].size(); ++i) {
      if (per_reg == 1) {
        lines.push_back(absl::StrCat("mov.b32 ", wmma_r_[s][i], ", ", vals.at(i), ";"));
      } else {
        std::span<const std::string> part(vals.begin() + std::min(i * per_reg, vals.size()),
                                          vals.begin() + std::min((i + 1) * per_reg, vals.size()));
        lines.push_back(absl::StrCat("mov.b32 ", wmma_r_[s][i], ", ", Braced(part), ";"));
      }
    }
  }
  auto type_in = [](DType d) -> std::string {
    if (d == dtypes::float32) return "tf32";
    TG_CHECK(d == dtypes::float16)
        << "PTXRenderer: mma.sync has no input type " << d.repr() << " here";
    return "f16";
  };
  auto type_out = [](DType d) -> std::string {
    if (d == dtypes::float32) return "f32";
    TG_CHECK(d == dtypes::float16)
        << "PTXRenderer: mma.sync has no accumulator type " << d.repr() << " here";
    return "f16";
  };
  const std::string in = type_in(dtype_in), out = type_out(dtype_out);
  lines.push_back(absl::StrCat("mma.sync.aligned.m", m, "n", n, "k", k, ".row.col.", out, ".", in,
                               ".", in, ".", out, std::string(12, ' '), Braced(wmma_r_[2]), ", ",
                               Braced(wmma_r_[0]), ", ", Braced(wmma_r_[1]), ", ",
                               Braced(wmma_r_[2]), ";"));
  // unpack acc registers
  const std::vector<std::string>& res = Lanes(wmma);
  const size_t per_reg = 4 / dtype_out.itemsize();
  for (size_t i = 0; i < wmma_r_[2].size(); ++i) {
    if (per_reg == 1) {
      lines.push_back(absl::StrCat("mov.b32 ", res.at(i), ", ", wmma_r_[2][i], ";"));
    } else {
      std::span<const std::string> part(res.begin() + std::min(i * per_reg, res.size()),
                                        res.begin() + std::min((i + 1) * per_reg, res.size()));
      lines.push_back(absl::StrCat("mov.b32 ", Braced(part), ", ", wmma_r_[2][i], ";"));
    }
  }
  return lines;
}

// The reference's fmt: a tab before each line, and a tab (or two after a short mnemonic) in place
// of the first space.
std::string FormatLine(const std::string& line) {
  if (!line.empty() && line[0] == '$') return line;
  size_t space = line.find(' ');
  if (space == std::string::npos) return "\t" + line;
  return absl::StrCat("\t", line.substr(0, space), space > 7 ? "\t" : "\t\t",
                      line.substr(space + 1));
}

std::string KernelWriter::RenderKernel(const std::string& function_name) const {
  std::vector<std::string> lines;
  for (const auto& [prefix, cnt] : counts_) {
    // "alu_f32_" -> ".reg .f32 %alu_f32_<n>;"
    std::string p = prefix.substr(0, prefix.size() - 1);
    std::string type = p.substr(p.rfind('_') + 1);
    lines.push_back(FormatLine(absl::StrCat(".reg .", type, " %", prefix, "<", cnt, ">;")));
  }
  for (const std::string& l : kernel_) lines.push_back(FormatLine(l));
  lines.push_back(FormatLine("ret;"));
  int64_t launch_bounds = 1;
  for (const UOp& u : uops_)
    if (u.op() == Ops::SPECIAL && u.arg().str()[0] == 'l')
      launch_bounds *= u.src(0).vmax().to_int64();
  std::vector<std::string> params;
  for (const auto& [name, dtype] : bufs_)
    params.push_back(absl::StrCat(".param .", dtype.is_ptr() ? "u64" : PtxType(dtype), " ", name));
  return absl::StrCat(".version VERSION\n.target TARGET\n.address_size 64\n.visible .entry ",
                      function_name, " (\n\t", absl::StrJoin(params, ",\n\t"), "\n)\n.maxntid ",
                      launch_bounds, "\n{\n", absl::StrJoin(lines, "\n"), "\n}");
}

std::string KernelWriter::Render() {
  std::string name = "test";
  for (const UOp& u : uops_) {
    const Ops op = u.op();
    if (op == Ops::NOOP || op == Ops::GROUP) continue;
    if (op == Ops::AFTER) {
      Reg alias = RegOf(u.src(0));  // copied: r_[u] may rehash
      r_[u] = std::move(alias);
      continue;
    }
    if (op == Ops::SINK) {
      if (!u.arg().is_none()) name = KernelInfo::FromArg(u.arg()).function_name();
      continue;
    }
    if (op == Ops::VECTORIZE) {
      std::vector<std::string> lanes;
      for (const UOp& s : u.src()) lanes.push_back(R(s));
      SetLanes(u, std::move(lanes));
      continue;
    }
    if (op == Ops::GEP) {
      TG_CHECK(u.arg().size() == 1) << "PTXRenderer: GEP of " << u.arg().size() << " lanes";
      std::string lane = Lanes(u.src(0)).at(u.arg()[0].int64());
      Set(u, std::move(lane));
      continue;
    }
    if ((op == Ops::CAST || op == Ops::BITCAST) &&
        (u.src(0).dtype() == u.dtype() || u.src(0).dtype().is_ptr())) {
      Reg alias = RegOf(u.src(0));
      r_[u] = std::move(alias);
      continue;
    }
    if (op == Ops::DEFINE_REG) {
      std::vector<std::string> regs;
      std::string type = PtxType(u.dtype().base().scalar());
      for (int64_t i = 0; i < u.dtype().size(); ++i) regs.push_back(Ssa("reg", type));
      SetLanes(u, std::move(regs));
      continue;
    }
    // register arrays are indexed by constants, loads and stores on them are moves
    if ((op == Ops::INDEX || op == Ops::LOAD || op == Ops::STORE) && u.src(0).dtype().is_ptr() &&
        u.src(0).dtype().addrspace() == AddrSpace::REG) {
      if (op == Ops::INDEX) {
        TG_CHECK(u.src(1).op() == Ops::CONST)
            << "PTXRenderer: index on REG in ptx only supported on CONST, not " << u.src(1).op();
        std::string reg = Lanes(u.src(0)).at(u.src(1).arg().number().to_int64());
        Set(u, std::move(reg));
      } else {
        Reg alias = RegOf(u.src(0));
        r_[u] = std::move(alias);
        if (op == Ops::STORE) {
          DType v = u.src(1).dtype();
          kernel_.push_back(absl::StrCat("mov.", v == dtypes::bool_ ? "pred" : "b" + Bits(v), " ",
                                         R(u.src(0)), ", ", R(u.src(1)), ";"));
        }
      }
      continue;
    }
    if (op == Ops::INDEX) continue;  // other index we can skip: loads and stores read its address
    if (op == Ops::SPECIAL) {
      Set(u, "%" + u.arg().str());
    } else if (op == Ops::DEFINE_VAR) {
      bufs_.emplace_back(u.arg()[0].str(), u.dtype());
    } else if (op == Ops::LOAD) {
      TG_CHECK(u.src(0).dtype() == dtypes::int64)
          << "PTXRenderer: load isn't int64 (the extra matcher makes addresses)";
      if (u.dtype().count() > 1) {
        std::vector<std::string> lanes;
        for (int i = 0; i < u.dtype().count(); ++i)
          lanes.push_back(Ssa("val", PtxType(u.dtype().scalar())));
        SetLanes(u, std::move(lanes));
      } else {
        Set(u, Ssa("val", PtxType(u.dtype())));
      }
    } else if (op == Ops::DEFINE_GLOBAL) {
      bufs_.emplace_back(absl::StrCat("data", u.arg().int64()), u.dtype());
    } else if (op == Ops::WMMA) {
      // registers for packing/unpacking input and acc
      auto packed = [&](const UOp& vals, int elem_bytes, const std::string& prefix) {
        std::vector<std::string> regs;
        const size_t per_reg = 4 / elem_bytes, n = Lanes(vals).size();
        for (size_t i = 0; i < n; i += per_reg) regs.push_back(Ssa(prefix, "b32"));
        return regs;
      };
      const int in_bytes = u.src(0).dtype().scalar().itemsize();
      wmma_r_ = {packed(u.src(0), in_bytes, "wmma_in"), packed(u.src(1), in_bytes, "wmma_in"),
                 packed(u.src(2), u.dtype().scalar().itemsize(), "wmma_acc")};
      std::vector<std::string> lanes;
      for (int i = 0; i < u.dtype().count(); ++i)
        lanes.push_back(Ssa("wmma", PtxType(u.dtype().scalar())));
      SetLanes(u, std::move(lanes));
    }
    // a fresh register for the value, named by what makes it
    std::optional<std::pair<std::string, std::string>> prefix;
    if (op == Ops::CAST || op == Ops::BITCAST)
      prefix.emplace("cast", "");
    else if (op == Ops::END)
      prefix.emplace("pred", "pred");
    else if (op == Ops::RANGE)
      prefix.emplace("ridx", "");
    else if (op == Ops::DEFINE_VAR)
      prefix.emplace("dat", "");
    else if (op == Ops::CONST)
      prefix.emplace("const", "");
    else if (op == Ops::DEFINE_LOCAL)
      prefix.emplace("local", PtxType(dtypes::uint64));
    else if (op == Ops::DEFINE_GLOBAL)
      prefix.emplace("dat", PtxType(dtypes::uint64));
    else if (GroupOp::ALU.contains(op))
      prefix.emplace("alu", "");
    if (prefix)
      Set(u,
          Ssa(prefix->first, prefix->second.empty() ? PtxType(u.dtype().base()) : prefix->second));

    std::optional<std::vector<std::string>> lines = Lines(u);
    TG_CHECK(lines.has_value()) << "PTXRenderer: failed to render " << op << " with "
                                << u.dtype().repr() << " srcs " << [&] {
                                     std::vector<std::string> d;
                                     for (const UOp& s : u.src()) d.push_back(s.dtype().repr());
                                     return absl::StrJoin(d, ", ");
                                   }();
    kernel_.insert(kernel_.end(), lines->begin(), lines->end());
    if (op == Ops::SPECIAL)
      kernel_.insert(kernel_.begin(), absl::StrCat(".reg .u32 %", u.arg().str(), ";"));
  }
  return RenderKernel(name);
}

}  // namespace

std::string PtxRenderVal(const ConstValue& x, DType dtype) {
  if (dtypes::is_float(dtype)) {
    const double v = x.to_float();
    if (dtype == dtypes::float64) return absl::StrFormat("0d%016X", std::bit_cast<uint64_t>(v));
    if (dtype == dtypes::float16) return absl::StrFormat("0x%04X", HalfBits(v));
    return absl::StrFormat("0f%08X", std::bit_cast<uint32_t>(static_cast<float>(v)));
  }
  return absl::StrCat(I128ToString(x.to_int()), dtypes::is_unsigned(dtype) ? "U" : "");
}

bool PtxSupportsDType(DType dt) {
  DType s = dt.scalar();
  return s != dtypes::bfloat16 && s != dtypes::fp8e4m3 && s != dtypes::fp8e5m2;
}

absl::Status PtxRenderer::CheckRenderable(std::span<const UOp> uops) const {
  for (const UOp& u : uops) {
    if (!PtxSupportsDType(u.dtype().base()))
      return absl::InvalidArgumentError(absl::StrCat("PTX has no register type for ", u.dtype().base().repr(),
                                                     " (a ", std::string(OpName(u.op())), "): render this kernel with NVRTC instead"));
  }
  return absl::OkStatus();
}

PtxRenderer::PtxRenderer(const CudaArch& arch) : arch_(arch) {
  device = "CUDA";
  suffix = "PTX";
  // CUDARenderer's limits
  global_max = LaunchDims{2147483647, 65535, 65535};
  local_max = LaunchDims{1024, 1024, 64};
  shared_max = 49152;
  // tc_sm80: cuda_sm80's shapes whose inputs PTX has registers for (half, and float as tf32)
  if (arch.sm() >= 80) {
    for (const TensorCore& t : tensor_cores::CudaSm80())
      if (t.dtype_in == dtypes::float16 || t.dtype_in == dtypes::float32) tensor_cores.push_back(t);
  } else if (arch.sm() >= 75) {
    tensor_cores = tensor_cores::CudaSm75();
  }
  code_for_op = kCodeForOp;
  extra_matcher = &PtxExtraMatcher();
}

std::string PtxRenderer::Render(std::span<const UOp> uops) const {
  return KernelWriter(uops).Render();
}

}  // namespace tg
