// File: tinygrad/codegen/postrange.h
// Port of the no-optimization part of tinygrad/codegen/opt/postrange.py: apply_opts without
// any Opt applied (convert_loop_to_global, then get_optimized_ast's kernel naming).
//
// Kernel names are "r" (has a REDUCE) or "E", then the launch dims and the range sizes joined
// by "_", colored by axis type with ANSI codes, with "n1", "n2", ... appended when the same
// function name was produced before in this process (r_8_32, then r_8_32n1).
//
// Example:
//   ASSIGN_OR_RETURN(UOp opt, ApplyOpts(ast, ren));
//   KernelInfo::FromArg(opt.arg()).function_name()    // "r_16_8_32"
//
// TODO(parity): the Opt actions (Scheduler.apply_opt), BEAM search and
// hand_coded_optimizations are issue 4; they plug in at the marked place in ApplyOpts.
#ifndef TINYGRAD_CODEGEN_POSTRANGE_H_
#define TINYGRAD_CODEGEN_POSTRANGE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Scheduler.rngs: the kernel's RANGEs of size > 1, ordered by axis position then id.
std::vector<UOp> KernelRanges(const UOp& ast);

// Scheduler.convert_loop_to_global: on renderers with locals, output LOOP ranges become
// GLOBAL.
UOp ConvertLoopToGlobal(const UOp& ast, const Renderer& ren);

// Scheduler.get_optimized_ast: names the kernel (unless `name_override`), flattens ranges and
// returns the SINK with its KernelInfo and tag 1 ("optimized").
UOp GetOptimizedAst(const UOp& ast, const std::optional<std::string>& name_override);

// apply_opts: returns `ast` as is when it is tagged; an Unimplemented error when
// KernelInfo.opts_to_apply is set or BEAM is on (no optimizer yet); else the named kernel.
absl::StatusOr<UOp> ApplyOpts(const UOp& ast, const Renderer& ren);

// Forgets the kernel names handed out (tinygrad's Scheduler.kernel_cnt), for tests.
void ResetKernelNameCounts();

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_POSTRANGE_H_
