// File: autotune/search_record.h
// The tuning record of a finished BEAM search: what every tuner (in-process or on the farm)
// stores for a kernel, built in one place so that both name kernels and fill fields alike.
#ifndef AUTOTUNE_SEARCH_RECORD_H_
#define AUTOTUNE_SEARCH_RECORD_H_

#include "autotune/db/tuning_db.h"
#include "autotune/key/device_class.h"
#include "autotune/search/beam_search.h"

namespace tg::autotune {

// The record of search `r` under `key` on `device`: the winner, its kernel name and its
// final-phase samples, the baselines' times, the search's cost and this build's version.
// Provenance (worker, host) is the caller's.
TuningRecord RecordOfSearch(const TuningKey& key, const BeamResult& r, const DeviceClass& device);

}  // namespace tg::autotune

#endif  // AUTOTUNE_SEARCH_RECORD_H_
