// File: autotune/driver.h
// The tuning driver: for each kernel, the tuning database's answer or a BEAM search whose
// winner it stores, with the searches of all kernels stepped together over one Measurer.
// Every tuner is this driver: `Tuner` (tuner.h: BEAM=n, `tg run`, `tg tune --in-process`)
// runs it for one kernel over a LocalMeasurer; `tg tune` on the farm runs it for a model's
// kernels over a FarmMeasurer, whose jobs for every search are then in flight together, so one
// search's round barrier never leaves workers idle while other searches have work.
//
// Per kernel: the TuningKey; the database's record unless ignore_cache (Lookup, or LookupBest
// when lookup_only: any search settings' best; a search first checks that the record's opts
// apply to the kernel, and searches again where they do not); else StartSearch and a BeamSearcher whose
// batches are answered from the measurement journal where it can and submitted to the measurer
// otherwise; the winner stored (RecordOfSearch, with who measured it in the final phase).
//
// The measurement journal (`journal`, issue 5): each candidate result is written
// (TuningDb::PutMeasurement under the search's TuningKey digest; a batch that re-times opts
// the search measured before under "<digest>/<BeamRequest::retime>", e.g. "<digest>/final"
// for the finalists) as its part comes back, and a search first answers its candidates from
// the journal (ListMeasurements) instead of measuring them, so a coordinator killed with
// SIGKILL and started again re-measures nothing already stored. A search's journal is deleted
// once its winner is stored.
//
// Not a port: tinygrad's beam_search tunes one kernel at a time in-process (its
// diskcache_get/put of "beam_search" around the search are the lookup and the store here).
//
// Example:
//   FarmMeasurer m(broker, dc.Digest());
//   ASSIGN_OR_RETURN(std::vector<KernelTuning> r,
//                    TuneKernels(asts, {.measurer = &m, .db = db, .device_class = dc,
//                                       .renderer = &ren, .settings = settings, .journal = true}));
#ifndef AUTOTUNE_DRIVER_H_
#define AUTOTUNE_DRIVER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"
#include "autotune/key/device_class.h"
#include "autotune/key/search_settings.h"
#include "autotune/measure/measurer.h"
#include "autotune/search/beam_search.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

// Where a whole run stands, for a progress display.
struct TuningProgress {
  int kernels = 0;          // in the run
  int done = 0;             // searched, found in the database, or failed
  int cached = 0;           // of those, found in the database
  int failed = 0;
  int in_flight = 0;        // parts (farm jobs) submitted to the measurer, not answered yet
  int64_t measured = 0;     // candidate results from the measurer
  int64_t journal_hits = 0; // candidates answered from the journal
  // noopt time / winner time of every searched kernel, in the order they finished.
  std::vector<double> speedups;
};

struct KernelTuning;

// Follows a run kernel by kernel, for a display that shows more than TuningProgress (the tuning
// dashboard: autotune/tuning_snapshot.h records these calls). Calls come on the thread that
// runs TuneKernels, in order; kernels are named by their AST (the unoptimized SINK). An
// observer read from another thread locks itself.
class TuningObserver {
 public:
  virtual ~TuningObserver() = default;
  // Before anything is looked up: the run's kernels, in order.
  virtual void RunStarted(std::span<const UOp> /*asts*/) {}
  // A kernel the database did not answer: its search begins.
  virtual void SearchStarted(const UOp& /*ast*/) {}
  // Each step of its search (as DriverOptions::search_progress).
  virtual void SearchProgress(const UOp& /*ast*/, const BeamProgress& /*p*/) {}
  // A kernel decided: found in the database, searched (its record and BeamResult), or failed.
  virtual void KernelDone(const KernelTuning& /*t*/) {}
  // As DriverOptions::progress (after each finished kernel and at most every 100 ms).
  virtual void RunProgress(const TuningProgress& /*p*/) {}
};

struct DriverOptions {
  Measurer* measurer = nullptr;        // required unless lookup_only
  TuningDb* db = nullptr;              // null: no lookups, nothing stored, no journal
  DeviceClass device_class;            // what the measurer measures on: part of every key
  const Renderer* renderer = nullptr;  // the device's renderer (the search's Scheduler)
  SearchSettings settings;
  CodegenOptions codegen;              // how candidates lower: in the keys and every task
  int beam_debug = 0;                  // the searches' trace (BeamOptions)
  int debug = 0;
  bool ignore_cache = false;           // IGNORE_BEAM_CACHE: no lookups (winners still stored)
  // The database's fastest record under any search settings (LookupBest), never a search: a
  // miss is a result without a record (`tg run`).
  bool lookup_only = false;
  bool journal = false;                // the measurement journal (needs db)
  // Called during each search with where it stands.
  std::function<void(const UOp& ast, const BeamProgress&)> search_progress;
  // Called on the calling thread after each finished kernel and at most every 100 ms otherwise.
  std::function<void(const TuningProgress&)> progress;
  // Gets every event of the run (above); null: none. Not owned.
  TuningObserver* observer = nullptr;
  // Tests only: stop (as if killed) after the part that brings the journal rows written to
  // this many; < 0: never.
  int64_t abort_after_journal_rows = -1;
};

// What the driver decided for one kernel.
struct KernelTuning {
  UOp ast;
  TuningKey key;
  absl::Status status;                 // its search failed (the task cannot run, ...)
  std::optional<TuningRecord> record;  // the winner or the database's answer; nullopt: a lookup-only miss
  bool from_cache = false;
  // A record the database held for this kernel whose opts do not apply to it (`unusable_why`
  // says which and why: a damaged or hand-edited row). A search does not trust it: it searches
  // again and its winner replaces that record (TuningDb::ReplaceUnusable); with ignore_cache
  // the stored record is checked when the winner is stored. Lookup-only runs answer it as they
  // find it (the engine falls back from opts that fail).
  std::optional<TuningRecord> unusable;
  absl::Status unusable_why;
  std::optional<BeamResult> search;    // when it searched
  int64_t measured = 0;                // candidate results from the measurer
  int64_t journal_hits = 0;            // candidates answered from the journal
  double wall_s = 0;                   // lookup + search + store
};

// Tunes every kernel (unoptimized SINKs); answers one result per kernel, in order. A failed
// search is reported in its result. Errors: options missing a measurer or renderer, the
// database failed, or the abort hook fired.
absl::StatusOr<std::vector<KernelTuning>> TuneKernels(std::span<const UOp> asts, const DriverOptions& options);

}  // namespace tg::autotune

#endif  // AUTOTUNE_DRIVER_H_
