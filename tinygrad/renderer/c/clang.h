// File: tinygrad/renderer/c/clang.h
// Port of tinygrad/renderer/cstyle.py: ClangRenderer, C for the CPU device compiled by clang.
//
// Kernels take `T* restrict` buffers, `const int` variables and a trailing `int core_id` (the
// thread index, what SPECIAL "gidx0" reads), and use clang vector extensions for float4 & co.
//
// Example:
//   ClangRenderer ren(CpuRendererOptions::FromConfig(config));  // THREADS and CPU_COUNT
//   std::string src = ren.Render(linear_uops);
#ifndef TINYGRAD_RENDERER_C_CLANG_H_
#define TINYGRAD_RENDERER_C_CLANG_H_

#include <span>
#include <string>
#include <vector>

#include "tinygrad/renderer/c/cpu_renderer_options.h"
#include "tinygrad/renderer/c/cstyle.h"

namespace tg {

class ClangRenderer : public CStyleLanguage {
 public:
  // Threads and their limit from `options` (default: threads on one core).
  explicit ClangRenderer(const CpuRendererOptions& options = {});

  std::string CodeForOp(Ops op, std::span<const std::string> args, DType dtype) const override;
  std::string CodeForWorkitem(char kind, std::string_view dim) const override;
  std::string RenderKernel(const std::string& function_name, std::span<const std::string> kernel,
                           std::span<const KernelParam> bufs, std::span<const UOp> uops,
                           const std::vector<std::string>* prefix = nullptr) const override;
  // `typedef float float4 __attribute__((aligned(16),ext_vector_type(4)));`
  std::string RenderVectorPrefix(DType dt) const;

  // ALIGNED: vector typedefs aligned to their (power-of-two rounded) size; off gives 1.
  bool aligned = true;
};

// The rules ClangRenderer adds before linearizing (tinygrad's ClangRenderer.extra_matcher):
// double/bf16 -> half via float, bf16 math in float, manual bf16 casts, devectorized
// SQRT/TRUNC, then the C-style rules.
const PatternMatcher& ClangExtraMatcher();

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_CLANG_H_
