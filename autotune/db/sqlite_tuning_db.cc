// File: autotune/db/sqlite_tuning_db.cc
// The SQLite tuning database: schema and migrations, the better-wins upsert, row decoding.
#include "autotune/db/sqlite_tuning_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
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

// The record's columns in bind/read order. Types are spelled so that SQLite and PostgreSQL
// read them alike (DOUBLE PRECISION, BIGINT, TEXT).
constexpr const char* kColumns[] = {
    "key",
    "ast_hash",
    "device_digest",
    "renderer",
    "compiler",
    "codegen_version",
    "opt_version",
    "search_settings",
    "kernel_name",
    "opts",
    "time_s",
    "noopt_time_s",
    "heuristic_time_s",
    "candidates",
    "device_description",
    "tinygrad_cc_version",
    "created_unix_ms",
    "search_wall_s",
};
constexpr int kNumColumns = sizeof(kColumns) / sizeof(kColumns[0]);

// Migration i takes a file from schema version i to i + 1; kMigrations.size() is the version
// this build writes. Never edit a shipped step: add one.
const std::vector<std::vector<std::string>>& Migrations() {
  static const auto* kMigrations = new std::vector<std::vector<std::string>>{
      // 0 -> 1: the tuning table. CREATE TABLE (not IF NOT EXISTS): a foreign table of that name
      // in a file without our version table is an error, not something to write into.
      {"CREATE TABLE tuning ("
       " key TEXT PRIMARY KEY,"
       " ast_hash TEXT NOT NULL,"
       " device_digest TEXT NOT NULL,"
       " renderer TEXT NOT NULL,"
       " compiler TEXT NOT NULL,"
       " codegen_version TEXT NOT NULL,"
       " opt_version INTEGER NOT NULL,"
       " search_settings TEXT NOT NULL,"
       " kernel_name TEXT NOT NULL,"
       " opts TEXT NOT NULL,"
       " time_s DOUBLE PRECISION NOT NULL,"
       " noopt_time_s DOUBLE PRECISION,"
       " heuristic_time_s DOUBLE PRECISION,"
       " candidates BIGINT NOT NULL,"
       " device_description TEXT NOT NULL,"
       " tinygrad_cc_version TEXT NOT NULL,"
       " created_unix_ms BIGINT NOT NULL,"
       " search_wall_s DOUBLE PRECISION NOT NULL)",
       "CREATE INDEX tuning_by_ast ON tuning (ast_hash)"},
  };
  return *kMigrations;
}
static_assert(SqliteTuningDb::kSchemaVersion == 1, "add a migration step with the version bump");

std::string SelectSql() {
  return absl::StrCat("SELECT ", absl::StrJoin(kColumns, ", "), " FROM tuning");
}

// A worse or equal result never overwrites: the update runs only when strictly faster.
std::string UpsertSql() {
  std::vector<std::string> params, sets;
  for (int i = 0; i < kNumColumns; ++i) {
    params.push_back("?");
    if (i > 0) sets.push_back(absl::StrCat(kColumns[i], " = excluded.", kColumns[i]));
  }
  return absl::StrCat("INSERT INTO tuning (", absl::StrJoin(kColumns, ", "), ") VALUES (",
                      absl::StrJoin(params, ", "), ") ON CONFLICT (key) DO UPDATE SET ",
                      absl::StrJoin(sets, ", "), " WHERE excluded.time_s < tuning.time_s");
}

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

