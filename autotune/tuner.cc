// File: autotune/tuner.cc
// Cache, then search, then store: the tuner behind BEAM=n, `tg tune` and `tg run`.
#include "autotune/tuner.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/search_record.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {
namespace {

}  // namespace

TunerOptions TunerOptions::FromConfig(const Config& c) {
  return TunerOptions{.beam = c.beam,
                      .ignore_cache = c.ignore_beam_cache,
                      .codegen = CodegenOptions::FromConfig(c),
                      .beam_debug = c.beam_debug,
                      .debug = c.debug,
                      .lock_device = true,
                      .compile_threads = c.cpu_count};
}

absl::StatusOr<std::unique_ptr<Tuner>> Tuner::Create(const TunerOptions& options) {
  if (options.beam < 0) return absl::InvalidArgumentError(absl::StrCat("beam width must be >= 0, got ", options.beam));
  std::unique_ptr<TuningDb> db;
  if (!options.db.empty()) {
    ASSIGN_OR_RETURN(db, OpenTuningDb(options.db));
  } else {
    ASSIGN_OR_RETURN(db, OpenDefaultTuningDb(GetConfig()));
  }
  return std::unique_ptr<Tuner>(new Tuner(options, std::move(db)));
}

Tuner::Tuner(TunerOptions options, std::unique_ptr<TuningDb> db)
    : options_(std::move(options)), db_(std::move(db)), measurer_(options_.measurer) {
  settings_ = options_.settings.value_or(SearchSettings::FromConfig(GetConfig()));
  if (options_.beam > 0) settings_.width = options_.beam;
}

std::string Tuner::id() const {
  return absl::StrCat("tuner beam=", options_.beam, " ignore_cache=", options_.ignore_cache, " ",
                      settings_.ToString(), " db=", db_ != nullptr ? db_->location() : "none");
}

absl::StatusOr<const DeviceClass*> Tuner::ClassOf(Device& dev) {
  auto it = classes_.find(dev.name());
  if (it == classes_.end()) {
    ASSIGN_OR_RETURN(DeviceClass dc, DeviceClassFor(dev));
    it = classes_.emplace(dev.name(), std::move(dc)).first;
  }
  return &it->second;
}

absl::StatusOr<Measurer*> Tuner::MeasurerFor(Device& dev) {
  if (measurer_ == nullptr) {
    std::shared_ptr<DeviceLock> lock;
    if (options_.lock_device) {
      ASSIGN_OR_RETURN(lock, DeviceLock::Open(DefaultDeviceLockPath(GetConfig().cache_dir, dev.name())));
    }
    ASSIGN_OR_RETURN(std::unique_ptr<LocalMeasurer> m, LocalMeasurer::Create({.device = dev.name(),
                                                                     .compile_threads = options_.compile_threads,
                                                                     .device_lock = lock}));
    measurer_ = std::move(m);
  }
  return measurer_.get();
}

absl::StatusOr<KernelTuning> Tuner::Tune(const UOp& ast, Device& dev) { return Tune(ast, dev, options_.codegen); }

absl::StatusOr<KernelTuning> Tuner::Tune(const UOp& ast, Device& dev, const CodegenOptions& codegen) {
  const auto t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(const DeviceClass* dc, ClassOf(dev));
  TuningKey key = TuningKey::Make(ast, *dc, settings_, codegen);
  KernelTuning out;
  if (db_ != nullptr && !options_.ignore_cache) {
    std::optional<TuningRecord> hit;
    if (options_.beam == 0) {
      ASSIGN_OR_RETURN(hit, db_->LookupBest(key));
    } else {
      ASSIGN_OR_RETURN(hit, db_->Lookup(key));
    }
    if (hit.has_value()) {
      out.record = std::move(hit);
      out.from_cache = true;
      out.wall_s = SecondsSince(t0);
      return out;
    }
  }
  if (options_.beam == 0) {
    out.wall_s = SecondsSince(t0);
    return out;
  }

  BeamOptions bo{.beam_debug = options_.beam_debug, .debug = options_.debug};
  if (options_.progress) bo.progress = [&](const BeamProgress& p) { options_.progress(ast, p); };
  ASSIGN_OR_RETURN(SearchStart start, StartSearch(ast, dev.renderer(), codegen, std::move(bo)));
  ASSIGN_OR_RETURN(Measurer * measurer, MeasurerFor(dev));
  ASSIGN_OR_RETURN(BeamResult r,
                   BeamSearch(start.task, dev.renderer(), *measurer, settings_, start.options));

  TuningRecord rec = RecordOfSearch(key, ast, r, *dc);
  rec.worker = "local";
  rec.host = HostName();
  if (db_ != nullptr) RETURN_IF_ERROR(db_->Put(rec).status());
  out.record = std::move(rec);
  out.search = std::move(r);
  out.wall_s = SecondsSince(t0);
  return out;
}

absl::StatusOr<std::optional<std::vector<Opt>>> Tuner::Choose(const UOp& ast, Device& dev,
                                                              const CodegenOptions& codegen) {
  ASSIGN_OR_RETURN(KernelTuning t, Tune(ast, dev, codegen));
  if (!t.record.has_value()) return std::optional<std::vector<Opt>>();
  return std::optional<std::vector<Opt>>(t.record->opts);
}

}  // namespace tg::autotune
