// File: tinygrad/renderer/hip/hip.h
// Port of tinygrad/renderer/cstyle.py: AMDHIPRenderer, HIP C++ for AMD GPUs (compiled by
// clang/comgr for an amdgcn target; no HIP headers are needed).
//
// Kernels are `extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(
// 1, <local size>))) name(...)`. Launch indices and math come from the device libraries
// (__ockl_get_group_id, __ocml_sqrt_f32, ...), declared in the prefix; half is _Float16,
// bfloat16 and fp8 are integer typedefs whose math happens in float; vectors are clang
// ext_vector_types with make_<type>N helpers; tensor cores are the WMMA builtins on RDNA3/RDNA4
// and the MFMA builtins on CDNA3/CDNA4.
//
// The target is an explicit constructor argument: its arch ("gfx1100", "gfx942:sramecc+:xnack-")
// picks the tables as the reference does: gfx942 CDNA3, gfx950 CDNA4, gfx1200/gfx1201 RDNA4,
// any other RDNA3.
//
// Example:
//   ASSIGN_OR_RETURN(AmdArch arch, AmdArch::Parse("gfx1100"));
//   HipRenderer ren(arch);
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, ren, options));   // p.src: HIP C++
#ifndef TINYGRAD_RENDERER_HIP_HIP_H_
#define TINYGRAD_RENDERER_HIP_HIP_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/renderer/c/cstyle.h"

namespace tg {

// An AMD GPU target as the drivers name it: "gfx<id>" with optional ":feature" suffixes.
struct AmdArch {
  enum class Family { kRdna3, kRdna4, kCdna3, kCdna4 };

  std::string name;  // as given, features included
  Family family = Family::kRdna3;

  bool is_cdna() const { return family == Family::kCdna3 || family == Family::kCdna4; }
  // "gfx" then letters and digits, optionally followed by ":feature" parts; anything else is an
  // InvalidArgument error naming it. The family is the reference's choice for the base name
  // (unknown gfx ids get RDNA3's tables, as in the reference).
  static absl::StatusOr<AmdArch> Parse(std::string_view arch);
};

class HipRenderer : public CStyleLanguage {
 public:
  explicit HipRenderer(const AmdArch& arch);

  const AmdArch& arch() const { return arch_; }

  std::string CodeForOp(Ops op, std::span<const std::string> args, DType dtype) const override;
  std::string CodeForWorkitem(char kind, std::string_view dim) const override;
  std::optional<std::string> StringRewrite(const UOp& u, const RenderNames& r) const override;
  std::string RenderKernel(const std::string& function_name, std::span<const std::string> kernel,
                           std::span<const KernelParam> bufs, std::span<const UOp> uops,
                           const std::vector<std::string>* prefix = nullptr) const override;

  // `typedef float float4 __attribute__((ext_vector_type(4)));` and its make_float4.
  std::string RenderVectorPrefix(DType dt) const;

 private:
  AmdArch arch_;
};

// The rules HipRenderer adds before linearizing (tinygrad's AMDHIPRenderer.extra_matcher):
// bfloat16/fp8 math and casts through float, fp8 MFMA operands as uint64, bfloat16 constants
// built from float bits, manual bfloat16 casts, then the C-style rules.
const PatternMatcher& HipExtraMatcher();

}  // namespace tg

#endif  // TINYGRAD_RENDERER_HIP_HIP_H_
