// File: tinygrad/codegen/opt/gemm_opt.h
// The GEMM opt (ours, opt.h) as the optimizer, the search and the code generator share it: the
// tiling an Opt names, whether a renderer generates it for a kernel, and the Opt of a tiling.
//
// Example:
//   ASSIGN_OR_RETURN(GemmTiling t, GemmTilingOf(opt));         // Opt(GEMM, None, (128, 256, 4))
//   RETURN_IF_ERROR(CheckGemmOn(renderer, *MatchGemm(ast), t));
#ifndef TINYGRAD_CODEGEN_OPT_GEMM_OPT_H_
#define TINYGRAD_CODEGEN_OPT_GEMM_OPT_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/gemm_problem.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/renderer.h"

namespace tg {

// Arg (bm, bn, stages), no axis. KernelOptError for another op or a malformed opt.
absl::StatusOr<GemmTiling> GemmTilingOf(const Opt& opt);
Opt GemmOpt(const GemmTiling& t);

// KernelOptError unless `ren` lists `t` and generates it for `p` (sizes, shared memory), with the
// renderer's reason.
absl::Status CheckGemmOn(const Renderer& ren, const GemmProblem& p, const GemmTiling& t);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_GEMM_OPT_H_
