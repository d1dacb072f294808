// File: autotune/db/postgres_tuning_db.h
// The tuning database on a PostgreSQL server: the shared database of a cluster (issue 5
// section 4). Same schema, statements and semantics as the SQLite file (autotune/db/schema.h,
// tuning_db.h); the differences are only where the data lives and how writers meet.
//
// - Better result wins atomically: Put is one INSERT ... ON CONFLICT (key) DO UPDATE ... WHERE
//   excluded.time_s < tuning.time_s; PostgreSQL locks the conflicting row and evaluates the
//   WHERE against its latest version, so concurrent coordinators never lose an update.
// - Migrations run in one transaction holding an advisory lock (pg_advisory_xact_lock) on the
//   schema's name: several processes opening a new database at once migrate one after the
//   other. A schema newer than this build's is refused; nothing is changed on error.
// - Values always travel as PQexecParams parameters; the only name ever put into SQL text is
//   the schema, which must be a plain lower-case identifier.
// - Errors name the server and database (user@host:port/dbname) and libpq's reason, never the
//   password. A dropped connection is reopened, and the operation run once more.
// One object may be used from several threads (calls are serialized on one connection).
//
// Example:
//   ASSIGN_OR_RETURN(auto db, PostgresTuningDb::Open("postgresql://tg@db.lan/tuning"));
//   ASSIGN_OR_RETURN(bool stored, db->Put(record));
#ifndef AUTOTUNE_DB_POSTGRES_TUNING_DB_H_
#define AUTOTUNE_DB_POSTGRES_TUNING_DB_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "autotune/db/schema.h"
#include "autotune/db/tuning_db.h"

struct pg_conn;
struct pg_result;

namespace tg::autotune {

struct PostgresTuningDbOptions {
  // The schema holding the tables, created if missing ([a-z_][a-z0-9_]*, at most 63 chars);
  // "": the connection's search_path (normally "public"). Tests use one schema each.
  std::string schema;
  int connect_timeout_s = 10;  // unless the URL sets connect_timeout
  // Shown in pg_stat_activity (which coordinator or worker holds a connection), unless the
  // URL sets application_name.
  std::string application_name = "tinygrad-cc";
};

class PostgresTuningDb : public TuningDb {
 public:
  static constexpr int kSchemaVersion = schema::kVersion;

  // Connects to `url` (a libpq URL or key=value string) and migrates the schema.
  // Errors: the server cannot be reached or refuses (Unavailable / PermissionDenied / ...,
  // naming server and database), a bad schema name (InvalidArgument), a schema version newer
  // than ours (FailedPrecondition), a foreign `tuning` table (the migration rolls back).
  static absl::StatusOr<std::unique_ptr<PostgresTuningDb>> Open(
      const std::string& url, const PostgresTuningDbOptions& options = {});
  ~PostgresTuningDb() override;
  PostgresTuningDb(const PostgresTuningDb&) = delete;
  PostgresTuningDb& operator=(const PostgresTuningDb&) = delete;

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
  // "postgresql://user@host:port/dbname", plus " schema=NAME" when one was given.
  std::string location() const override { return location_; }

  absl::StatusOr<int> SchemaVersion();

 private:
  class Result;
  PostgresTuningDb(std::string location, std::string password, PostgresTuningDbOptions options)
      : location_(std::move(location)),
        password_(std::move(password)),
        options_(std::move(options)) {}
  absl::Status Connect(const std::string& url) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status UseSchema() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Migrate() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Reopens a dropped connection (and sets its search_path again).
  absl::Status EnsureConnected() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  template <typename F>
  auto Retrying(F f) -> decltype(f()) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Runs `sql` with `params`; the result must have status COMMAND_OK or TUPLES_OK.
  absl::StatusOr<Result> Exec(const std::string& sql, const std::vector<schema::SqlValue>& params,
                              std::string_view doing) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<int64_t> QueryInt(const std::string& sql,
                                   const std::vector<schema::SqlValue>& params,
                                   std::string_view doing) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<int64_t> Modify(const std::string& sql,
                                 const std::vector<schema::SqlValue>& params,
                                 std::string_view doing) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<bool> PutLocked(const TuningRecord& record) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Runs `sql` (retrying a dropped connection): the record of its first row, or nullopt.
  absl::StatusOr<std::optional<TuningRecord>> QueryRecord(const std::string& sql,
                                                          const std::vector<schema::SqlValue>& params,
                                                          std::string_view doing)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Rollback() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A status for `what` failing, naming the server; the password is masked.
  absl::Status Error(absl::StatusCode code, std::string_view doing, std::string_view detail) const;
  absl::Status ResultError(const pg_result* res, std::string_view doing) const;

  const std::string location_;
  const std::string password_;  // only to mask it in messages
  const PostgresTuningDbOptions options_;
  absl::Mutex mu_;
  pg_conn* conn_ ABSL_GUARDED_BY(mu_) = nullptr;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_POSTGRES_TUNING_DB_H_
