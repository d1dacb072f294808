// File: tinygrad/schedule/schedule_options.h
// The settings that decide how a tensor graph is cut into kernels: one value passed into the
// scheduler (never read from the environment inside a pass) and part of the schedule cache's
// key. What they decide shows in the kernel ASTs, which is what the tuning key hashes.
//
// Defaults are tinygrad's at the reference commit; FromConfig fills them at the edge (the
// Tensor API's realize).
//
// Example:
//   ASSIGN_OR_RETURN(Schedule s, CreateScheduleWithVars(sink, ScheduleOptions::FromConfig(GetConfig())));
#ifndef TINYGRAD_SCHEDULE_SCHEDULE_OPTIONS_H_
#define TINYGRAD_SCHEDULE_SCHEDULE_OPTIONS_H_

#include <cstdint>
#include <string>

#include "tinygrad/base/config.h"

namespace tg {

struct ScheduleOptions {
  bool split_reduceop = true;                // SPLIT_REDUCEOP: split big reduces in two kernels
  int64_t reduceop_split_threshold = 32768;  // REDUCEOP_SPLIT_THRESHOLD: input/output ratio to split at
  int reduceop_split_size = 22;              // REDUCEOP_SPLIT_SIZE: log2 of the split's budget
  int pcontig = 0;                           // PCONTIG: partial contiguous (1, 2, 3: more keeps)
  int max_kernel_buffers = 0;                // MAX_KERNEL_BUFFERS: 0, the device's limit
  // How a multi-device all-reduce is done (schedule/multi.h): RING, ALL2ALL (0 never, 1 past the
  // threshold on more than two devices, 2 always), RING_ALLREDUCE_THRESHOLD in elements.
  int ring = 1;
  int all2all = 0;
  int64_t ring_allreduce_threshold = 256000;
  // SPEC >= 1: the tensor graph is checked with tensor_spec before it is scheduled (not in the
  // key: it decides whether a bad graph is an error, not what a good one becomes).
  bool spec = true;

  static ScheduleOptions FromConfig(const Config& c);
  // Every field as `name=value`, in a fixed order (the schedule cache's key).
  std::string KeyText() const;

  friend bool operator==(const ScheduleOptions&, const ScheduleOptions&) = default;
};

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_SCHEDULE_OPTIONS_H_
