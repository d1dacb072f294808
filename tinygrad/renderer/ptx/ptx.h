// File: tinygrad/renderer/ptx/ptx.h
// Port of tinygrad/renderer/ptx.py: PTXRenderer, kernels rendered straight to PTX (CUDA_PTX=1),
// so a candidate costs an assembler pass (nvJitLink, or the driver's JIT) instead of NVRTC's C++
// front end.
//
// A kernel is `.visible .entry name (.param .u64 data0, ..., .param .s32 var) .maxntid <local
// size> { ... }`. Every value gets a virtual register named by what made it and its type
// (`%alu_f32_3`, `%val_f16_0`, `%const_u32_1`, `%gidx0`), declared up front as `.reg .f32
// %alu_f32_<n>;`. Memory is addressed in bytes: PtxExtraMatcher() turns every INDEX into
// `buffer + index * itemsize` in int64 before linearizing. Loops are a counter with branches,
// gates are predicates, shared memory is a `.shared` array, tensor cores are `mma.sync`.
//
// The header names the PTX ISA and target as the placeholders "VERSION" and "TARGET"; the
// compiler fills them in for its arch (runtime/cuda/ptx_compiler.h FillPtxPlaceholders), so one
// rendered kernel serves every arch of the same tensor-core table, as in the reference.
//
// The target is an explicit constructor argument (no global configuration is read): its compute
// capability picks the tensor cores as the reference does: none before sm_75, sm_75 the m16n8k8
// half shapes (tensor_cores::CudaSm75), from sm_80 the half and tf32 shapes of CudaSm80 (the
// reference has no bf16 or fp8 registers in PTX, so it leaves those out, also on sm_89+).
//
// Example:
//   ASSIGN_OR_RETURN(CudaArch arch, ParseCudaArch("sm_89"));   // runtime/cuda/arch.h
//   PtxRenderer ren(arch);
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, ren, options));   // p.src: PTX
//   ASSIGN_OR_RETURN(std::string cubin, ptx_compiler->Compile(p.src));
#ifndef TINYGRAD_RENDERER_PTX_PTX_H_
#define TINYGRAD_RENDERER_PTX_PTX_H_

#include <span>
#include <string>

#include "tinygrad/codegen/renderer.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

class PtxRenderer : public Renderer {
 public:
  explicit PtxRenderer(const CudaArch& arch);

  const CudaArch& arch() const { return arch_; }

  // The kernel's PTX (with the VERSION/TARGET placeholders). CHECK-fails on a uop it has no rule
  // for, as the reference raises "failed to render" (a value of a type PTX has no register for,
  // bfloat16 or fp8, is one: see PtxSupportsDType).
  std::string Render(std::span<const UOp> uops) const override;
  // InvalidArgument for a value of a type PTX has no register for (bfloat16, fp8: PtxSupportsDType).
  absl::Status CheckRenderable(std::span<const UOp> uops) const override;

 private:
  CudaArch arch_;
};

// The rules PtxRenderer adds before linearizing (tinygrad's ptx_matcher): bool compares as
// predicate logic, f16 ops PTX lacks done in f32, bools in memory as uint8, INDEX as a byte
// address in int64 (not for register arrays), pointer casts dropped, shift amounts as uint32.
const PatternMatcher& PtxExtraMatcher();

// Whether PtxRenderer can hold values of `dt`: the reference's is_dtype_supported on CUDA under
// CUDA_PTX, which says no for bfloat16 and fp8 (the renderer has no register type for them).
bool PtxSupportsDType(DType dt);

// tinygrad's render_val: a constant as a PTX literal. Floats are their bits, most significant
// first: f64 "0d400921FB54442D18", f16 "0x3C00", others as f32 "0f3F800000"; ints in decimal,
// unsigned ones with a "U" suffix ("255U").
std::string PtxRenderVal(const ConstValue& x, DType dtype);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_PTX_PTX_H_
