// File: autotune/search_record.cc
#include "autotune/search_record.h"

#include <string>

#include "tinygrad/base/version.h"

namespace tg::autotune {

TuningRecord RecordOfSearch(const TuningKey& key, const BeamResult& r, const DeviceClass& device) {
  TuningRecord rec{
      .key = key,
      .kernel_name = r.kernel_name,
      .opts = r.opts,
      .time_s = r.time_s,
      .candidates = r.timed,
      .device_description = device.Describe(),
      .tinygrad_cc_version = std::string(kVersion),
      .search_wall_s = r.search_wall_s,
      .samples_s = r.samples_s,
      .gpu_arch = device.gpu_arch,
  };
  if (r.noopt_s < kInf) rec.noopt_time_s = r.noopt_s;
  if (r.heuristic_s < kInf) rec.heuristic_time_s = r.heuristic_s;
  return rec;
}

}  // namespace tg::autotune
