// File: autotune/db/sqlite_tuning_db.cc
// The SQLite tuning database: schema and migrations, the better-wins upsert, row decoding.
#include "autotune/db/sqlite_tuning_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "autotune/db/opts_text.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {
namespace {

// Finalizes a statement at scope exit.
struct StmtDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtDeleter>;

// Resets a cached statement at scope exit (releases its read lock, clears bindings).
class StmtReset {
 public:
  explicit StmtReset(sqlite3_stmt* s) : s_(s) {}
  ~StmtReset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  StmtReset(const StmtReset&) = delete;
  StmtReset& operator=(const StmtReset&) = delete;

 private:
  sqlite3_stmt* s_;
};

std::string Text(sqlite3_stmt* s, int col) {
  const unsigned char* t = sqlite3_column_text(s, col);
  return t == nullptr ? std::string()
                      : std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(s, col));
}

void Bind(sqlite3_stmt* s, int i, const schema::SqlValue& v) {
  if (const auto* t = std::get_if<std::string>(&v)) {
    sqlite3_bind_text(s, i, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
  } else if (const auto* n = std::get_if<int64_t>(&v)) {
    sqlite3_bind_int64(s, i, *n);
  } else if (const auto* d = std::get_if<double>(&v)) {
    sqlite3_bind_double(s, i, *d);
  } else {
    sqlite3_bind_null(s, i);
  }
}

// A result row of a stepped statement, for the shared decoders.
class SqliteRow : public schema::RowReader {
 public:
  explicit SqliteRow(sqlite3_stmt* s) : s_(s) {}
  bool IsNull(int col) const override { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  std::string Text(int col) const override { return tg::autotune::Text(s_, col); }
  int64_t Int64(int col) const override { return sqlite3_column_int64(s_, col); }
  double Double(int col) const override { return sqlite3_column_double(s_, col); }

 private:
  sqlite3_stmt* s_;
};

// SQLite returns BUSY without calling the busy handler where waiting could deadlock: changing
// the journal mode of a new file while another connection reads it, or taking the write lock
// while that file is still in rollback mode. Those steps are retried from scratch, briefly
// sleeping, until the busy timeout.
template <typename Step>
int RetryWhileBusy(int timeout_ms, Step step) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (int attempt = 0;; ++attempt) {
    int rc = step();
    bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
    if (!busy || std::chrono::steady_clock::now() >= deadline) return rc;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(1 << std::min(attempt, 4), 10)));
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<SqliteTuningDb>> SqliteTuningDb::Open(
    const std::string& path, const SqliteTuningDbOptions& options) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                    (options.create_if_missing ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  std::unique_ptr<SqliteTuningDb> self(new SqliteTuningDb(path, db));
  if (rc != SQLITE_OK) {
    std::error_code ec;
    if (!options.create_if_missing && (rc & 0xff) == SQLITE_CANTOPEN && !std::filesystem::exists(path, ec))
      return absl::NotFoundError(absl::StrCat("tuning database ", path, " does not exist"));
    return self->Error(rc, "opening");
  }
  RETURN_IF_ERROR(self->Init(options));
  return self;
}

SqliteTuningDb::~SqliteTuningDb() {
  sqlite3_finalize(lookup_);
  sqlite3_finalize(lookup_best_);
  sqlite3_finalize(lookup_best_for_arch_);
  sqlite3_finalize(put_);
  sqlite3_finalize(put_measurement_);
  sqlite3_finalize(list_measurements_);
  sqlite3_close_v2(db_);
}

absl::Status SqliteTuningDb::Error(int rc, std::string_view doing) const {
  std::string detail = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  std::string what =
      absl::StrCat("tuning database ", path_, ": ", std::string(doing), ": ", detail);
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return absl::DataLossError(absl::StrCat(
          what,
          " (not a SQLite database, or damaged; it was left untouched: move it away or "
          "pass another path)"));
    case SQLITE_CANTOPEN:
      return absl::UnavailableError(
          absl::StrCat(what, " (does its directory exist and is it writable?)"));
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return absl::PermissionDeniedError(what);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::UnavailableError(
          absl::StrCat(what, " (another process held it longer than the busy timeout)"));
    case SQLITE_FULL:
      return absl::ResourceExhaustedError(what);
    case SQLITE_IOERR:
      return absl::UnavailableError(what);
    default:
      return absl::InternalError(what);
  }
}

