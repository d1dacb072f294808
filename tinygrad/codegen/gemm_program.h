// File: tinygrad/codegen/gemm_program.h
// The program of a kernel whose opts are a GEMM opt (ours, codegen/opt/opt.h): the renderer's
// generated matmul instead of a lowered one. GetProgram asks here first.
#ifndef TINYGRAD_CODEGEN_GEMM_PROGRAM_H_
#define TINYGRAD_CODEGEN_GEMM_PROGRAM_H_

#include <optional>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// nullopt when the kernel's opts_to_apply hold no GEMM; else its generated program: the source,
// launch sizes and shared memory from Renderer::RenderGemm, the buffers in slot order, flops
// 2*m*n*k and the bytes of a, b and the output. KernelOptError when GEMM is not the only opt,
// the kernel is not a plain matmul (MatchGemm) or the renderer does not generate the tiling.
absl::StatusOr<std::optional<ProgramSpec>> GemmProgram(const UOp& kernel_ast, const Renderer& ren);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_GEMM_PROGRAM_H_
