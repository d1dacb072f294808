// File: tinygrad/codegen/pipeline.h
// Port of tinygrad/codegen/__init__.py: full_rewrite_to_sink (every codegen pass, in the
// reference's order and with its names) and get_program (lower, linearize, render, describe).
//
// Example:
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(kernel_ast, renderer, CodegenOptions::FromConfig(GetConfig())));
//   p.function_name     // "r_16_8_32"
//   p.src               // what renderer.Render printed
#ifndef TINYGRAD_CODEGEN_PIPELINE_H_
#define TINYGRAD_CODEGEN_PIPELINE_H_

#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// INDEX on a pointer INDEX concatenates the indices.
const PatternMatcher& PmSyntacticSugar();

// The lowered kernel graph, ready to linearize. `optimize` runs the range passes and
// apply_opts (tinygrad: `ast.tag is None`). The SINK must carry a KernelInfo. Errors: an
// opt of KernelInfo.opts_to_apply does not apply (a KernelOptError); the launch dims do not
// fit the renderer's limits (CheckLaunchDims); the graph after devectorize reached
// options.max_devectorized_nodes (ResourceExhausted). `options` are the optimizer's and the
// lowering's settings (defaults: the reference's).
absl::StatusOr<UOp> FullRewriteToSink(const UOp& sink, const Renderer& ren, bool optimize,
                                      const CodegenOptions& options = {});

// FullRewriteToSink, calling `observer` with each pass's name (tinygrad's graph_rewrite names:
// "early movement ops", ..., "add control flow"; "apply_opts" for the optimizer) and its
// result, for tracing and per-pass tests.
using PassObserver = absl::FunctionRef<void(std::string_view name, const UOp& sink)>;
absl::StatusOr<UOp> FullRewriteToSinkTraced(const UOp& sink, const Renderer& ren, bool optimize,
                                            const CodegenOptions& options, PassObserver observer);

// Kernel AST (a SINK of STORE/END) -> rendered program. Errors: the AST fails kernel_spec or
// the linear program fails program_spec (with SPEC on), an opt of opts_to_apply does not
// apply (a KernelOptError), the launch dims do not fit the renderer (CheckLaunchDims), or
// the program is too big (ResourceExhausted: CodegenOptions::max_devectorized_nodes).
absl::StatusOr<ProgramSpec> GetProgram(const UOp& ast, const Renderer& ren, const CodegenOptions& options = {});

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_PIPELINE_H_