absl::Status SqliteTuningDb::Exec(const std::string& sql) {
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Error(rc, sql.substr(0, sql.find(' ', 7)));
  return absl::OkStatus();
}

absl::Status SqliteTuningDb::Init(const SqliteTuningDbOptions& options) {
  absl::MutexLock lock(&mu_);
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, options.busy_timeout_ms);
  busy_timeout_ms_ = options.busy_timeout_ms;
  // The first statement that reads the file: a garbage file fails here, before any write.
  int wal_rc = RetryWhileBusy(busy_timeout_ms_, [this] {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db_, "PRAGMA journal_mode=WAL", -1, &raw, nullptr);
    Stmt stmt(raw);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt.get());
    if (rc == SQLITE_ROW) journal_mode_ = Text(stmt.get(), 0);
    return rc;
  });
  if (wal_rc != SQLITE_ROW) return Error(wal_rc, "switching to WAL");
  // In WAL mode NORMAL loses at most the last commits on power loss, never consistency: right
  // for a cache, and it keeps Put from waiting on fsync.
  RETURN_IF_ERROR(Exec("PRAGMA synchronous=NORMAL"));
  RETURN_IF_ERROR(Migrate());
  struct {
    sqlite3_stmt** stmt;
    std::string sql;
  } prepared[] = {
      {&lookup_, schema::LookupSql()},
      {&lookup_best_, schema::LookupBestSql()},
      {&lookup_best_for_arch_, schema::LookupBestForArchSql()},
      {&put_, schema::UpsertSql()},
      {&put_measurement_, schema::PutMeasurementSql()},
      {&list_measurements_, schema::ListMeasurementsSql()},
  };
  for (auto& [stmt, sql] : prepared) {
    int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, stmt, nullptr);
    if (rc != SQLITE_OK) return Error(rc, absl::StrCat("preparing ", sql.substr(0, 40)));
  }
  return absl::OkStatus();
}

absl::Status SqliteTuningDb::Migrate() {
  // IMMEDIATE: take the write lock up front, so two processes opening a new file at once
  // migrate one after the other instead of both reading version 0.
  int begin_rc = RetryWhileBusy(busy_timeout_ms_, [this] {
    return sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  });
  if (begin_rc != SQLITE_OK) return Error(begin_rc, "BEGIN IMMEDIATE");
  auto fail = [this](absl::Status s) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return s;
  };
  absl::Status s = Exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  if (!s.ok()) return fail(s);
  int version = 0;
  {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db_, "SELECT MAX(version) FROM schema_version", -1, &raw, nullptr);
    Stmt stmt(raw);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt.get());
    if (rc != SQLITE_ROW) return fail(Error(rc, "reading the schema version"));
    version = sqlite3_column_int(stmt.get(), 0);
  }
  if (version > kSchemaVersion)
    return fail(absl::FailedPreconditionError(
        absl::StrCat("tuning database ", path_, " has schema version ", version,
                     ", newer than this build's ", kSchemaVersion,
                     ": use a newer tinygrad-cc or another path (the file was left untouched)")));
  if (version == kSchemaVersion) return Exec("COMMIT");
  for (int v = version; v < kSchemaVersion; ++v)
    for (const std::string& sql : schema::Migrations()[v])
      if (absl::Status st = Exec(sql); !st.ok())
        return fail(absl::Status(
            st.code(), absl::StrCat(st.message(), " (migrating schema ", v, " -> ", v + 1, ")")));
  s = Exec(absl::StrCat("DELETE FROM schema_version; INSERT INTO schema_version VALUES (",
                        kSchemaVersion, ")"));
  if (!s.ok()) return fail(s);
  return Exec("COMMIT");
}

absl::StatusOr<int> SqliteTuningDb::SchemaVersion() {
  absl::MutexLock lock(&mu_);
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, "SELECT MAX(version) FROM schema_version", -1, &raw, nullptr);
  Stmt stmt(raw);
  if (rc == SQLITE_OK) rc = sqlite3_step(stmt.get());
  if (rc != SQLITE_ROW) return Error(rc, "reading the schema version");
  return sqlite3_column_int(stmt.get(), 0);
}

int SqliteTuningDb::BindAndStep(sqlite3_stmt* stmt, const std::vector<schema::SqlValue>& params) {
  TG_CHECK(sqlite3_bind_parameter_count(stmt) == static_cast<int>(params.size()))
      << "parameters out of step with " << sqlite3_sql(stmt);
  for (size_t i = 0; i < params.size(); ++i) Bind(stmt, static_cast<int>(i) + 1, params[i]);
  return sqlite3_step(stmt);
}

