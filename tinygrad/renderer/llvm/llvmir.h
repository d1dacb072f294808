// File: tinygrad/renderer/llvm/llvmir.h
// Port of tinygrad/renderer/llvmir.py: LLVMRenderer, textual LLVM IR for the CPU device.
//
// A kernel is `define void @name(float* noalias align 32 %data0, ..., i32 %n) #0`: buffers,
// then int variables.
//
// Extension: threads. The reference LLVMRenderer has no THREAD support (global_max None, one
// core). Ours, like ClangRenderer, has has_threads = THREADS and global_max = (CPU_COUNT, 0, 0):
// a kernel with a SPECIAL (gidx0, the THREAD axis) takes a trailing `i32 %core_id`, which the
// SPECIAL reads. Kernels without one render exactly as the reference's.
//
// Deliberate differences for LLVM 14 (`llvm14`, on by default; our system LLVM is 14, the
// reference targets LLVM >= 15):
// - Typed pointers. The reference writes typed-pointer syntax but relies on opaque pointers: a
//   pointer CAST is a no-op, so a float4 load reads through a `float*` value, and a register
//   array's alloca is indexed as its element pointer. LLVM 14 parses that only with
//   -opaque-pointers, a mode that crashes its loop vectorizer (LoopAccessAnalysis) on x86. So we
//   emit a `bitcast` (named %castN, so other values keep their names) for a pointer CAST that
//   changes the type, and `alloca T, i32 N` for registers and locals.
// - Intrinsics. TRUNC calls `@llvm.trunc.float`, which newer LLVMs resolve; LLVM 14 needs the
//   mangled name and a declaration: `@llvm.trunc.f32` plus `declare float @llvm.trunc.f32(float)`
//   before the kernel.
// llvm14=false renders byte-exactly like the reference (the golden tests use it).
//
// Example:
//   LLVMRenderer ren(CpuRendererOptions::FromConfig(config));  // THREADS and CPU_COUNT
//   std::string ir = ren.Render(linear_uops);   // "define void @E_16(float* noalias ..."
#ifndef TINYGRAD_RENDERER_LLVM_LLVMIR_H_
#define TINYGRAD_RENDERER_LLVM_LLVMIR_H_

#include <span>
#include <string>

#include "tinygrad/codegen/renderer.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/renderer/c/cpu_renderer_options.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

class LLVMRenderer : public Renderer {
 public:
  // THREADS and CPU_COUNT from `options` (see the threads extension above; default: threads
  // on one core).
  explicit LLVMRenderer(const CpuRendererOptions& options = {});
  // The module text: the kernel function and its attribute group. CHECK-fails on a uop it has
  // no rule for (tinygrad raises "failed to render").
  std::string Render(std::span<const UOp> uops) const override;

  bool llvm14 = true;
};

// tinygrad's ldt: the LLVM type of a dtype ("float", "<4 x float>", "float*", "i1").
std::string Ldt(DType dt);
// tinygrad's lconst: a constant as an LLVM literal (floats rounded to the dtype, inf/nan as
// the double's bits in hex, ints as decimal).
std::string LConst(const ConstValue& x, DType dtype);
// tinygrad's lcast: the cast instruction from one dtype to another ("sitofp", "fptrunc", ...).
std::string LCast(DType input_type, DType output_type);

// LLVMRenderer.extra_matcher: bf16 math in float and manual bf16 casts.
const PatternMatcher& LlvmExtraMatcher();

}  // namespace tg

#endif  // TINYGRAD_RENDERER_LLVM_LLVMIR_H_
