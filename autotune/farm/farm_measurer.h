// File: autotune/farm/farm_measurer.h
// The Measurer over the worker farm: a batch is split into jobs spread over the workers of one
// device class and measured in parallel. Submit() answers each job as a part as it comes back
// (the tuning driver, autotune/driver.h, keeps many searches' batches in flight this way);
// Measure() waits for every part and puts them back in candidate order, as LocalMeasurer would
// have answered the batch.
//
// Not a port: tinygrad measures in-process. PlanChunks is how a batch is cut for `slots`
// worker slots. An interleaved (finalist) batch is never cut: its candidates must be timed
// round robin on one machine.
//
// Example:
//   FarmMeasurer m(broker, dc.Digest());
//   ASSIGN_OR_RETURN(BeamResult r, BeamSearch(task, renderer, m, settings));
#ifndef AUTOTUNE_FARM_FARM_MEASURER_H_
#define AUTOTUNE_FARM_FARM_MEASURER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/farm/broker.h"
#include "autotune/measure/measurer.h"

namespace tg::autotune::farm {

// [begin, end) ranges covering [0, n): about one chunk per slot (at least `min_chunk`
// candidates each, so that a job's round trip is worth it); one range when `interleaved`.
std::vector<std::pair<size_t, size_t>> PlanChunks(size_t n, int slots, bool interleaved, size_t min_chunk = 2);

class FarmMeasurer : public Measurer {
 public:
  // `broker` must outlive this; jobs go to workers of `device_class` (DeviceClass::Digest()).
  FarmMeasurer(Broker* broker, std::string device_class);

  absl::StatusOr<MeasureBatch> Measure(const KernelTask& task, std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions& options) override;
  // One part per job; a job that fails as a whole is a part with its error.
  size_t Submit(std::shared_ptr<const KernelTask> task, std::vector<std::vector<Opt>> candidates,
                const MeasureOptions& options, uint64_t search_id, PartCallback done) override;

 private:
  Broker* broker_;
  std::string device_class_;
  uint64_t search_id_;  // of Measure()'s batches
};

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_FARM_MEASURER_H_
