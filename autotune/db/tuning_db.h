// File: autotune/db/tuning_db.h
// The tuning database: per kernel and key, the best opts a search found and how it got them.
//
// Replaces the reference's beam cache (tinygrad/helpers.py diskcache_get/put on table
// "beam_search", a pickled opt list per key) with typed records and "better result wins".
//
// Semantics every backend keeps (SQLite now, PostgreSQL later with the same schema):
//   - Lookup(key) answers the stored record or nullopt.
//   - Put(record) stores it unless the stored record for the key is at least as fast
//     (time_s <=): a worse or equal result never overwrites, atomically, across threads,
//     processes and machines.
//   - Failures are Status values (unreadable, corrupt, newer schema, unwritable); nothing is
//     deleted or overwritten to recover from one.
//
// Who decides what:
//   - CACHELEVEL=0 disables every on-disk cache: OpenDefaultTuningDb() then returns nullptr,
//     and callers treat a null database as "always miss, never store".
//   - IGNORE_BEAM_CACHE=1 is the caller's choice (Config::ignore_beam_cache): the search skips
//     Lookup and searches again, and still Puts its result (the better one wins).
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<TuningDb> db, OpenDefaultTuningDb(GetConfig()));
//   if (db != nullptr) {
//     ASSIGN_OR_RETURN(std::optional<TuningRecord> hit, db->Lookup(key));
//     if (!hit) { ...search...; RETURN_IF_ERROR(db->Put(record).status()); }
//   }
#ifndef AUTOTUNE_DB_TUNING_DB_H_
#define AUTOTUNE_DB_TUNING_DB_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/db/tuning_key.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::autotune {

// The build that wrote a record: "0.1.0 (tinygrad 35900290, GCC 12.2.0)" (tools/cli/version.h).
std::string TinygradCcBuild();

struct TuningRecord {
  TuningKey key;
  std::string kernel_name;                 // for people (tg db show); not part of the key
  std::vector<Opt> opts;                   // the winner's opts, applied to the unoptimized AST
  double time_s = 0;                       // the winner's time (best of its runs), seconds
  std::optional<double> noopt_time_s;      // the unoptimized kernel's time, if measured
  std::optional<double> heuristic_time_s;  // the hand-coded heuristic's time, if measured
  int64_t candidates = 0;                  // candidates timed by the search
  std::string device_description;          // DeviceClass::Describe()
  std::string tinygrad_cc_version = TinygradCcBuild();  // the build that searched
  int64_t created_unix_ms = 0;                          // when stored; 0 in Put means "now"
  double search_wall_s = 0;                             // the search's wall time

  friend bool operator==(const TuningRecord&, const TuningRecord&) = default;
};

class TuningDb {
 public:
  virtual ~TuningDb() = default;

  virtual absl::StatusOr<std::optional<TuningRecord>> Lookup(const TuningKey& key) = 0;
  // The fastest record for the same kernel, device class, renderer, compiler, codegen version
  // and opt semantics as `key`, whatever search settings found it (key.settings is ignored;
  // `tg run` uses any tuning there is).
  virtual absl::StatusOr<std::optional<TuningRecord>> LookupBest(const TuningKey& key) = 0;
  // True when `record` is now the stored one (new key, or faster than what was stored); false
  // when an equal or faster record was kept. Errors: time_s not a finite value >= 0, I/O.
  virtual absl::StatusOr<bool> Put(const TuningRecord& record) = 0;
  // Every record, in key order (for export, stats and tests).
  virtual absl::StatusOr<std::vector<TuningRecord>> List() = 0;
  virtual absl::StatusOr<int64_t> Count() = 0;
  // Where the data lives: "sqlite:<path>".
  virtual std::string location() const = 0;
};

// <cache_dir>/tuning.db: $TG_CACHE_DIR, else $XDG_CACHE_HOME/tinygrad-cc, else
// ~/.cache/tinygrad-cc (Config::cache_dir).
std::string DefaultTuningDbPath(const Config& c);

// Opens `location`: a file path or "sqlite:<path>" (created with its directories if missing).
// "postgresql://..." is not supported yet (Unimplemented).
absl::StatusOr<std::unique_ptr<TuningDb>> OpenTuningDb(std::string_view location);

// The database at DefaultTuningDbPath(c), or nullptr when c.cachelevel == 0 (caching off).
absl::StatusOr<std::unique_ptr<TuningDb>> OpenDefaultTuningDb(const Config& c);

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_TUNING_DB_H_
