// File: tinygrad/renderer/hip/hip.cc
// Port of tinygrad/renderer/cstyle.py: AMDHIPRenderer (and fp8_index).
#include "tinygrad/renderer/hip/hip.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/renderer/c/float_patterns.h"
#include "tinygrad/uop/upat.h"

namespace tg {
namespace {

bool IsFp8(DType dt) { return dt.scalar() == dtypes::fp8e4m3 || dt.scalar() == dtypes::fp8e5m2; }
// tinygrad's fp8_index: 0 for e4m3 ("fp8"), 1 for e5m2 ("bf8").
int Fp8Index(DType dt) {
  TG_CHECK(IsFp8(dt)) << "not an fp8 dtype: " << dt;
  return dt.scalar() == dtypes::fp8e4m3 ? 0 : 1;
}

// The bit width the device libraries' function names carry (__ocml_sqrt_f16/32/64).
int OcmlBits(DType dt) { return dt == dtypes::float16 ? 16 : dt == dtypes::float64 ? 64 : 32; }

std::string_view OcmlName(Ops op) {
  switch (op) {
    case Ops::TRUNC: return "trunc";
    case Ops::SIN: return "sin";
    case Ops::LOG2: return "log2";
    case Ops::EXP2: return "exp2";
    case Ops::SQRT: return "sqrt";
    default: return "";
  }
}
// The function attribute of each ocml function's declaration.
std::string OcmlAttr(Ops op) {
  switch (op) {
    case Ops::EXP2: case Ops::LOG2: return "pure";
    case Ops::SQRT: return "const";
    default: return "";
  }
}

// The MFMA/WMMA builtins' spellings of the operand types.
std::string HipTypeName(const std::map<ScalarType, std::string>& m, DType dt) {
  auto it = m.find(dt.scalar_type());
  TG_CHECK(it != m.end()) << "no AMD matrix builtin for " << dt;
  return it->second;
}

}  // namespace

absl::StatusOr<AmdArch> AmdArch::Parse(std::string_view arch) {
  std::string_view base = arch.substr(0, arch.find(':'));
  bool ok = base.size() > 3 && base.starts_with("gfx");
  for (char c : base.substr(std::min<size_t>(3, base.size())))
    ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'));
  if (!ok)
    return absl::InvalidArgumentError(
        absl::StrCat("not an AMD GPU arch: '", std::string(arch), "' (expected gfx<id>[:features], e.g. gfx1100)"));
  Family f = base == "gfx942"                         ? Family::kCdna3
             : base == "gfx950"                       ? Family::kCdna4
             : base == "gfx1200" || base == "gfx1201" ? Family::kRdna4
                                                      : Family::kRdna3;
  return AmdArch{.name = std::string(arch), .family = f};
}

HipRenderer::HipRenderer(const AmdArch& arch) : arch_(arch) {
  device = "AMD";
  shared_max = 65536;
  // NOTE (reference): only really needed on gfx12, even though gfx11 reports the same limitation
  global_max = LaunchDims{2147483647, 65535, 65535};
  switch (arch.family) {
    case AmdArch::Family::kCdna3: tensor_cores = tensor_cores::AmdCdna3(); break;
    case AmdArch::Family::kCdna4: tensor_cores = tensor_cores::AmdCdna4(); break;
    case AmdArch::Family::kRdna4: tensor_cores = tensor_cores::AmdRdna4(); break;
    case AmdArch::Family::kRdna3: tensor_cores = tensor_cores::AmdRdna3(); break;
  }
  // https://clang.llvm.org/docs/AttributeReference.html#amdgpu-flat-work-group-size
  kernel_typedef =
      "extern \"C\" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, {launch_bounds})))";
  smem_prefix = "__attribute__((shared, aligned(16)))";
  smem_prefix_for_cast = false;
  barrier =
      "__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"workgroup\");__builtin_amdgcn_s_barrier();"
      "__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"workgroup\");";
  float4 = "make_float4";
  type_map = {{ScalarType::kBFloat16, "hip_bfloat16"},
              {ScalarType::kFp8e4m3, "hip_fp8"},
              {ScalarType::kFp8e5m2, "hip_bf8"}};
  // code_for_op: the C-style set (CStyleLanguage's constructor), ocml spellings below
  extra_matcher = &HipExtraMatcher();
}

std::string HipRenderer::CodeForOp(Ops op, std::span<const std::string> args, DType dtype) const {
  std::string_view ocml = OcmlName(op);
  if (!ocml.empty() && code_for_op.contains(op))
    return absl::StrCat("__ocml_", std::string(ocml), "_f", OcmlBits(dtype), "(", args[0], ")");
  return CStyleLanguage::CodeForOp(op, args, dtype);
}

std::string HipRenderer::CodeForWorkitem(char kind, std::string_view dim) const {
  std::string d(dim);
  switch (kind) {
    case 'g': return "__ockl_get_group_id(" + d + ")";
    case 'l': return "__ockl_get_local_id(" + d + ")";
    case 'i':
      return absl::StrCat("(__ockl_get_group_id(", d, ")*__ockl_get_local_size(", d, ")+__ockl_get_local_id(", d, "))");
    default: return CStyleLanguage::CodeForWorkitem(kind, dim);
  }
}

std::optional<std::string> HipRenderer::StringRewrite(const UOp& u, const RenderNames& r) const {
  if (arch_.is_cdna()) {
    auto n = [&](const UOp& x) -> const std::string& { return NameOf(r, x); };
    if (u.op() == Ops::WMMA) {
      std::string call = absl::StrCat("__", u.arg()[0].str(), "(", n(u.src(0)), ", ", n(u.src(1)), ", ", n(u.src(2)));
      // the scaled fp8 MFMA takes the operand formats, then (unused) scales
      if (u.arg()[1][2].int64() == 128) {
        int f = Fp8Index(u.src(0).dtype());
        return absl::StrCat(call, ", ", f, ", ", f, ", 0, 0, 0, 0)");
      }
      return absl::StrCat(call, ", 0, 0, 0)");
    }
    if (u.op() == Ops::CAST && IsFp8(u.dtype()) && u.src(0).dtype() == dtypes::float32)
      return absl::StrCat("f32_to_fp8(", n(u.src(0)), ", ", Fp8Index(u.dtype()), ")");
    if (u.op() == Ops::CAST && u.dtype() == dtypes::float32 && IsFp8(u.src(0).dtype()))
      return absl::StrCat("__builtin_amdgcn_cvt_f32_", Fp8Index(u.src(0).dtype()) == 0 ? "fp8" : "bf8",
                          "((unsigned int)", n(u.src(0)), ", 0)");
  }
  return BaseRewrite(u, r);
}

std::string HipRenderer::RenderVectorPrefix(DType dt) const {
  std::string vec = RenderDType(dt), scal = RenderDType(dt.scalar());
  std::vector<std::string> names = VectorMemberNames(dt.count()), params;
  for (const std::string& nm : names) params.push_back(scal + " " + nm);
  return absl::StrCat("typedef ", scal, " ", vec, " __attribute__((ext_vector_type(", dt.count(),
                      ")));\nstatic inline __attribute__((device)) ", vec, " make_", vec, "(",
                      absl::StrJoin(params, ", "), ") { return { ", absl::StrJoin(names, ", "), " }; }");
}

std::string HipRenderer::RenderKernel(const std::string& function_name, std::span<const std::string> kernel,
                                      std::span<const KernelParam> bufs, std::span<const UOp> uops,
                                      const std::vector<std::string>* /*prefix*/) const {
  std::vector<std::string> prefix;
  // (name, argument type, result type, attribute) of each device-library function used
  std::vector<std::tuple<std::string, std::string, std::string, std::string>> decls;
  std::vector<DType> used = UopsToDTypes(uops);
  auto any_used = [&](auto pred) { return std::any_of(used.begin(), used.end(), pred); };
  bool non_finite = std::any_of(uops.begin(), uops.end(), [](const UOp& u) {
    return u.op() == Ops::CONST && u.arg().is_number() && u.arg().number().is_float() &&
           !std::isfinite(u.arg().number().to_float());
  });
  if (non_finite) {
    prefix.push_back("#define INFINITY (__builtin_inff())");
    prefix.push_back("#define NAN (__builtin_nanf(\"\"))");
  }
  if (std::any_of(uops.begin(), uops.end(), [](const UOp& u) { return u.op() == Ops::SPECIAL; })) {
    prefix.push_back("typedef long unsigned int size_t;");
    for (const char* name : {"local_id", "group_id", "local_size"})
      decls.emplace_back(absl::StrCat("__ockl_get_", name), "unsigned int", "size_t", "const");
  }
  // ocml functions per (op, scalar dtype) in first-use order
  std::vector<std::pair<Ops, DType>> seen;
  for (const UOp& u : uops) {
    std::pair<Ops, DType> key{u.op(), u.dtype().scalar()};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    DType dt = key.second;
    if (OcmlName(u.op()).empty() || !(dt == dtypes::float16 || dt == dtypes::float32 || dt == dtypes::float64))
      continue;
    decls.emplace_back(absl::StrCat("__ocml_", std::string(OcmlName(u.op())), "_f", dt.bitsize()), dt.name(),
                       dt.name(), OcmlAttr(u.op()));
  }
  if (any_used([](DType d) { return d.scalar() == dtypes::bfloat16; }))
    prefix.push_back("typedef unsigned short hip_bfloat16;");
  if (any_used([](DType d) { return d.scalar() == dtypes::float16; })) prefix.push_back("#define half _Float16");
  if (any_used([](DType d) { return IsFp8(d); })) {
    prefix.push_back("typedef unsigned char hip_bf8;");
    prefix.push_back("typedef unsigned char hip_fp8;");
    // saturate finite values to the format's range, then convert with the hardware instruction
    prefix.push_back(
        "static inline __attribute__((device)) unsigned char f32_to_fp8(float v, int is_bf8) {\n"
        "  v = (((*(unsigned*)&v)&0x7F800000)!=0x7F800000)?__builtin_amdgcn_fmed3f(v,is_bf8?57344.0f:448.0f,"
        "is_bf8?-57344.0f:-448.0f) : v;\n"
        "  return (unsigned char)(is_bf8?__builtin_amdgcn_cvt_pk_bf8_f32(v,v,0,false):"
        "__builtin_amdgcn_cvt_pk_fp8_f32(v,v,0,false));\n}");
  }
  for (const auto& [meth, dti, dto, atr] : decls)
    prefix.push_back(absl::StrCat("extern \"C\" __attribute__((device", atr.empty() ? "" : ", " + atr, ")) ", dto, " ",
                                  meth, "(", dti, ");"));
  for (DType dt : used)
    if (dt.count() > 1) prefix.push_back(RenderVectorPrefix(dt));

  // The matrix builtins' type suffixes. As in the reference, the CDNA shapes' overrides stay in
  // effect for the WMMAs after them (one map, updated in the loop).
  std::map<ScalarType, std::string> type_map = {{ScalarType::kBFloat16, "bf16"},
                                                {ScalarType::kFloat32, "f32"},
                                                {ScalarType::kFloat16, "f16"},
                                                {ScalarType::kFp8e4m3, "_fp8_fp8"},
                                                {ScalarType::kFp8e5m2, "_bf8_bf8"}};
  for (const auto& [arg, dtype_out] : WmmaArgs(uops)) {
    const std::string& name = arg[0].str();
    int64_t n = arg[1][0].int64(), m = arg[1][1].int64(), k = arg[1][2].int64();
    DType dtype_in = WmmaDTypeIn(arg);
    if (arch_.is_cdna()) {
      if (n == 16 && m == 16 && k == 16) {
        type_map[ScalarType::kBFloat16] = "bf16_1k";
      } else if (n == 16 && m == 16 && k == 32) {
        type_map[ScalarType::kBFloat16] = "_bf16";
        type_map[ScalarType::kFloat16] = "_f16";
      } else if (n == 16 && m == 16 && k == 128) {
        type_map[ScalarType::kFp8e4m3] = "_f8f6f4";
        type_map[ScalarType::kFp8e5m2] = "_f8f6f4";
      }
      prefix.push_back(absl::StrCat("#define __", name, " __builtin_amdgcn_mfma_", k == 128 ? "scale_" : "", "f32_", n,
                                    "x", m, "x", k, HipTypeName(type_map, dtype_in)));
    } else if (arch_.family == AmdArch::Family::kRdna4) {
      // #define __WMMA_16_16_16_half_half __builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12
      prefix.push_back(absl::StrCat("#define __", name, " __builtin_amdgcn_wmma_", HipTypeName(type_map, dtype_out),
                                    "_16x16x16_", HipTypeName(type_map, dtype_in), "_w32_gfx12"));
    } else if (dtype_out == dtypes::float32) {
      prefix.push_back(absl::StrCat("#define __", name, " __builtin_amdgcn_wmma_f32_16x16x16_",
                                    dtype_in == dtypes::float16 ? "f16" : "bf16", "_w32"));
    } else {
      // RDNA3's half accumulator lives in every other lane of a half16
      prefix.push_back(absl::StrCat(
          "static inline __attribute__((device)) half8 __", name,
          "(half16 a, half16 b, half8 c) {\n"
          "  half16 c_frag = {}; half8 d; for (int n = 0; n < 8; n++) { c_frag[n*2] = c[n]; }\n"
          "  c_frag = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(a, b, c_frag, false);\n"
          "  for (int n = 0; n < 8; n++) { d[n] = c_frag[n*2]; } return d;\n}"));
    }
  }
  return CStyleLanguage::RenderKernel(function_name, kernel, bufs, uops, &prefix);
}

const PatternMatcher& HipExtraMatcher() {
  static const auto* const kRules = [] {
    PatternMatcher own({
        // fp8 MFMA operands (8 lanes, 64 bits) are passed as one uint64
        Rule(UPat(Ops::WMMA).dtype(dtypes::float32.vec(4)).named("x"),
             [](const Match& m) {
               const UOp& x = m["x"];
               DType in = x.src(0).dtype();
               if (in != dtypes::fp8e4m3.vec(8) && in != dtypes::fp8e5m2.vec(8)) return UOp();
               return UOp::Make(Ops::WMMA, x.dtype(),
                                {x.src(0).bitcast(dtypes::uint64), x.src(1).bitcast(dtypes::uint64), x.src(2)},
                                x.arg());
             }),
        // bfloat16 constant casting (a scalar CONST: the reference's rule also matches a VCONST,
        // then fails cast_float_to_bf16's float assert)
        Rule(UPat::CVar("x", {dtypes::bfloat16}, /*vec=*/false),
             [](const Match& m) { return CastFloatToBf16(UOp::Const(dtypes::float32, m["x"].arg().number())); }),
    });
    return new PatternMatcher(CreateNonNativeFloatPats({dtypes::bfloat16, dtypes::fp8e4m3, dtypes::fp8e5m2}) + own +
                              PmManualBf16Cast() + CStyleExtraPm());
  }();
  return *kRules;
}

}  // namespace tg
