// File: autotune/tuner.h
// The tuner: answers "which opts for this kernel on this device" from the tuning database, or
// by a BEAM search whose winner it stores. It is what BEAM=n, `tg tune` and `tg run` use.
//
// Port of the cache-then-search flow of tinygrad/codegen/opt/search.py beam_search (its
// diskcache_get/put of "beam_search") as called from postrange.apply_opts, split into parts
// that each do one thing: TuningDb stores, BeamSearch searches, a Measurer times, and this
// class puts them together and installs itself as the engine's KernelOptChooser.
//
// Modes (TunerOptions::beam):
//   beam >= 1: a kernel missing from the database is searched with that width and stored;
//   beam == 0: lookup only (`tg run`): the database's fastest record for the kernel on this
//              device, compiler and opt semantics, whatever search settings found it; a miss
//              leaves the default opts.
// IGNORE_BEAM_CACHE skips lookups (results are still stored: the better one wins); with
// CACHELEVEL=0 there is no database at all.
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Tuner> tuner, Tuner::Create({.beam = 2}));
//   SetKernelOptChooser(tuner.get());      // Realize now tunes every kernel it compiles
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
#include "autotune/key/device_class.h"
#include "autotune/key/search_settings.h"
#include "autotune/measure/measurer.h"
#include "autotune/search/beam_search.h"
#include "tinygrad/engine/opt_chooser.h"

namespace tg::autotune {

struct TunerOptions {
  int beam = 0;                 // search width; 0: lookup only
  bool ignore_cache = false;    // IGNORE_BEAM_CACHE
  std::string db;               // database location; "": the default file (none at CACHELEVEL=0)
  // Called during a search with where it stands (for a progress display).
  std::function<void(const UOp& ast, const BeamProgress&)> progress;
  // Settings other than the width; default: SearchSettings::FromConfig(GetConfig()).
  std::optional<SearchSettings> settings;
  // Measures candidates; default: a LocalMeasurer on the kernel's device, made on first use.
  std::shared_ptr<Measurer> measurer;
  // How kernels lower (the heuristic's and the lowering's settings): part of the key, and
  // what candidates are compiled with. Choose() uses the options the engine passes instead.
  CodegenOptions codegen;
  // The searches' trace (BeamOptions::beam_debug and debug: BEAM_DEBUG, DEBUG).
  int beam_debug = 0;
  int debug = 0;
  // Whether the default measurer shares the machine's device lock (autotune/lock/device_lock.h,
  // DefaultDeviceLockPath in the cache directory) with the farm workers and other tuners.
  bool lock_device = false;
  // Threads of the default measurer that lower and compile candidates; 0: the machine's CPUs.
  int compile_threads = 0;

  // From the Config: beam = c.beam, ignore_cache = c.ignore_beam_cache, codegen, the trace
  // levels, lock_device, compile_threads = c.cpu_count.
  static TunerOptions FromConfig(const Config& c);
};

// What the tuner decided for one kernel.
struct KernelTuning {
  std::optional<TuningRecord> record;  // nullopt: lookup-only miss (use the default opts)
  bool from_cache = false;
  std::optional<BeamResult> search;    // when it searched
  double wall_s = 0;                   // lookup + search + store
};

class Tuner : public KernelOptChooser {
 public:
  // Opens the database. Errors: the database cannot be opened.
  static absl::StatusOr<std::unique_ptr<Tuner>> Create(const TunerOptions& options);

  // The decision for `ast` (an unoptimized kernel SINK) on `dev`, lowered with `codegen`
  // (default: options().codegen).
  absl::StatusOr<KernelTuning> Tune(const UOp& ast, Device& dev);
  absl::StatusOr<KernelTuning> Tune(const UOp& ast, Device& dev, const CodegenOptions& codegen);

  // KernelOptChooser: Tune's opts, nullopt on a lookup-only miss.
  absl::StatusOr<std::optional<std::vector<Opt>>> Choose(const UOp& ast, Device& dev,
                                                         const CodegenOptions& codegen) override;
  std::string id() const override;

  // The database in use; null when caching is off.
  TuningDb* db() const { return db_.get(); }
  const TunerOptions& options() const { return options_; }

 private:
  Tuner(TunerOptions options, std::unique_ptr<TuningDb> db);
  absl::StatusOr<const DeviceClass*> ClassOf(Device& dev);
  absl::StatusOr<Measurer*> MeasurerFor(Device& dev);

  TunerOptions options_;
  SearchSettings settings_;
  std::unique_ptr<TuningDb> db_;
  absl::flat_hash_map<std::string, DeviceClass> classes_;  // by device name
  std::shared_ptr<Measurer> measurer_;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_TUNER_H_
