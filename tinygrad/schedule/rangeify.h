// File: tinygrad/schedule/rangeify.h
// Port of tinygrad/schedule/rangeify.py, the rule sets around run_rangeify: numbering the
// tensor uops (add_tags), the earliest rewrites (split_reduceop, size-0, COPY/ASSIGN fixes,
// replace_contiguous), BUFFERIZE cleanup and the remove_bufferize cost model, pm_limit_bufs
// and pm_add_buffers (BUFFERIZE -> BUFFER + STORE).
//
// The passes run in this order (see GetRangeifyMap in kernelize.h):
//   std::vector<UOp> uops;   sink = GraphRewrite(sink, AddTags(), {.bottom_up = true, .ctx = Of(uops)})
//   EarliestContext ec;      sink = GraphRewrite(sink, EarliestRewrites(), {.ctx = Of(ec)})
//   IndexingContext ictx;    sink = RunRangeify(sink, ictx)
//   sink = GraphRewrite(sink, PmBufferizeCleanup());
//                            sink = GraphRewrite(sink, PmLimitBufs(), {.ctx = Of(ictx)})
//   int64_t lunique = k;     sink = GraphRewrite(sink, PmAddBuffers(), {.bottom_up = true, .ctx = Of(lunique)})
#ifndef TINYGRAD_SCHEDULE_RANGEIFY_H_
#define TINYGRAD_SCHEDULE_RANGEIFY_H_

#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// ctx: std::vector<UOp>. Every tensor uop that is not a buffer/const/var/movement op gets
// tag (i,), its index in the list; the tags say at the end which tensor a buffer belongs to.
const PatternMatcher& AddTags();

// base -> the contiguous permuted view of it (replace_contiguous).
using ContiguousMap = absl::flat_hash_map<UOp, UOp>;
// ctx of EarliestRewrites(): the contiguous views seen so far, and the options (SPLIT_REDUCEOP).
struct EarliestContext {
  ContiguousMap contiguous;
  ScheduleOptions options;
  std::string error;  // the first custom kernel that could not be resolved, and why
};
// pm_mops + earliest_rewrites + replace_contiguous (top-down).
const PatternMatcher& EarliestRewrites();


// ctx: IndexingContext (its options.pcontig). symbolic + pm_reduce_simplify +
// pm_const_buffer_folding + pm_remove_bufferize (top-down): dead
// BUFFERIZE axes, noop/const/arange buffers, and the cost model that inlines a BUFFERIZE into
// its consumer unless it reads more than 3 buffers or a reduce reads a buffer.
const PatternMatcher& PmBufferizeCleanup();

// ctx: IndexingContext. Bufferizes elementwise sources when a kernel would read more than the
// device's buffer limit (Config::max_kernel_buffers; no limit on CPU).
const PatternMatcher& PmLimitBufs();

// ctx: int64_t (next LUNIQUE). pm_mops + flatten_bufferize + to_bufferview + bufferize_to_store
// (no locals) + MSELECT/MSTACK/KERNEL reshape cleanup, then pm_add_range_tags.
const PatternMatcher& PmAddBuffers();

// A tensor-graph const like `x` (same dtype, device and shape): tinygrad's const_like.
UOp TensorConstLike(const UOp& x, ConstValue v);

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_RANGEIFY_H_
