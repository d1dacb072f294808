// File: tinygrad/schedule/schedule.h
// Port of tinygrad/engine/schedule.py: create_schedule (kernel DAG -> execution order) and
// complete_create_schedule_with_vars (the schedule cache around get_rangeify_map).
//
// The schedule cache key is the tensor graph with its inputs normalized: every input BUFFER
// gets a LUNIQUE(k) instead of its UNIQUE (k in first-seen order), and every BIND loses its
// value (the values go to var_vals). Two graphs that differ only in which buffers they read or
// in bound variables' values hit the same entry; the entry is mapped back to the caller's
// buffers (fresh BUFFERs for intermediates) and BIND values.
//
// Example:
//   UOp a = UOp::NewBuffer("CPU", 16, dtypes::float32);
//   UOp out = UOp::Make(Ops::CONTIGUOUS, dtypes::float32, {a + a});
//   ASSIGN_OR_RETURN(Schedule s, CreateScheduleWithVars(UOp::Sink({out})));
//   s.items.size()         // 1: SINK ast over DEFINE_GLOBAL 0 (out) and 1 (a)
//   s.becomes_map.at(out)  // the realized form of `out` (AFTER(BUFFER, KERNEL) or a view)
#ifndef TINYGRAD_SCHEDULE_SCHEDULE_H_
#define TINYGRAD_SCHEDULE_SCHEDULE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/uop.h"

namespace tg {

struct ScheduleItem {
  UOp ast;                // SINK kernel AST (KernelInfo arg may be null/None), or COPY / BUFFER_VIEW
  std::vector<UOp> bufs;  // BUFFER uops in DEFINE_GLOBAL slot order (the kernel's arguments)
  absl::flat_hash_map<std::string, int64_t> fixedvars;
};

struct Schedule {
  std::vector<ScheduleItem> items;             // in execution order
  absl::flat_hash_map<UOp, UOp> becomes_map;   // tensor-graph uop -> its realized form
  absl::flat_hash_map<std::string, int64_t> var_vals;  // bound variables' values
  bool cache_hit = false;
};

// tinygrad's complete_create_schedule_with_vars(big_sink): big_sink is SINK(tensor uops to
// realize), cut into kernels as `options` say (part of the cache's key). Errors: conflicting
// values bound to one variable, graph cycles through assigns.
absl::StatusOr<Schedule> CreateScheduleWithVars(const UOp& big_sink, const ScheduleOptions& options = {});

// The process-wide schedule cache (tinygrad's schedule_cache dict).
void ClearScheduleCache();
size_t ScheduleCacheSize();

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_SCHEDULE_H_
