// File: autotune/farm/farm_tuner.h
// Tunes many kernels at once on the worker farm: one BeamSearcher per kernel, every search's
// batches in flight together through the Broker, so one search's round barrier never leaves
// workers idle while other searches have work.
//
// Same cache semantics as autotune/tuner.h (lookup first unless ignore_cache, Put of the
// winner, better result wins), plus the measurement journal of issue 5: each finished
// candidate result is written (TuningDb::PutMeasurement under the search's TuningKey digest; a
// batch that re-times opts the search measured before under "<digest>/<BeamRequest::retime>":
// "<digest>/final" for the finalists) as its job comes back, and a search first answers its
// candidates from the journal
// (ListMeasurements) instead of sending them, so a coordinator killed with SIGKILL and started
// again re-measures nothing already stored. The journal of a search is deleted once its winner
// is stored.
//
// Not a port: tinygrad's beam_search tunes one kernel at a time in-process.
//
// Example:
//   FarmTuner t({.broker = broker.get(), .db = db.get(), .device_class = dc, .renderer = &ren,
//                .settings = settings});
//   ASSIGN_OR_RETURN(std::vector<FarmKernelResult> r, t.TuneAll(kernel_asts));
#ifndef AUTOTUNE_FARM_FARM_TUNER_H_
#define AUTOTUNE_FARM_FARM_TUNER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"
#include "autotune/farm/broker.h"
#include "autotune/key/device_class.h"
#include "autotune/key/search_settings.h"
#include "autotune/search/beam_search.h"
#include "tinygrad/codegen/renderer.h"

namespace tg::autotune::farm {

// Where the whole run stands, for a progress display.
struct FarmProgress {
  int kernels = 0;          // in the run
  int done = 0;             // searched or found in the database
  int cached = 0;           // of those, found in the database
  int failed = 0;
  int jobs_in_flight = 0;   // FarmJobs submitted and not answered yet
  int workers = 0;          // alive workers (all classes)
  int64_t measured = 0;     // candidate results received from workers
  int64_t journal_hits = 0; // candidates answered from the journal
  // noopt time / winner time of every searched kernel, in the order they finished.
  std::vector<double> speedups;
};

struct FarmTunerOptions {
  Broker* broker = nullptr;
  TuningDb* db = nullptr;           // null: no cache and no journal
  DeviceClass device_class;         // the workers' class: jobs go there, keys use it
  const Renderer* renderer = nullptr;  // the workers' renderer (the search's Scheduler)
  SearchSettings settings;
  CodegenOptions codegen;           // how candidates lower: in the keys and every job's task
  int beam_debug = 0;               // the searches' trace (BeamOptions)
  int debug = 0;
  bool ignore_cache = false;
  bool journal = true;
  // Called on the calling thread after each finished kernel and at most every 100 ms otherwise.
  std::function<void(const FarmProgress&)> progress;
  // Tests only: stop (as if killed) after the job that brings the journal rows written to this
  // many; < 0: never.
  int64_t abort_after_journal_rows = -1;
};

struct FarmKernelResult {
  UOp ast;
  TuningKey key;
  absl::Status status;                 // the search failed (the task cannot run, ...)
  std::optional<TuningRecord> record;  // the winner (or the database's answer)
  bool from_cache = false;
  std::optional<BeamResult> search;
  int64_t measured = 0;                // candidates measured by workers for this kernel
  int64_t journal_hits = 0;            // candidates answered from the journal
};

class FarmTuner {
 public:
  explicit FarmTuner(FarmTunerOptions options);

  // Tunes every kernel (unoptimized SINKs); answers one result per kernel, in order. A failed
  // search is reported in its result; errors: the database failed, or the abort hook fired.
  absl::StatusOr<std::vector<FarmKernelResult>> TuneAll(std::span<const UOp> asts);

 private:
  FarmTunerOptions o_;
};

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_FARM_TUNER_H_
