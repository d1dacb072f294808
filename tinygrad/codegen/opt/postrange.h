// File: tinygrad/codegen/opt/postrange.h
// Port of tinygrad/codegen/opt/postrange.py: apply_opts, the optimizer step of the codegen
// pipeline (between the range passes and the expander).
//
// An AST tagged "optimized" passes unchanged. Otherwise output LOOP ranges become GLOBAL
// (on renderers with locals), then:
//   - KernelInfo.opts_to_apply set: those opts are applied in order (an invalid one is the
//     KernelOptError status, naming the opt);
//   - else unless options.noopt, for a kernel without applied opts and without BUFFERIZE: the
//     hand-coded heuristic;
// and the kernel is named (GetOptimizedAst). BEAM is not run here: autotune/ chooses opts and
// hands them over as opts_to_apply, so BEAM>=1 alone changes nothing in this step.
//
// Example:
//   ASSIGN_OR_RETURN(UOp opt, ApplyOpts(ast, ren, options));
//   KernelInfo::FromArg(opt.arg()).function_name()    // "r_16_8_32"
#ifndef TINYGRAD_CODEGEN_OPT_POSTRANGE_H_
#define TINYGRAD_CODEGEN_OPT_POSTRANGE_H_

#include "absl/status/statusor.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// `options` drive the heuristic (and ALLOW_TF32 for TC opts).
absl::StatusOr<UOp> ApplyOpts(const UOp& ast, const Renderer& ren, const CodegenOptions& options = {});

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_POSTRANGE_H_
