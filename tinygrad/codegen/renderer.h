// File: tinygrad/codegen/renderer.h
// Port of tinygrad/renderer/__init__.py: the Renderer interface and ProgramSpec.
//
// The interface lives with the code generator that consumes it: lowering asks the renderer
// what the target can do (float4, locals, threads, size limits, which ops it renders natively)
// and finally hands it the linear program to print. Concrete renderers (renderer/c, cuda, hip,
// llvm) implement it.
//
// Example:
//   const Renderer& ren = ...;                      // e.g. a ClangRenderer
//   ProgramSpec p = GetProgram(ast, ren);           // codegen/pipeline.h
//   p.src                                           // the C source
#ifndef TINYGRAD_CODEGEN_RENDERER_H_
#define TINYGRAD_CODEGEN_RENDERER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/gemm_problem.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/codegen/tensor_map_spec.h"
#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

using LaunchDims = std::array<int64_t, 3>;

class Renderer {
 public:
  virtual ~Renderer() = default;

  // The program's source for a linearized kernel (ends with the SINK, whose KernelInfo names
  // the function).
  virtual std::string Render(std::span<const UOp> uops) const = 0;
  // Why Render cannot print this program (a value of a type the target has no register for),
  // or OK. GetProgram asks before rendering, so such a kernel is an error, not a crash.
  virtual absl::Status CheckRenderable(std::span<const UOp> uops) const {
    (void)uops;
    return absl::OkStatus();
  }

  // ** what the target can do (tinygrad's Renderer class attributes) **
  std::string device;
  std::string suffix;
  bool supports_float4 = true;
  bool has_local = true;
  bool has_threads = false;
  bool has_shared = true;
  // (x, y, z) limits; nullopt is tinygrad's None (no launch dims at all).
  std::optional<LaunchDims> global_max = LaunchDims{0x8FFFFFFF, 0x8FFFFFFF, 0x8FFFFFFF};
  std::optional<LaunchDims> local_max = LaunchDims{0x8FFFFFFF, 0x8FFFFFFF, 0x8FFFFFFF};
  int64_t shared_max = 32768;
  // Vector widths (lanes) the SIMD opt may fold loads and stores to; empty: no SIMD opt (an
  // extension of ours, see OptOps::SIMD).
  std::vector<int> simd_widths;
  // The matrix-multiply-accumulate shapes the TC opt may use (tinygrad/codegen/opt/tc.py tables).
  std::vector<TensorCore> tensor_cores;
  // The ops rendered natively (the keys of tinygrad's code_for_op); the rest are decomposed.
  OpSet code_for_op;
  const PatternMatcher* pre_matcher = nullptr;
  const PatternMatcher* extra_matcher = nullptr;

  // ** generated matmul kernels (the GEMM opt, ours) **
  // The tilings this target generates matmuls with; empty: no GEMM opt here.
  std::vector<GemmTiling> gemm_tilings;
  // Whether `t` can compute `p` here (sizes, shared memory), and why not: InvalidArgument.
  virtual absl::Status CheckGemm(const GemmProblem& p, const GemmTiling& t) const {
    (void)p;
    (void)t;
    return absl::UnimplementedError(absl::StrCat(device, " generates no matmul kernels"));
  }
  // The generated kernel's source and launch sizes.
  virtual absl::StatusOr<GemmKernel> RenderGemm(const GemmProblem& p, const GemmTiling& t,
                                                std::string_view function_name) const {
    (void)function_name;
    RETURN_IF_ERROR(CheckGemm(p, t));
    return absl::UnimplementedError(absl::StrCat(device, " generates no matmul kernels"));
  }
};

// tinygrad's Estimates: flops, bytes loaded/stored, and bytes of memory touched. Symbolic
// when a loop bound is a variable.
struct Estimates {
  UOp ops;
  UOp lds;
  UOp mem;
};

// tinygrad's ProgramSpec: a rendered kernel and what launching it needs.
struct ProgramSpec {
  std::string name;           // the KernelInfo name (may hold ANSI colors)
  std::string function_name;  // the C identifier
  std::string src;
  std::string device;
  UOp ast;                    // the kernel AST it was built from (method cache key)
  std::vector<UOp> uops;      // the linear program
  std::vector<UOp> global_size;               // 3 index-dtype UOps (symbolic allowed)
  std::optional<std::vector<UOp>> local_size; // nullopt: the runtime picks
  std::vector<UOp> vars;      // DEFINE_VARs, sorted by arg: the order of variable arguments
  std::vector<int64_t> globals;  // DEFINE_GLOBAL slots, sorted: the order of buffer arguments
  std::vector<int64_t> outs;     // slots stored to
  std::vector<int64_t> ins;      // slots loaded from
  Estimates estimates;
  std::vector<Arg> applied_opts;
  // Shared memory the launch allocates for the kernel (`extern __shared__`): a generated matmul
  // (GEMM opt) stages its tiles there; 0 for every lowered kernel.
  int64_t dynamic_shared_bytes = 0;
  // Tensor maps the launch passes after the buffers and variables, for a kernel that loads
  // through Hopper's copy engine (tensor_map_spec.h); none for every lowered kernel.
  std::vector<TensorMapSpec> tensor_maps;
};

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_RENDERER_H_
