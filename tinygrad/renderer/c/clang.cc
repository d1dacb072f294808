// File: tinygrad/renderer/c/clang.cc
// Port of tinygrad/renderer/cstyle.py: ClangRenderer.
#include "tinygrad/renderer/c/clang.h"

#include <bit>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/renderer/c/float_patterns.h"
#include "tinygrad/uop/upat.h"

namespace tg {

ClangRenderer::ClangRenderer(const CpuRendererOptions& options) {
  device = "CPU";
  float4 = "(float4)";
  float4_style = {"{", "}"};
  gep_arr_threshold = 0;
  has_local = false;
  // ours: the PACK opt's stack arrays (DEFINE_LOCAL; a CPU kernel has no others) are read as
  // whole vectors, whose typedefs are aligned to their size, up to 64 bytes (float16)
  smem_align = "__attribute__((aligned(64))) ";
  has_threads = options.threads;
  global_max = LaunchDims{options.cpu_count, 0, 0};
  infinity = "__builtin_inff()";
  nan = "__builtin_nanf(\"\")";
  extra_args = {"int core_id"};
  // C vector types of any width compile everywhere; clang splits what the CPU lacks
  simd_widths = {8, 16};
  // ours: SIMD tiles' accumulators as C vectors (vector_acc.h: clang 14 spills them otherwise);
  // only the SIMD opt makes vectors this wide
  vector_acc_min_width = 8;
  // language options
  buffer_suffix = " restrict";
  type_map = {{ScalarType::kBool, "_Bool"}, {ScalarType::kFloat16, "__fp16"}};
  // C-style ops without EXP2/SIN/LOG2/RECIPROCAL (decomposed in software), plus FDIV
  code_for_op = OpSet{Ops::NEG,   Ops::AND,   Ops::XOR,   Ops::OR,    Ops::ADD,  Ops::SUB,
                      Ops::MUL,   Ops::MOD,   Ops::IDIV,  Ops::CMPNE, Ops::SHR,  Ops::SHL,
                      Ops::CMPLT, Ops::WHERE, Ops::CMPEQ, Ops::SQRT,  Ops::TRUNC, Ops::FDIV};
  extra_matcher = &ClangExtraMatcher();
}

std::string ClangRenderer::CodeForOp(Ops op, std::span<const std::string> args,
                                     DType dtype) const {
  bool f64 = dtype == dtypes::float64;
  if (op == Ops::SQRT) return absl::StrCat(f64 ? "__builtin_sqrt(" : "__builtin_sqrtf(", args[0], ")");
  if (op == Ops::TRUNC)
    return absl::StrCat(f64 ? "__builtin_trunc(" : "__builtin_truncf(", args[0], ")");
  return CStyleLanguage::CodeForOp(op, args, dtype);
}

std::string ClangRenderer::CodeForWorkitem(char kind, std::string_view dim) const {
  if (kind == 'g') return "core_id";
  return CStyleLanguage::CodeForWorkitem(kind, dim);
}

std::string ClangRenderer::RenderVectorPrefix(DType dt) const {
  // round (down) to a power of two (this is actually the default clang behavior)
  int alignment = aligned && !dtypes::is_bool(dt)
                      ? static_cast<int>(std::bit_floor(static_cast<unsigned>(dt.itemsize())))
                      : 1;
  return absl::StrCat("typedef ", RenderDType(dt.scalar()), " ", RenderDType(dt),
                      " __attribute__((aligned(", alignment, "),ext_vector_type(", dt.count(),
                      ")));");
}

std::string ClangRenderer::RenderKernel(const std::string& function_name,
                                        std::span<const std::string> kernel,
                                        std::span<const KernelParam> bufs,
                                        std::span<const UOp> uops,
                                        const std::vector<std::string>* prefix) const {
  // one typedef per vector dtype, in first-use order (tinygrad's uops_to_dtypes)
  std::vector<std::string> defines;
  for (DType dt : UopsToDTypes(uops))
    if (dt.count() > 1) defines.push_back(RenderVectorPrefix(dt));
  return absl::StrCat(absl::StrJoin(defines, "\n"), "\n",
                      CStyleLanguage::RenderKernel(function_name, kernel, bufs, uops, prefix),
                      "\n");
}

const PatternMatcher& ClangExtraMatcher() {
  static const auto* const kRules = [] {
    PatternMatcher own({
        // LLVM legalizes double => half/bf16 casts on CPUs without native support into a
        // compiler-rt libcall, and there is no native bf16 <-> fp16 conversion: go via float
        Rule(UPat::Var("x", {dtypes::float64}).cast(dtypes::float16),
             [](const Match& m) { return m["x"].cast(dtypes::float32).cast(dtypes::float16); }),
        Rule(UPat::Var("x", {dtypes::float64}).cast(dtypes::bfloat16),
             [](const Match& m) { return m["x"].cast(dtypes::float32).cast(dtypes::bfloat16); }),
        Rule(UPat::Var("x", {dtypes::bfloat16}).cast(dtypes::float16),
             [](const Match& m) { return m["x"].cast(dtypes::float32).cast(dtypes::float16); }),
        // SQRT/TRUNC builtins are scalar
        Rule(UPat(OpSet{Ops::SQRT, Ops::TRUNC}).named("alu"),
             [](const Match& m) { return NoVectorizedAlu(m["alu"]); }),
    });
    return new PatternMatcher(own + CreateNonNativeFloatPats({dtypes::bfloat16}) +
                              PmManualBf16Cast() + CStyleExtraPm());
  }();
  return *kRules;
}

}  // namespace tg
