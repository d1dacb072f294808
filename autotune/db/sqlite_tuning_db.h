// File: autotune/db/sqlite_tuning_db.h
// The tuning database in one SQLite file: the embedded default (autotune/db/tuning_db.h has
// the semantics).
//
// Safe with many processes on one file: WAL journal (readers never block the writer), a busy
// timeout (a writer waits for another instead of failing), and "better result wins" as one
// INSERT ... ON CONFLICT DO UPDATE ... WHERE statement, which is atomic. The schema carries a
// version; Open() migrates older files forward in one transaction and refuses newer ones.
// The schema and SQL are shared with the PostgreSQL backend (autotune/db/schema.h). One
// object may be used from several threads (calls are serialized).
//
// Example:
//   ASSIGN_OR_RETURN(auto db, SqliteTuningDb::Open("/path/to/tuning.db"));
//   ASSIGN_OR_RETURN(bool stored, db->Put(record));
#ifndef AUTOTUNE_DB_SQLITE_TUNING_DB_H_
#define AUTOTUNE_DB_SQLITE_TUNING_DB_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "autotune/db/schema.h"
#include "autotune/db/tuning_db.h"

struct sqlite3;
struct sqlite3_stmt;

namespace tg::autotune {

struct SqliteTuningDbOptions {
  int busy_timeout_ms = 30000;  // how long a write waits for another process's transaction
  // false: a missing file is an error (NotFound naming it), and nothing is made.
  bool create_if_missing = true;
};

class SqliteTuningDb : public TuningDb {
 public:
  // The schema this build writes. Files with a lower version are migrated on Open.
  static constexpr int kSchemaVersion = schema::kVersion;

  // Opens or creates the file at `path` (its directory must exist). Errors: the file is
  // missing and options.create_if_missing is false (NotFound), the directory is
  // missing or not writable (Unavailable / PermissionDenied), the file is not a SQLite
  // database or is damaged (DataLoss), its schema is newer than ours (FailedPrecondition).
  // The file is never modified on error.
  static absl::StatusOr<std::unique_ptr<SqliteTuningDb>> Open(
      const std::string& path, const SqliteTuningDbOptions& options = {});
  ~SqliteTuningDb() override;
  SqliteTuningDb(const SqliteTuningDb&) = delete;
  SqliteTuningDb& operator=(const SqliteTuningDb&) = delete;

  absl::StatusOr<std::optional<TuningRecord>> Lookup(const TuningKey& key) override;
  absl::StatusOr<std::optional<TuningRecord>> LookupBest(const TuningKey& key) override;
  absl::StatusOr<std::optional<TuningRecord>> LookupBestForArch(const TuningKey& key,
                                                               std::string_view gpu_arch) override;
  absl::StatusOr<bool> Put(const TuningRecord& record) override;
  absl::StatusOr<bool> ReplaceUnusable(const TuningRecord& record, const std::vector<Opt>& unusable_opts) override;
  absl::StatusOr<bool> Drop(std::string_view key_digest) override;
  absl::StatusOr<std::vector<TuningRecord>> List() override;
  absl::StatusOr<int64_t> Count() override;
  absl::StatusOr<int64_t> PutAll(const std::vector<TuningRecord>& records) override;
  absl::StatusOr<bool> PutMeasurement(const MeasurementRecord& m) override;
  absl::StatusOr<std::vector<MeasurementRecord>> ListMeasurements(
      std::string_view search_key) override;
  absl::StatusOr<int64_t> DeleteMeasurements(std::string_view search_key) override;
  absl::StatusOr<int64_t> CountMeasurements() override;
  absl::StatusOr<GcCounts> Gc(std::string_view codegen_version, int opt_version,
                              bool dry_run) override;
  std::string location() const override { return "sqlite:" + path_; }

  // "wal" unless the file system cannot do WAL (then SQLite's fallback, still safe).
  const std::string& journal_mode() const { return journal_mode_; }
  absl::StatusOr<int> SchemaVersion();

 private:
  SqliteTuningDb(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  absl::Status Init(const SqliteTuningDbOptions& options);
  absl::Status Migrate() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Exec(const std::string& sql) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Error(int rc, std::string_view doing) const;
  // Binds `params` to `stmt` ($1..$n) and steps it once: SQLITE_ROW, SQLITE_DONE or an error.
  int BindAndStep(sqlite3_stmt* stmt, const std::vector<schema::SqlValue>& params)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<bool> PutLocked(const TuningRecord& record) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Runs the prepared `stmt` with `params`: the record of its first row, or nullopt.
  absl::StatusOr<std::optional<TuningRecord>> QueryRecord(sqlite3_stmt* stmt,
                                                          const std::vector<schema::SqlValue>& params,
                                                          std::string_view doing)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Runs a one-off statement that answers one integer (COUNT) or changes rows (answers the
  // number changed).
  absl::StatusOr<int64_t> QueryInt(const std::string& sql,
                                   const std::vector<schema::SqlValue>& params)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<int64_t> Modify(const std::string& sql,
                                 const std::vector<schema::SqlValue>& params)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Begin() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Rollback() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string path_;
  absl::Mutex mu_;
  sqlite3* const db_;
  sqlite3_stmt* lookup_ ABSL_GUARDED_BY(mu_) = nullptr;
  sqlite3_stmt* lookup_best_ ABSL_GUARDED_BY(mu_) = nullptr;
  sqlite3_stmt* lookup_best_for_arch_ ABSL_GUARDED_BY(mu_) = nullptr;
  sqlite3_stmt* put_ ABSL_GUARDED_BY(mu_) = nullptr;
  sqlite3_stmt* put_measurement_ ABSL_GUARDED_BY(mu_) = nullptr;
  sqlite3_stmt* list_measurements_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::string journal_mode_;
  int busy_timeout_ms_ = 0;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_SQLITE_TUNING_DB_H_
