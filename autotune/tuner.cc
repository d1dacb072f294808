// File: autotune/tuner.cc
// Cache, then search, then store: the tuner behind BEAM=n, `tg tune` and `tg run`.
#include "autotune/tuner.h"

#include <algorithm>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "autotune/measure/local_measurer.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {
TunerOptions TunerOptions::FromConfig(const Config& c) {
  return TunerOptions{.beam = c.beam,
                      .ignore_cache = c.ignore_beam_cache,
                      // CACHELEVEL=0 turns every on-disk cache off, the tuning database too.
                      .db = c.cachelevel > 0 ? DefaultTuningDbPath(c) : "",
                      .db_create = DbCreate::kFileAndDirectories,
                      .settings = SearchSettings::FromConfig(c),
                      .codegen = CodegenOptions::FromConfig(c),
                      .beam_debug = c.beam_debug,
                      .debug = c.debug,
                      .lock_dir = c.cache_dir,
                      .compile_threads = c.cpu_count};
}

absl::StatusOr<std::unique_ptr<Tuner>> Tuner::Create(const TunerOptions& options) {
  if (options.beam < 0) return absl::InvalidArgumentError(absl::StrCat("beam width must be >= 0, got ", options.beam));
  std::unique_ptr<TuningDb> db;
  if (!options.db.empty()) {
    ASSIGN_OR_RETURN(db, OpenTuningDb(options.db, options.db_create));
  }
  return std::unique_ptr<Tuner>(new Tuner(options, std::move(db)));
}

Tuner::Tuner(TunerOptions options, std::unique_ptr<TuningDb> db)
    : options_(std::move(options)), settings_(options_.settings), db_(std::move(db)) {
  if (options_.beam > 0) settings_.width = options_.beam;
}

std::string Tuner::id() const {
  return absl::StrCat("tuner beam=", options_.beam, " ignore_cache=", options_.ignore_cache, " ",
                      settings_.ToString(), " db=", db_ != nullptr ? db_->location() : "none");
}

absl::StatusOr<const DeviceClass*> Tuner::ClassOf(Device& dev) {
  auto it = classes_.find(&dev);
  if (it == classes_.end()) {
    ASSIGN_OR_RETURN(DeviceClass dc, DeviceClassFor(dev));
    it = classes_.emplace(&dev, std::move(dc)).first;
  }
  return &it->second;
}

absl::StatusOr<Measurer*> Tuner::MeasurerFor(Device& dev) {
  if (options_.measurer != nullptr) return options_.measurer.get();
  std::unique_ptr<Measurer>& m = measurers_[&dev];
  if (m == nullptr) {
    std::shared_ptr<DeviceLock> lock;
    if (!options_.lock_dir.empty()) {
      ASSIGN_OR_RETURN(lock, DeviceLock::Open(DefaultDeviceLockPath(options_.lock_dir, dev.name())));
    }
    m = std::make_unique<LocalMeasurer>(&dev, LocalMeasurerOptions{.device = dev.name(),
                                                                   .compile_threads = options_.compile_threads,
                                                                   .device_lock = lock,
                                                                   .preparer = options_.preparer});
  }
  return m.get();
}

absl::StatusOr<KernelTuning> Tuner::Tune(const UOp& ast, Device& dev) { return Tune(ast, dev, options_.codegen); }

absl::StatusOr<KernelTuning> Tuner::Tune(const UOp& ast, Device& dev, const CodegenOptions& codegen) {
  return Tune(ast, dev, codegen, options_.beam);
}

absl::StatusOr<KernelTuning> Tuner::Tune(const UOp& ast, Device& dev, const CodegenOptions& codegen,
                                         int beam) {
  if (beam < 0)
    return absl::InvalidArgumentError(absl::StrCat("beam width must be >= 0, got ", beam));
  ASSIGN_OR_RETURN(const DeviceClass* dc, ClassOf(dev));
  DriverOptions o{.db = db_.get(),
                  .device_class = *dc,
                  .renderer = &dev.renderer(),
                  .settings = settings_,
                  .codegen = codegen,
                  .beam_debug = options_.beam_debug,
                  .debug = options_.debug,
                  .ignore_cache = options_.ignore_cache,
                  .lookup_only = beam == 0,
                  .search_progress = options_.progress,
                  .observer = options_.observer};
  // BEAM_LOCAL_MAX bounds the local size of a candidate; a GPU bounds it too (its threads per
  // block): the search keeps to the smaller, so it never spends a slot on a launch the GPU
  // refuses (the settings, and so the tuning key, say what the search ran with).
  if (const GpuDescription* gpu = dev.gpu(); gpu != nullptr && gpu->max_threads_per_block > 0)
    o.settings.local_max = std::min(o.settings.local_max, gpu->max_threads_per_block);
  if (beam > 0) {
    o.settings.width = beam;
    ASSIGN_OR_RETURN(o.measurer, MeasurerFor(dev));
  }
  ASSIGN_OR_RETURN(std::vector<KernelTuning> r, TuneKernels(std::span<const UOp>(&ast, 1), o));
  RETURN_IF_ERROR(r[0].status);
  return std::move(r[0]);
}

absl::StatusOr<std::optional<ChosenOpts>> Tuner::Choose(const UOp& ast, Device& dev,
                                                        const CodegenOptions& codegen, int beam) {
  ASSIGN_OR_RETURN(KernelTuning t, Tune(ast, dev, codegen, beam));
  if (!t.record.has_value()) return std::optional<ChosenOpts>();
  ChosenOpts chosen{.opts = t.record->opts, .origin = "this BEAM search's winner"};
  if (t.from_cache) {
    const std::string key = t.record->key.Digest().substr(0, 16);
    chosen.origin = absl::StrCat("record ", key, " of the tuning database ", db_->location());
    if (!t.record->worker.empty())
      absl::StrAppend(&chosen.origin, " (timed by ", t.record->worker, " on ", t.record->host, ")");
    chosen.remedy = absl::StrCat("`tg db show ", key, "` shows the record, `tg db drop ", key, "` drops it");
  }
  return std::optional<ChosenOpts>(std::move(chosen));
}

}  // namespace tg::autotune
