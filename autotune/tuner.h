// File: autotune/tuner.h
// The tuner: answers "which opts for this kernel on this device" from the tuning database, or
// by a BEAM search whose winner it stores. It is what BEAM=n, `tg tune` and `tg run` use.
//
// Port of the cache-then-search flow of tinygrad/codegen/opt/search.py beam_search (its
// diskcache_get/put of "beam_search") as called from postrange.apply_opts, split into parts
// that each do one thing: TuningDb stores, BeamSearcher searches, a Measurer times, the tuning
// driver (driver.h) puts them together, and this class runs the driver for each kernel the
// engine compiles, as its KernelOptChooser, over a LocalMeasurer of the kernel's device.
//
// Modes (TunerOptions::beam for Tune; as a KernelOptChooser, the realize's BEAM, which is
// JITBEAM while a TinyJit captures):
//   beam >= 1: a kernel missing from the database is searched with that width and stored;
//   beam == 0: lookup only (`tg run`): the database's fastest record for the kernel on this
//              device, compiler and opt semantics, whatever search settings found it; a miss
//              leaves the default opts.
// IGNORE_BEAM_CACHE skips lookups (results are still stored: the better one wins); with
// CACHELEVEL=0 there is no database at all (TunerOptions::FromConfig leaves `db` empty).
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Tuner> tuner, Tuner::Create({.beam = 2, .db = "tuning.db"}));
//   SetKernelOptChooser(tuner.get());      // Realize now tunes every kernel it compiles at
//                                          // its BEAM (Config::beam; 0: database lookups only)
//   ASSIGN_OR_RETURN(KernelTuning t, tuner->Tune(kernel_ast, *device));   // or one kernel
#ifndef AUTOTUNE_TUNER_H_
#define AUTOTUNE_TUNER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"
#include "autotune/driver.h"
#include "autotune/key/device_class.h"
#include "autotune/key/search_settings.h"
#include "autotune/measure/measurer.h"
#include "autotune/measure/prepare_batch.h"
#include "autotune/search/beam_search.h"
#include "tinygrad/engine/opt_chooser.h"

namespace tg::autotune {

struct TunerOptions {
  int beam = 0;                 // search width; 0: lookup only
  bool ignore_cache = false;    // IGNORE_BEAM_CACHE
  // The database's location (a SQLite file or a postgresql:// URL); "": no database.
  std::string db;
  // What opening it may make: the file (a path someone gave), or also its directories (the
  // default file in the cache directory, which is ours).
  DbCreate db_create = DbCreate::kFile;
  // Called during a search with where it stands (for a progress display).
  std::function<void(const UOp& ast, const BeamProgress&)> progress;
  // Gets the events of each Tune (DriverOptions::observer: one run of one kernel per call);
  // null: none. Not owned.
  TuningObserver* observer = nullptr;
  // Settings other than the width (which is `beam`).
  SearchSettings settings;
  // Measures candidates; default: a LocalMeasurer on each device asked about, made on first use.
  std::shared_ptr<Measurer> measurer;
  // How kernels lower (the heuristic's and the lowering's settings): part of the key, and
  // what candidates are compiled with. Choose() uses the options the engine passes instead.
  CodegenOptions codegen;
  // The searches' trace (BeamOptions::beam_debug and debug: BEAM_DEBUG, DEBUG).
  int beam_debug = 0;
  int debug = 0;
  // Non-empty: the default measurer shares the machine's device lock (autotune/lock/device_lock.h,
  // DefaultDeviceLockPath in this directory) with the farm workers and other tuners.
  std::string lock_dir;
  // Threads of the default measurer that lower and compile candidates; 0: the machine's CPUs.
  int compile_threads = 0;
  // Where the default measurers have batches prepared (a compile server:
  // LocalMeasurerOptions::preparer); null: they prepare them themselves.
  std::shared_ptr<CandidatePreparer> preparer;

  // From the Config: beam = c.beam, ignore_cache = c.ignore_beam_cache, db = the default file
  // in the cache directory (none at CACHELEVEL=0) with db_create = kFileAndDirectories, the search settings, codegen, the trace
  // levels, lock_dir = the cache directory, compile_threads = c.cpu_count.
  static TunerOptions FromConfig(const Config& c);
};

class Tuner : public KernelOptChooser {
 public:
  // Opens the database. Errors: the database cannot be opened.
  static absl::StatusOr<std::unique_ptr<Tuner>> Create(const TunerOptions& options);

  // The decision for `ast` (an unoptimized kernel SINK) on `dev`, lowered with `codegen`
  // (default: options().codegen).
  absl::StatusOr<KernelTuning> Tune(const UOp& ast, Device& dev);
  absl::StatusOr<KernelTuning> Tune(const UOp& ast, Device& dev, const CodegenOptions& codegen);

  // KernelOptChooser: Tune's opts at width `beam` (0: lookup only), nullopt on a lookup-only
  // miss; a database record's origin names the database and the record.
  absl::StatusOr<std::optional<ChosenOpts>> Choose(const UOp& ast, Device& dev,
                                                   const CodegenOptions& codegen,
                                                   int beam) override;
  std::string id() const override;

  // The database in use; null when caching is off.
  TuningDb* db() const { return db_.get(); }
  const TunerOptions& options() const { return options_; }

 private:
  Tuner(TunerOptions options, std::unique_ptr<TuningDb> db);
  absl::StatusOr<KernelTuning> Tune(const UOp& ast, Device& dev, const CodegenOptions& codegen,
                                    int beam);
  absl::StatusOr<const DeviceClass*> ClassOf(Device& dev);
  absl::StatusOr<Measurer*> MeasurerFor(Device& dev);

  TunerOptions options_;
  SearchSettings settings_;
  std::unique_ptr<TuningDb> db_;
  // By device: two devices of one name made with different options (THREADS, CPU_LLVM) differ.
  absl::flat_hash_map<const Device*, DeviceClass> classes_;
  // The default measurers, one per device asked about (unless options_.measurer).
  absl::flat_hash_map<const Device*, std::unique_ptr<Measurer>> measurers_;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_TUNER_H_