absl::StatusOr<int64_t> SqliteTuningDb::QueryInt(const std::string& sql,
                                                 const std::vector<schema::SqlValue>& params) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr);
  Stmt stmt(raw);
  if (rc == SQLITE_OK) rc = BindAndStep(stmt.get(), params);
  if (rc != SQLITE_ROW) return Error(rc, sql.substr(0, sql.find(' ', 7)));
  return sqlite3_column_int64(stmt.get(), 0);
}

absl::StatusOr<int64_t> SqliteTuningDb::Modify(const std::string& sql,
                                               const std::vector<schema::SqlValue>& params) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr);
  Stmt stmt(raw);
  if (rc == SQLITE_OK) rc = BindAndStep(stmt.get(), params);
  if (rc != SQLITE_DONE) return Error(rc, sql.substr(0, sql.find(' ', 7)));
  return sqlite3_changes64(db_);
}

absl::Status SqliteTuningDb::Begin() {
  // IMMEDIATE: the write lock up front, so the transaction never fails half way on BUSY.
  int rc = RetryWhileBusy(busy_timeout_ms_, [this] {
    return sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  });
  if (rc != SQLITE_OK) return Error(rc, "BEGIN IMMEDIATE");
  return absl::OkStatus();
}

void SqliteTuningDb::Rollback() { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

absl::StatusOr<std::optional<TuningRecord>> SqliteTuningDb::QueryRecord(
    sqlite3_stmt* stmt, const std::vector<schema::SqlValue>& params, std::string_view doing) {
  StmtReset reset(stmt);
  int rc = BindAndStep(stmt, params);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) return Error(rc, doing);
  ASSIGN_OR_RETURN(TuningRecord r, schema::ReadTuningRow(SqliteRow(stmt)));
  return r;
}

absl::StatusOr<std::optional<TuningRecord>> SqliteTuningDb::Lookup(const TuningKey& key) {
  absl::MutexLock lock(&mu_);
  return QueryRecord(lookup_, schema::LookupParams(key), "lookup");
}

absl::StatusOr<std::optional<TuningRecord>> SqliteTuningDb::LookupBest(const TuningKey& key) {
  absl::MutexLock lock(&mu_);
  return QueryRecord(lookup_best_, schema::LookupBestParams(key), "lookup of the best");
}

absl::StatusOr<std::optional<TuningRecord>> SqliteTuningDb::LookupBestForArch(const TuningKey& key,
                                                                             std::string_view gpu_arch) {
  if (gpu_arch.empty()) return absl::InvalidArgumentError("LookupBestForArch needs a GPU arch");
  absl::MutexLock lock(&mu_);
  return QueryRecord(lookup_best_for_arch_, schema::LookupBestForArchParams(key, gpu_arch),
                     "lookup of the best for an arch");
}

absl::StatusOr<bool> SqliteTuningDb::PutLocked(const TuningRecord& record) {
  StmtReset reset(put_);
  int rc = BindAndStep(put_, schema::UpsertParams(record, absl::ToUnixMillis(absl::Now())));
  if (rc != SQLITE_DONE) return Error(rc, "put");
  return sqlite3_changes(db_) > 0;
}

absl::StatusOr<bool> SqliteTuningDb::Put(const TuningRecord& record) {
  RETURN_IF_ERROR(schema::ValidateRecord(record));
  absl::MutexLock lock(&mu_);
  return PutLocked(record);
}

absl::StatusOr<int64_t> SqliteTuningDb::PutAll(const std::vector<TuningRecord>& records) {
  for (size_t i = 0; i < records.size(); ++i)
    if (absl::Status s = schema::ValidateRecord(records[i]); !s.ok())
      return absl::Status(s.code(), absl::StrCat("record ", i + 1, ": ", s.message()));
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(Begin());
  int64_t stored = 0;
  for (const TuningRecord& r : records) {
    absl::StatusOr<bool> put = PutLocked(r);
    if (!put.ok()) {
      Rollback();
      return put.status();
    }
    stored += *put;
  }
  if (absl::Status s = Exec("COMMIT"); !s.ok()) {
    Rollback();
    return s;
  }
  return stored;
}

