// File: tinygrad/schedule/multi.h
// Port of tinygrad/schedule/multi.py: before rangeify, a tensor graph with multi-device values
// (uop/multi.h) becomes one whose every node is one device's part: ops on split (MULTI) values
// act on their shards, a reduce over the split axis and a copy of a split value to one device
// become an all-reduce, and all-reduces become copies between the devices and adds (naive: every
// device sums every copy; ring and all-to-all for big tensors on more than two devices:
// ScheduleOptions::ring, all2all). What is left are COPYs to one device, MSELECTs (one device's
// buffer) and MSTACKs (buffers of several devices as one).
//
// Not ported: grouped all-reduce across machines (handle_allreduce_multirank: devices of
// tinygrad's remote backends have a group id; ours have none).
#ifndef TINYGRAD_SCHEDULE_MULTI_H_
#define TINYGRAD_SCHEDULE_MULTI_H_

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "tinygrad/schedule/schedule_options.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// Whether any node of `sink`'s graph is on several devices.
bool HasMultiDevice(const UOp& sink);

// tinygrad's get_multi_map: every node of `big_sink`'s graph -> its per-device form. An op the
// split does not allow (a reshape moving items between shards, padding or flipping the split
// axis, an uneven split, ops of values on different devices, ...) is an InvalidArgument saying
// which.
absl::StatusOr<absl::flat_hash_map<UOp, UOp>> GetMultiMap(const UOp& big_sink,
                                                          const ScheduleOptions& options);

}  // namespace tg

#endif  // TINYGRAD_SCHEDULE_MULTI_H_
