// File: tinygrad/schedule/kernelize.h
// Port of tinygrad/schedule/rangeify.py, steps 5-6: split_kernels (to_define_global, range
// renumbering, rangeify_codegen, pm_remove_tags), the WAR-hazard fix, and get_rangeify_map,
// which runs the whole tensor-graph -> kernel-graph pipeline.
//
// KERNEL representation. tinygrad's KERNEL carries `Kernel(ast, metadata)` in its arg; the
// kernels split here carry the AST as their first source:
//
//   KERNEL(ast, *buffers_or_afters, *binds)      ast: SINK(...) kernel AST, or COPY/BUFFER_VIEW
//
// Code that walks a kernel's inputs (tinygrad's `k.src`) uses KernelInputs() and KernelAst().
// The AST sits inside the kernel graph, so passes over the big graph also visit it: split_kernels
// skips STOREs that already target a DEFINE_GLOBAL, and the AST never contains BUFFER, BIND,
// LUNIQUE or tags, so the other big-graph passes leave it alone. A custom kernel's KERNEL keeps
// its AST in the arg (a CustomKernelAst, as tinygrad's Kernel), out of every walk: a hand-written
// AST has AFTERs and stores of its own that the big-graph passes must not take for the
// schedule's. Metadata is not carried.
//
// Example:
//   absl::flat_hash_map<UOp, UOp> becomes = GetRangeifyMap(UOp::Sink({t}));
//   UOp realized = becomes.at(t);       // AFTER(BUFFER, KERNEL(ast, ...)), maybe reshaped
#ifndef TINYGRAD_SCHEDULE_KERNELIZE_H_
#define TINYGRAD_SCHEDULE_KERNELIZE_H_

#include <span>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/custom_kernel.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// The inputs of a KERNEL: its sources after the AST (all of them for a custom kernel's).
inline std::span<const UOp> KernelInputs(const UOp& k) {
  return k.arg().is_opaque() ? k.src() : k.src().subspan(1);
}
const UOp& KernelAst(const UOp& k);

// tinygrad's buf_uop: the BUFFER under an AFTER (through movement ops), or the buffer itself
// (CHECKs that there is one: HasBufUop).
UOp BufUop(const UOp& u);
bool HasBufUop(const UOp& u);

// ctx: none. Every STORE/END that closes all its (non-OUTER) ranges becomes a KERNEL.
const PatternMatcher& SplitKernels();

// tinygrad's get_rangeify_map: tensor uop -> its realized form (AFTER(buffer, KERNEL) or a
// view of it). Errors: buffers of one kernel on different devices, cycles through assigns.
// New buffers get LUNIQUEs above every LUNIQUE in `sink`, also those of inputs the simplifier
// dropped (the reference counts only the surviving ones, which can hand a new buffer the number
// of a dropped input: the schedule cache then maps the kernel's output onto that input).
absl::StatusOr<absl::flat_hash_map<UOp, UOp>> GetRangeifyMap(const UOp& sink, const ScheduleOptions& options = {});

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_KERNELIZE_H_
