// File: tinygrad/schedule/indexing.h
// Port of tinygrad/schedule/indexing.py: run_rangeify, the fusion decision of the scheduler.
//
// rangeify gives every tensor-graph node the ranges it is computed over and turns movement ops
// into index math (tinygrad/uop/movement/movement.h), so no view ever reaches a kernel.
//
// Example:
//   IndexingContext ctx;
//   UOp ranged = RunRangeify(tensor_sink, ctx);   // ctx.range_map: node -> (in, out) ranges
#ifndef TINYGRAD_SCHEDULE_INDEXING_H_
#define TINYGRAD_SCHEDULE_INDEXING_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Nodes whose value is always in memory already (tinygrad's ALWAYS_CONTIGUOUS).
bool AlwaysContiguous(Ops op);

// tinygrad's IndexingContext. realize_map: node -> the dims that are realized (nullopt while
// only marked "to realize"); range_map: node -> (input ranges, output ranges).
struct IndexingContext {
  absl::flat_hash_map<UOp, std::optional<std::vector<int>>> realize_map;
  absl::flat_hash_map<UOp, std::pair<std::vector<UOp>, std::vector<UOp>>> range_map;
  int64_t range_idx = 0;
  ScheduleOptions options;  // PCONTIG for the realize decisions, MAX_KERNEL_BUFFERS, ...

  // A fresh range of size s (a CONST 0 for size 1; s itself when it is already a RANGE).
  UOp NewRange(const SInt& s, AxisType type = AxisType::LOOP);
};

// tinygrad's run_rangeify(tsink): decides what is realized (kernel boundaries: realize map,
// consumers' ranges, the ending-ranges rule) and rewrites the tensor graph into ranges, INDEX,
// REDUCE and BUFFERIZE (pm_apply_rangeify). `ctx` is filled in and stays valid for later passes.
UOp RunRangeify(const UOp& tsink, IndexingContext& ctx);

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_INDEXING_H_
