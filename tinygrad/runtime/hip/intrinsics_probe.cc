// File: tinygrad/runtime/hip/intrinsics_probe.cc
// Which of the tensor-core (WMMA/MFMA) and fp8 builtins the HIP renderer emits does the
// installed AMD toolchain accept, per target? Compiles one small kernel per (builtin, target)
// with HipCompiler and prints a table: "ok", "unknown" (the compiler has no such builtin),
// "needs <feature>" (it has it, not on this target), or the first error line. No GPU needed.
//
//   bazel run //tinygrad/runtime/hip:intrinsics_probe [-- gfx90a gfx1100 ...]
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/runtime/hip/hip_compiler.h"

namespace {

struct Builtin {
  const char* name;
  const char* family;  // the HIP renderer's table that emits it
  const char* call;    // an expression calling it with operands declared in kPrelude
};

constexpr char kPrelude[] = R"(#define half _Float16
typedef half half4 __attribute__((ext_vector_type(4)));
typedef half half8 __attribute__((ext_vector_type(8)));
typedef half half16 __attribute__((ext_vector_type(16)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef short short8 __attribute__((ext_vector_type(8)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef int int8 __attribute__((ext_vector_type(8)));
extern "C" __attribute__((global)) void probe(float* out, half16 h16, half8 h8, half4 h4, short16 s16,
    short8 s8, short4 s4, float8 f8, float4 f4, long l, int8 i8, int i, float f) {
  auto r = )";

const Builtin kBuiltins[] = {
    {"__builtin_amdgcn_wmma_f32_16x16x16_f16_w32", "RDNA3", "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32(h16, h16, f8)"},
    {"__builtin_amdgcn_wmma_f16_16x16x16_f16_w32", "RDNA3", "__builtin_amdgcn_wmma_f16_16x16x16_f16_w32(h16, h16, h16, false)"},
    {"__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32", "RDNA3", "__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(s16, s16, f8)"},
    {"__builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12", "RDNA4", "__builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(h8, h8, f8)"},
    {"__builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12", "RDNA4", "__builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12(h8, h8, h8)"},
    {"__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12", "RDNA4", "__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12(s8, s8, f8)"},
    {"__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32_gfx12", "RDNA4", "__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32_gfx12(s8, s8, s8)"},
    {"__builtin_amdgcn_mfma_f32_16x16x16f16", "CDNA3/4", "__builtin_amdgcn_mfma_f32_16x16x16f16(h4, h4, f4, 0, 0, 0)"},
    {"__builtin_amdgcn_mfma_f32_16x16x16bf16_1k", "CDNA3/4", "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k(s4, s4, f4, 0, 0, 0)"},
    {"__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8", "CDNA3/4", "__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(l, l, f4, 0, 0, 0)"},
    {"__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8", "CDNA3/4", "__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(l, l, f4, 0, 0, 0)"},
    {"__builtin_amdgcn_mfma_f32_16x16x32_f16", "CDNA4", "__builtin_amdgcn_mfma_f32_16x16x32_f16(h8, h8, f4, 0, 0, 0)"},
    {"__builtin_amdgcn_mfma_f32_16x16x32_bf16", "CDNA4", "__builtin_amdgcn_mfma_f32_16x16x32_bf16(s8, s8, f4, 0, 0, 0)"},
    {"__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4", "CDNA4", "__builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(i8, i8, f4, 0, 0, 0, 0, 0, 0)"},
    {"__builtin_amdgcn_cvt_f32_fp8", "CDNA fp8", "__builtin_amdgcn_cvt_f32_fp8(i, 0)"},
    {"__builtin_amdgcn_cvt_f32_bf8", "CDNA fp8", "__builtin_amdgcn_cvt_f32_bf8(i, 0)"},
    {"__builtin_amdgcn_cvt_pk_fp8_f32", "CDNA fp8", "__builtin_amdgcn_cvt_pk_fp8_f32(f, f, i, false)"},
    {"__builtin_amdgcn_cvt_pk_bf8_f32", "CDNA fp8", "__builtin_amdgcn_cvt_pk_bf8_f32(f, f, i, false)"},
};

// One word for a compile's outcome.
std::string Verdict(const absl::StatusOr<std::string>& r, const char* name) {
  if (r.ok()) return "ok";
  const std::string m(r.status().message());
  if (m.find(absl::StrCat("undeclared identifier '", name, "'")) != std::string::npos) return "unknown";
  if (size_t at = m.find("needs target feature "); at != std::string::npos) {
    size_t start = at + 21;
    return "needs " + m.substr(start, m.find_first_of("\n ", start) - start);
  }
  size_t at = m.find("error: ");
  return at == std::string::npos ? m.substr(0, 60) : m.substr(at + 7, m.find('\n', at) - at - 7).substr(0, 60);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> targets;
  for (int i = 1; i < argc; ++i) targets.emplace_back(argv[i]);
  if (targets.empty()) targets = {"gfx90a", "gfx940", "gfx942", "gfx950", "gfx1100", "gfx1200"};
  const tg::HipToolchainOptions tools = tg::HipToolchainOptions::FromEnvironment();
  std::vector<std::unique_ptr<tg::HipCompiler>> compilers;
  for (const std::string& t : targets) {
    absl::StatusOr<std::unique_ptr<tg::HipCompiler>> c =
        tg::HipCompiler::Create(tools, {.arch = t, .cachelevel = 0});
    if (c.ok()) {
      std::printf("%-8s %s\n", t.c_str(), (*c)->compiler_id().substr(0, 40).c_str());
      compilers.push_back(*std::move(c));
    } else {
      std::string why(c.status().message());
      for (char& ch : why)
        if (ch == '\n') ch = ' ';
      std::printf("%-8s no compiler: %s\n", t.c_str(), why.substr(0, 220).c_str());
      compilers.push_back(nullptr);
    }
  }
  std::printf("\n%-52s %-9s", "builtin", "family");
  for (const std::string& t : targets) std::printf(" %-20s", t.c_str());
  std::printf("\n");
  for (const Builtin& b : kBuiltins) {
    std::printf("%-52s %-9s", b.name, b.family);
    const std::string src = absl::StrCat(kPrelude, b.call, ";\n  out[0] = (float)r[0];\n}\n");
    const std::string scalar_src = absl::StrCat(kPrelude, b.call, ";\n  out[0] = (float)r;\n}\n");
    for (const auto& c : compilers) {
      if (c == nullptr) {
        std::printf(" %-20s", "-");
        continue;
      }
      absl::StatusOr<std::string> r = c->CompileUncached(src);
      // cvt_f32_* return a scalar: r[0] does not apply.
      if (!r.ok() && r.status().message().find("subscripted value is not an array") != std::string::npos)
        r = c->CompileUncached(scalar_src);
      std::printf(" %-20s", Verdict(r, b.name).c_str());
    }
    std::printf("\n");
  }
  return 0;
}
