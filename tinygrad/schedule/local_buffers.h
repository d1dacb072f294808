// File: tinygrad/schedule/local_buffers.h
// Port of the BUFFERIZE parts of tinygrad/schedule/rangeify.py: flatten_bufferize,
// to_bufferview, bufferize_to_store, pm_add_buffers_local and rangeify_codegen. The scheduler
// uses them to split kernels and the code generator (which may depend on the scheduler, as in
// tinygrad's codegen/__init__.py) for its "add local buffers" pass.
//
// A BUFFERIZE (a value materialized over its ranges) becomes a buffer plus the STORE that fills
// it: a LOCAL one a DEFINE_LOCAL written then read after a BARRIER, a GLOBAL one a new BUFFER
// (the scheduler's use). rangeify_codegen cleans a kernel graph for codegen.
//
// Example (the "add local buffers" pass of full_rewrite_to_sink):
//   int64_t counter = 0;
//   sink = GraphRewrite(sink, PmAddBuffersLocal() + RangeifyCodegen(),
//                       {.name = "add local buffers", .ctx = RewriteCtx::Of(counter)});
#ifndef TINYGRAD_SCHEDULE_LOCAL_BUFFERS_H_
#define TINYGRAD_SCHEDULE_LOCAL_BUFFERS_H_

#include <cstdint>
#include <optional>

#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// BUFFERIZE `x` (value, flat index `idx`) -> AFTER(buffer, store over idx's ranges). `counter`
// numbers the new LUNIQUEs / DEFINE_LOCALs. Null for a LOCAL buffer when !allow_locals.
UOp BufferizeToStore(int64_t& counter, const UOp& x, const UOp& idx, bool allow_locals);

// A BUFFERIZE over several ranges (or tagged) -> a BUFFERIZE over one flat index, reshaped
// back (tinygrad's pm_flatten_bufferize).
const PatternMatcher& PmFlattenBufferize();
// BITCAST/CONTIGUOUS of a DISK/TINYFS buffer -> BUFFER_VIEW (tinygrad's to_bufferview).
const PatternMatcher& ToBufferview();

// ctx: int64_t counter. pm_mops + flatten_bufferize + to_bufferview + bufferize_to_store
// (locals allowed).
const PatternMatcher& PmAddBuffersLocal();

// Kernel graph cleanups: CONTIGUOUS and NOOP removed, STORE args dropped, broadcast AFTERs
// re-typed, value INDEX of a local buffer -> LOAD. Needs no ctx: the opts a CONTIGUOUS carries
// (tinygrad's get_contiguous writing ctx.opts) are read before with ContiguousOpts().
const PatternMatcher& RangeifyCodegen();

// The Opt tuple of the CONTIGUOUS in `root` that rangeify_codegen would record last (an arg
// that is a tuple of (op name, axis, arg) tuples), or nullopt.
std::optional<Arg> ContiguousOpts(const UOp& root);

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_LOCAL_BUFFERS_H_
