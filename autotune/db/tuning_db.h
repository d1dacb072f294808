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
//   - ReplaceUnusable(record, opts) is Put for a search that found the stored record's opts do
//     not apply to its kernel: that row gives way whatever its time. Drop(digest) removes a
//     record (tg db drop).
//   - The measurement journal (PutMeasurement) holds every finished measurement of a running
//     search, keyed by (search key digest, opts): a coordinator killed and restarted reads it
//     back (ListMeasurements) instead of measuring again. Rows are kept until the search's
//     winner is stored and the coordinator calls DeleteMeasurements, or `tg db gc` drops the
//     journal of searches whose result is stored (a crash between Put and Delete leaves them).
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
#include <limits>
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

// The build that wrote a record: "0.1.0 (tinygrad 35900290, GCC 12.2.0)" (tinygrad/base/version.h).
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
  // Provenance of the winner's time (empty when measured in-process by an older build).
  std::string worker;              // the worker that timed it ("" in-process: "local")
  std::string host;                // that worker's host name
  std::vector<double> samples_s;   // the winner's timed runs, in order (time_s is their min)
  // The GPU arch of the class it was tuned on (DeviceClass::gpu_arch: "sm_90", "gfx1100"); ""
  // for a CPU, and in rows from before schema 4. Not part of the key: what LookupBestForArch
  // finds records of any GPU of an arch by.
  std::string gpu_arch;

  friend bool operator==(const TuningRecord&, const TuningRecord&) = default;
};

// One finished measurement of a running search (the journal of issue 5 section 2).
struct MeasurementRecord {
  std::string search_key;          // TuningKey::Digest() of the search
  std::vector<Opt> opts;           // the candidate
  std::string outcome;             // OutcomeName(): "ok", "compile_error", ...
  std::string error;               // why, for failures
  std::vector<double> samples_s;   // timed runs, in order
  double min_s = std::numeric_limits<double>::infinity();  // inf: no time (a failure)
  uint64_t program_hash = 0;       // of the rendered source; 0 when it never rendered
  std::string worker;              // who measured it
  std::string host;
  int64_t created_unix_ms = 0;     // when recorded; 0 in PutMeasurement means "now"

  friend bool operator==(const MeasurementRecord&, const MeasurementRecord&) = default;
};

// What `tg db gc` drops (or would drop).
struct GcCounts {
  int64_t old_records = 0;      // tuning rows of another codegen or opt version
  int64_t journal_rows = 0;     // measurements of searches whose result is stored
};

class TuningDb {
 public:
  virtual ~TuningDb() = default;

  virtual absl::StatusOr<std::optional<TuningRecord>> Lookup(const TuningKey& key) = 0;
  // The fastest record for the same kernel, device class, renderer, compiler, codegen version
  // and options, and opt semantics as `key`, whatever search settings found it (key.settings is ignored;
  // `tg run` uses any tuning there is).
  virtual absl::StatusOr<std::optional<TuningRecord>> LookupBest(const TuningKey& key) = 0;
  // The fastest record for the same kernel, renderer, codegen version and options, and opt
  // semantics as `key`, tuned on any GPU of `gpu_arch` (non-empty), whatever its name, driver,
  // compiler or search settings; ties go to the lower key digest. For a machine that compiles
  // for a GPU it does not have (`tg compile`): its own device class names no GPU, so the
  // records real GPUs stored under theirs never match it exactly.
  virtual absl::StatusOr<std::optional<TuningRecord>> LookupBestForArch(const TuningKey& key,
                                                                       std::string_view gpu_arch) = 0;
  // True when `record` is now the stored one (new key, or faster than what was stored); false
  // when an equal or faster record was kept. Errors: time_s not a finite value >= 0, I/O.
  virtual absl::StatusOr<bool> Put(const TuningRecord& record) = 0;
  // Put, except that a stored record for record.key whose opts are `unusable_opts` (opts found
  // not to apply to the kernel: a damaged or hand-edited row) gives way whatever its time; one
  // with other opts (stored since) keeps Put's rule. One transaction. Errors: as Put.
  virtual absl::StatusOr<bool> ReplaceUnusable(const TuningRecord& record, const std::vector<Opt>& unusable_opts) = 0;
  // Removes the record stored under `key_digest` (TuningKey::Digest()), whatever it holds:
  // answers whether there was one. For `tg db drop`, a person's decision; nothing drops a record
  // on its own.
  virtual absl::StatusOr<bool> Drop(std::string_view key_digest) = 0;
  // Every record, in key order (for export, stats and tests).
  virtual absl::StatusOr<std::vector<TuningRecord>> List() = 0;
  virtual absl::StatusOr<int64_t> Count() = 0;
  // Puts every record in one transaction (Put's rule per record): all or nothing. Answers how
  // many were stored. Errors: a bad time in any record (nothing is written), I/O.
  virtual absl::StatusOr<int64_t> PutAll(const std::vector<TuningRecord>& records) = 0;

  // The journal. PutMeasurement is idempotent: the same (search_key, opts) recorded twice
  // stays one row (the first); answers whether this call added it. Errors: empty search_key,
  // min_s NaN or negative, a sample not a finite time >= 0, I/O.
  virtual absl::StatusOr<bool> PutMeasurement(const MeasurementRecord& m) = 0;
  // The search's measurements in the order they were recorded.
  virtual absl::StatusOr<std::vector<MeasurementRecord>> ListMeasurements(
      std::string_view search_key) = 0;
  // Drops the search's journal (its winner is stored); answers how many rows went.
  virtual absl::StatusOr<int64_t> DeleteMeasurements(std::string_view search_key) = 0;
  virtual absl::StatusOr<int64_t> CountMeasurements() = 0;

  // Drops tuning rows whose codegen_version or opt_version differ from the given ones, and
  // journal rows of searches whose result is stored, in one transaction; dry_run only counts.
  virtual absl::StatusOr<GcCounts> Gc(std::string_view codegen_version, int opt_version,
                                      bool dry_run) = 0;

  // Where the data lives: "sqlite:<path>", or "postgresql://user@host:port/db" (no password).
  virtual std::string location() const = 0;
};

// <cache_dir>/tuning.db: $TG_CACHE_DIR, else $XDG_CACHE_HOME/tinygrad-cc, else
// ~/.cache/tinygrad-cc (Config::cache_dir).
std::string DefaultTuningDbPath(const Config& c);

// What opening a SQLite location may create (a PostgreSQL database always exists on its
// server: the mode does not apply; its tables are made on first use either way).
enum class DbCreate {
  kNothing,                // read-only use (tg db stats/show/export/gc, tg compile --db): the
                           // file must exist (NotFound naming it); nothing is made
  kFile,                   // a store (tg tune --db, tg db import): a missing file is made, a
                           // missing directory is an error naming it (FailedPrecondition)
  kFileAndDirectories,     // the cache directory's own file: missing directories are made too
};

// Opens `location`: a file path or "sqlite:<path>", or a libpq URL "postgresql://..." /
// "postgres://..." (autotune/db/postgres_tuning_db.h). `create` says what a SQLite location
// may make.
absl::StatusOr<std::unique_ptr<TuningDb>> OpenTuningDb(std::string_view location,
                                                       DbCreate create = DbCreate::kFile);

// The database at DefaultTuningDbPath(c) (made, with the cache directory, when missing), or
// nullptr when c.cachelevel == 0 (caching off).
absl::StatusOr<std::unique_ptr<TuningDb>> OpenDefaultTuningDb(const Config& c);

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_TUNING_DB_H_