std::optional<double> OptionalDouble(sqlite3_stmt* s, int col) {
  if (sqlite3_column_type(s, col) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(s, col);
}

void BindText(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

void BindOptionalDouble(sqlite3_stmt* s, int i, const std::optional<double>& v) {
  if (v) {
    sqlite3_bind_double(s, i, *v);
  } else {
    sqlite3_bind_null(s, i);
  }
}

absl::StatusOr<uint64_t> ParseHex64(const std::string& hex) {
  if (hex.size() != 16) return absl::DataLossError(absl::StrCat("bad ast_hash '", hex, "'"));
  uint64_t v = 0;
  for (char c : hex) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return absl::DataLossError(absl::StrCat("bad ast_hash '", hex, "'"));
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return v;
}

// One row in kColumns order. A row this build cannot read is data loss, named by its key.
absl::StatusOr<TuningRecord> ReadRow(sqlite3_stmt* s) {
  TuningRecord r;
  int c = 0;  // the next column, in kColumns order
  std::string key = Text(s, c++);
  auto bad = [&](const absl::Status& st) {
    return absl::DataLossError(absl::StrCat("tuning row ", key, ": ", st.message()));
  };
  absl::StatusOr<uint64_t> ast = ParseHex64(Text(s, c++));
  if (!ast.ok()) return bad(ast.status());
  r.key.ast_hash = *ast;
  r.key.device = Text(s, c++);
  r.key.renderer = Text(s, c++);
  r.key.compiler = Text(s, c++);
  r.key.codegen_version = Text(s, c++);
  r.key.opt_version = sqlite3_column_int(s, c++);
  absl::StatusOr<SearchSettings> settings = SearchSettings::Parse(Text(s, c++));
  if (!settings.ok()) return bad(settings.status());
  r.key.settings = *settings;
  r.kernel_name = Text(s, c++);
  absl::StatusOr<std::vector<Opt>> opts = OptsFromText(Text(s, c++));
  if (!opts.ok()) return bad(opts.status());
  r.opts = std::move(*opts);
  r.time_s = sqlite3_column_double(s, c++);
  r.noopt_time_s = OptionalDouble(s, c++);
  r.heuristic_time_s = OptionalDouble(s, c++);
  r.candidates = sqlite3_column_int64(s, c++);
  r.device_description = Text(s, c++);
  r.tinygrad_cc_version = Text(s, c++);
  r.created_unix_ms = sqlite3_column_int64(s, c++);
  r.search_wall_s = sqlite3_column_double(s, c++);
  TG_CHECK(c == kNumColumns) << "ReadRow out of step with kColumns";
  // The digest is the primary key; a row whose parts hash elsewhere was not written by us.
  if (r.key.Digest() != key)
    return absl::DataLossError(absl::StrCat("tuning row ", key, ": key does not match its parts"));
  return r;
}

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

bool NonNegativeFinite(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

absl::StatusOr<std::unique_ptr<SqliteTuningDb>> SqliteTuningDb::Open(
    const std::string& path, const SqliteTuningDbOptions& options) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<SqliteTuningDb> self(new SqliteTuningDb(path, db));
  if (rc != SQLITE_OK) return self->Error(rc, "opening");
  RETURN_IF_ERROR(self->Init(options));
  return self;
}

SqliteTuningDb::~SqliteTuningDb() {
  sqlite3_finalize(lookup_);
  sqlite3_finalize(lookup_best_);
  sqlite3_finalize(put_);
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
  std::string select_one = absl::StrCat(SelectSql(), " WHERE key = ?");
  int rc = sqlite3_prepare_v2(db_, select_one.c_str(), -1, &lookup_, nullptr);
  if (rc != SQLITE_OK) return Error(rc, "preparing lookup");
  std::string select_best = absl::StrCat(
      SelectSql(),
      " WHERE ast_hash = ? AND device_digest = ? AND renderer = ? AND compiler = ? AND "
      "codegen_version = ? AND opt_version = ? ORDER BY time_s, key LIMIT 1");
  rc = sqlite3_prepare_v2(db_, select_best.c_str(), -1, &lookup_best_, nullptr);
  if (rc != SQLITE_OK) return Error(rc, "preparing lookup of the best");
  std::string upsert = UpsertSql();
  rc = sqlite3_prepare_v2(db_, upsert.c_str(), -1, &put_, nullptr);
  if (rc != SQLITE_OK) return Error(rc, "preparing put");
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
    for (const std::string& sql : Migrations()[v])
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

absl::StatusOr<std::optional<TuningRecord>> SqliteTuningDb::Lookup(const TuningKey& key) {
  std::string digest = key.Digest();
  absl::MutexLock lock(&mu_);
  StmtReset reset(lookup_);
  BindText(lookup_, 1, digest);
  int rc = sqlite3_step(lookup_);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) return Error(rc, "lookup");
  ASSIGN_OR_RETURN(TuningRecord r, ReadRow(lookup_));
  return r;
}

absl::StatusOr<std::optional<TuningRecord>> SqliteTuningDb::LookupBest(const TuningKey& key) {
  std::string ast = key.AstHex();
  absl::MutexLock lock(&mu_);
  StmtReset reset(lookup_best_);
  int i = 1;
  BindText(lookup_best_, i++, ast);
  BindText(lookup_best_, i++, key.device);
  BindText(lookup_best_, i++, key.renderer);
  BindText(lookup_best_, i++, key.compiler);
  BindText(lookup_best_, i++, key.codegen_version);
  sqlite3_bind_int(lookup_best_, i++, key.opt_version);
  int rc = sqlite3_step(lookup_best_);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) return Error(rc, "lookup of the best");
  ASSIGN_OR_RETURN(TuningRecord r, ReadRow(lookup_best_));
  return r;
}

absl::StatusOr<bool> SqliteTuningDb::Put(const TuningRecord& record) {
  if (!NonNegativeFinite(record.time_s))
    return absl::InvalidArgumentError(
        absl::StrCat("tuning record: time_s ", record.time_s, " is not a finite time"));
  for (const std::optional<double>& t : {record.noopt_time_s, record.heuristic_time_s})
    if (t && !NonNegativeFinite(*t))
      return absl::InvalidArgumentError(
          absl::StrCat("tuning record: baseline time ", *t, " is not a finite time"));
  int64_t created =
      record.created_unix_ms != 0 ? record.created_unix_ms : absl::ToUnixMillis(absl::Now());
  const TuningKey& k = record.key;
  std::string digest = k.Digest(), ast = k.AstHex(), settings = k.settings.ToString(),
              opts = OptsToText(record.opts);
  absl::MutexLock lock(&mu_);
  StmtReset reset(put_);
  int i = 1;  // the next parameter, in kColumns order
  BindText(put_, i++, digest);
  BindText(put_, i++, ast);
  BindText(put_, i++, k.device);
  BindText(put_, i++, k.renderer);
  BindText(put_, i++, k.compiler);
  BindText(put_, i++, k.codegen_version);
  sqlite3_bind_int(put_, i++, k.opt_version);
  BindText(put_, i++, settings);
  BindText(put_, i++, record.kernel_name);
  BindText(put_, i++, opts);
  sqlite3_bind_double(put_, i++, record.time_s);
  BindOptionalDouble(put_, i++, record.noopt_time_s);
  BindOptionalDouble(put_, i++, record.heuristic_time_s);
  sqlite3_bind_int64(put_, i++, record.candidates);
  BindText(put_, i++, record.device_description);
  BindText(put_, i++, record.tinygrad_cc_version);
  sqlite3_bind_int64(put_, i++, created);
  sqlite3_bind_double(put_, i++, record.search_wall_s);
  TG_CHECK(i == kNumColumns + 1) << "Put out of step with kColumns";
  int rc = sqlite3_step(put_);
  if (rc != SQLITE_DONE) return Error(rc, "put");
  return sqlite3_changes(db_) > 0;
}

absl::StatusOr<std::vector<TuningRecord>> SqliteTuningDb::List() {
  absl::MutexLock lock(&mu_);
  std::string sql = absl::StrCat(SelectSql(), " ORDER BY key");
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr);
  Stmt stmt(raw);
  if (rc != SQLITE_OK) return Error(rc, "list");
  std::vector<TuningRecord> out;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    ASSIGN_OR_RETURN(TuningRecord r, ReadRow(stmt.get()));
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return Error(rc, "list");
  return out;
}

absl::StatusOr<int64_t> SqliteTuningDb::Count() {
  absl::MutexLock lock(&mu_);
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, "SELECT COUNT(*) FROM tuning", -1, &raw, nullptr);
  Stmt stmt(raw);
  if (rc == SQLITE_OK) rc = sqlite3_step(stmt.get());
  if (rc != SQLITE_ROW) return Error(rc, "count");
  return sqlite3_column_int64(stmt.get(), 0);
}

}  // namespace tg::autotune
