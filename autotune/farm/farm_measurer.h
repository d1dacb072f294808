// File: autotune/farm/farm_measurer.h
// The Measurer over the worker farm, for one search at a time (BeamSearch, Tuner): a batch
// is split into jobs spread over the workers of one device class, measured in parallel, and
// put back together in candidate order, as LocalMeasurer would have answered it.
//
// Not a port: tinygrad measures in-process. Parts used by FarmTuner too:
// - PlanChunks: how a batch is cut for `slots` worker slots. An interleaved (finalist) batch is
//   never cut: its candidates must be timed round robin on one machine.
// - DedupAcrossChunks: LocalMeasurer marks a candidate kDuplicate when an earlier candidate of
//   its batch renders to the same program; cut into jobs, each worker only sees its own chunk,
//   so the rule is applied again over the whole batch (the later one becomes the duplicate, its
//   time dropped) and so the search sees the same batch it would have seen in-process.
//
// Example:
//   FarmMeasurer m(broker, dc.Digest());
//   ASSIGN_OR_RETURN(BeamResult r, BeamSearch(task, renderer, m, settings));
#ifndef AUTOTUNE_FARM_FARM_MEASURER_H_
#define AUTOTUNE_FARM_FARM_MEASURER_H_

#include <cstddef>
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

// LocalMeasurer's duplicate rule over a whole batch (see above); also makes a result whose
// program is in options.known_programs "measured before".
void DedupAcrossChunks(MeasureBatch& batch, const MeasureOptions& options);

class FarmMeasurer : public Measurer {
 public:
  // `broker` must outlive this; jobs go to workers of `device_class` (DeviceClass::Digest()).
  FarmMeasurer(Broker* broker, std::string device_class);

  absl::StatusOr<MeasureBatch> Measure(const KernelTask& task, std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions& options) override;

 private:
  Broker* broker_;
  std::string device_class_;
  uint64_t search_id_;
};

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_FARM_MEASURER_H_
