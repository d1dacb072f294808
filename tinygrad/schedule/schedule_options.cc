// File: tinygrad/schedule/schedule_options.cc
#include "tinygrad/schedule/schedule_options.h"

#include "absl/strings/str_cat.h"

namespace tg {

ScheduleOptions ScheduleOptions::FromConfig(const Config& c) {
  return ScheduleOptions{
      .split_reduceop = c.split_reduceop,
      .reduceop_split_threshold = c.reduceop_split_threshold,
      .reduceop_split_size = c.reduceop_split_size,
      .pcontig = c.pcontig,
      .max_kernel_buffers = c.max_kernel_buffers,
      .ring = c.ring,
      .all2all = c.all2all,
      .ring_allreduce_threshold = c.ring_allreduce_threshold,
      .spec = c.spec >= 1,
  };
}

std::string ScheduleOptions::KeyText() const {
  return absl::StrCat("split_reduceop=", split_reduceop,
                      " reduceop_split_threshold=", reduceop_split_threshold,
                      " reduceop_split_size=", reduceop_split_size, " pcontig=", pcontig,
                      " max_kernel_buffers=", max_kernel_buffers, " ring=", ring,
                      " all2all=", all2all, " ring_allreduce_threshold=", ring_allreduce_threshold);
}

}  // namespace tg