absl::StatusOr<bool> SqliteTuningDb::ReplaceUnusable(const TuningRecord& record,
                                                     const std::vector<Opt>& unusable_opts) {
  RETURN_IF_ERROR(schema::ValidateRecord(record));
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(Begin());
  absl::StatusOr<bool> stored = [&]() -> absl::StatusOr<bool> {
    RETURN_IF_ERROR(Modify(schema::DropWithOptsSql(), {record.key.Digest(), OptsToText(unusable_opts)}).status());
    return PutLocked(record);
  }();
  if (stored.ok()) {
    if (absl::Status s = Exec("COMMIT"); !s.ok()) stored = s;
  }
  if (!stored.ok()) Rollback();
  return stored;
}

absl::StatusOr<bool> SqliteTuningDb::Drop(std::string_view key_digest) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(int64_t n, Modify(schema::DropSql(), {std::string(key_digest)}));
  return n > 0;
}

absl::StatusOr<std::vector<TuningRecord>> SqliteTuningDb::List() {
  absl::MutexLock lock(&mu_);
  std::string sql = schema::ListSql();
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr);
  Stmt stmt(raw);
  if (rc != SQLITE_OK) return Error(rc, "list");
  std::vector<TuningRecord> out;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    ASSIGN_OR_RETURN(TuningRecord r, schema::ReadTuningRow(SqliteRow(stmt.get())));
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return Error(rc, "list");
  return out;
}

absl::StatusOr<int64_t> SqliteTuningDb::Count() {
  absl::MutexLock lock(&mu_);
  return QueryInt(schema::CountSql(), {});
}

absl::StatusOr<bool> SqliteTuningDb::PutMeasurement(const MeasurementRecord& m) {
  RETURN_IF_ERROR(schema::ValidateMeasurement(m));
  absl::MutexLock lock(&mu_);
  StmtReset reset(put_measurement_);
  int rc =
      BindAndStep(put_measurement_, schema::MeasurementParams(m, absl::ToUnixMillis(absl::Now())));
  if (rc != SQLITE_DONE) return Error(rc, "put measurement");
  return sqlite3_changes(db_) > 0;
}

absl::StatusOr<std::vector<MeasurementRecord>> SqliteTuningDb::ListMeasurements(
    std::string_view search_key) {
  absl::MutexLock lock(&mu_);
  StmtReset reset(list_measurements_);
  int rc = BindAndStep(list_measurements_, {std::string(search_key)});
  std::vector<MeasurementRecord> out;
  for (; rc == SQLITE_ROW; rc = sqlite3_step(list_measurements_)) {
    ASSIGN_OR_RETURN(MeasurementRecord m,
                     schema::ReadMeasurementRow(SqliteRow(list_measurements_)));
    out.push_back(std::move(m));
  }
  if (rc != SQLITE_DONE) return Error(rc, "list measurements");
  return out;
}

absl::StatusOr<int64_t> SqliteTuningDb::DeleteMeasurements(std::string_view search_key) {
  absl::MutexLock lock(&mu_);
  return Modify(schema::DeleteMeasurementsSql(), {std::string(search_key)});
}

absl::StatusOr<int64_t> SqliteTuningDb::CountMeasurements() {
  absl::MutexLock lock(&mu_);
  return QueryInt(schema::CountMeasurementsSql(), {});
}

absl::StatusOr<GcCounts> SqliteTuningDb::Gc(std::string_view codegen_version, int opt_version,
                                            bool dry_run) {
  std::vector<schema::SqlValue> versions = {std::string(codegen_version), int64_t{opt_version}};
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(Begin());
  GcCounts c;
  absl::Status s = [&]() -> absl::Status {
    if (dry_run) {
      ASSIGN_OR_RETURN(c.journal_rows, QueryInt(schema::CountFinishedJournalSql(), {}));
      ASSIGN_OR_RETURN(c.old_records, QueryInt(schema::CountOldSql(), versions));
      return absl::OkStatus();
    }
    ASSIGN_OR_RETURN(c.journal_rows, Modify(schema::DeleteFinishedJournalSql(), {}));
    ASSIGN_OR_RETURN(c.old_records, Modify(schema::DeleteOldSql(), versions));
    return absl::OkStatus();
  }();
  if (s.ok()) s = Exec(dry_run ? "ROLLBACK" : "COMMIT");
  if (!s.ok()) {
    Rollback();
    return s;
  }
  return c;
}

}  // namespace tg::autotune
