// File: autotune/db/postgres_tuning_db.cc
// The PostgreSQL tuning database: connection, migrations under an advisory lock, statements
// through PQexecParams, text-format results decoded by the shared row readers.
#include "autotune/db/postgres_tuning_db.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "autotune/db/opts_text.h"
#include "postgresql/libpq-fe.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {

// Owns a PGresult.
class PostgresTuningDb::Result {
 public:
  explicit Result(PGresult* r) : r_(r, &PQclear) {}
  PGresult* get() const { return r_.get(); }
  int rows() const { return PQntuples(r_.get()); }

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> r_;
};

namespace {

// One row of a text-format result, for the shared decoders. The columns are ours (the
// statements name them), so a value that does not parse reads as 0 and the row's checks
// (key digest, opts, samples) catch real damage.
class PgRow : public schema::RowReader {
 public:
  PgRow(const PGresult* r, int row) : r_(r), row_(row) {}
  bool IsNull(int col) const override { return PQgetisnull(r_, row_, col) != 0; }
  std::string Text(int col) const override {
    return std::string(PQgetvalue(r_, row_, col), PQgetlength(r_, row_, col));
  }
  int64_t Int64(int col) const override {
    int64_t v = 0;
    return absl::SimpleAtoi(Text(col), &v) ? v : 0;
  }
  double Double(int col) const override {
    std::string t = Text(col);
    double v = 0;
    std::from_chars(t.data(), t.data() + t.size(), v);
    return v;
  }

 private:
  const PGresult* r_;
  int row_;
};

std::optional<std::string> ParamText(const schema::SqlValue& v) {
  if (const auto* t = std::get_if<std::string>(&v)) return *t;
  if (const auto* n = std::get_if<int64_t>(&v)) return absl::StrCat(*n);
  if (const auto* d = std::get_if<double>(&v)) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), *d);  // shortest round trip
    TG_CHECK(ec == std::errc()) << "to_chars of a double";
    return std::string(buf, end);
  }
  return std::nullopt;
}

bool ValidSchemaName(std::string_view s) {
  if (s.empty() || s.size() > 63 || absl::ascii_isdigit(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// libpq's messages end in newlines and may span lines: one line for ours.
std::string OneLine(std::string_view s) {
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  std::string out(s);
  absl::StrReplaceAll({{"\n", "; "}}, &out);
  return out;
}

absl::StatusCode CodeForSqlState(std::string_view state) {
  if (state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03")
    return absl::StatusCode::kUnavailable;  // connection problems, server shutting down
  if (state == "28000" || state == "28P01" || state == "42501")
    return absl::StatusCode::kPermissionDenied;
  if (state.starts_with("53")) return absl::StatusCode::kResourceExhausted;
  if (state.starts_with("40")) return absl::StatusCode::kAborted;  // serialization, deadlock
  if (state == "XX001" || state == "XX002") return absl::StatusCode::kDataLoss;
  if (state == "3D000") return absl::StatusCode::kNotFound;  // no such database
  return absl::StatusCode::kInternal;
}

// Discards server notices ("relation already exists, skipping"): they are not errors.
void IgnoreNotice(void*, const char*) {}

}  // namespace

absl::StatusOr<std::unique_ptr<PostgresTuningDb>> PostgresTuningDb::Open(
    const std::string& url, const PostgresTuningDbOptions& options) {
  // The parts that name the server in messages, read without connecting.
  char* parse_error = nullptr;
  PQconninfoOption* info = PQconninfoParse(url.c_str(), &parse_error);
  if (info == nullptr) {
    std::string why = parse_error != nullptr ? OneLine(parse_error) : "out of memory";
    PQfreemem(parse_error);
    return absl::InvalidArgumentError(
        absl::StrCat("tuning database: not a PostgreSQL connection URL (", why, ")"));
  }
  std::string user, host, port, dbname, password;
  for (PQconninfoOption* o = info; o->keyword != nullptr; ++o) {
    std::string_view k = o->keyword;
    std::string v = o->val != nullptr ? o->val : "";
    if (k == "user") user = v;
    if (k == "host") host = v;
    if (k == "hostaddr" && host.empty()) host = v;
    if (k == "port") port = v;
    if (k == "dbname") dbname = v;
    if (k == "password") password = v;
  }
  PQconninfoFree(info);
  std::string location =
      absl::StrCat("postgresql://", user, user.empty() ? "" : "@",
                   host.empty() ? "localhost" : host, port.empty() ? "" : ":", port, "/", dbname);
  if (!options.schema.empty()) absl::StrAppend(&location, " schema=", options.schema);
  std::unique_ptr<PostgresTuningDb> self(
      new PostgresTuningDb(std::move(location), std::move(password), options));
  if (!options.schema.empty() && !ValidSchemaName(options.schema))
    return self->Error(absl::StatusCode::kInvalidArgument, "opening",
                       "the schema name must match [a-z_][a-z0-9_]* (at most 63 characters)");
  absl::MutexLock lock(&self->mu_);
  RETURN_IF_ERROR(self->Connect(url));
  RETURN_IF_ERROR(self->Migrate());
  return self;
}

PostgresTuningDb::~PostgresTuningDb() {
  absl::MutexLock lock(&mu_);
  if (conn_ != nullptr) PQfinish(conn_);
}

absl::Status PostgresTuningDb::Error(absl::StatusCode code, std::string_view doing,
                                     std::string_view detail) const {
  std::string msg =
      absl::StrCat("tuning database ", location_, ": ", std::string(doing), ": ", OneLine(detail));
  if (!password_.empty()) absl::StrReplaceAll({{password_, "***"}}, &msg);
  return absl::Status(code, msg);
}

absl::Status PostgresTuningDb::ResultError(const pg_result* res, std::string_view doing) const {
  const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  std::string detail = res != nullptr ? PQresultErrorMessage(res) : "";
  if (detail.empty() && conn_ != nullptr) detail = PQerrorMessage(conn_);
  absl::StatusCode code = state != nullptr ? CodeForSqlState(state)
                          : conn_ == nullptr || PQstatus(conn_) == CONNECTION_BAD
                              ? absl::StatusCode::kUnavailable
                              : absl::StatusCode::kInternal;
  return Error(code, doing, detail);
}

absl::Status PostgresTuningDb::Connect(const std::string& url) {
  // connect_timeout before dbname: the URL's own settings (expanded from dbname) win.
  std::string timeout = absl::StrCat(options_.connect_timeout_s);
  const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {timeout.c_str(), options_.application_name.c_str(), url.c_str(), nullptr};
  conn_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (conn_ == nullptr)
    return Error(absl::StatusCode::kResourceExhausted, "connecting", "out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string why = PQerrorMessage(conn_);
    bool auth = why.find("authentication") != std::string::npos ||
                why.find("password") != std::string::npos;
    bool no_db = why.find("does not exist") != std::string::npos;
    return Error(auth    ? absl::StatusCode::kPermissionDenied
                 : no_db ? absl::StatusCode::kNotFound
                         : absl::StatusCode::kUnavailable,
                 "cannot connect", why);
  }
  PQsetNoticeProcessor(conn_, IgnoreNotice, nullptr);
  return UseSchema();
}

absl::Status PostgresTuningDb::UseSchema() {
  if (options_.schema.empty()) return absl::OkStatus();
  // Setting search_path to a schema that does not exist yet is allowed; Migrate creates it.
  return Exec("SELECT set_config('search_path', $1, false)", {options_.schema},
              "setting the search path")
      .status();
}

absl::Status PostgresTuningDb::EnsureConnected() {
  if (PQstatus(conn_) == CONNECTION_OK) return absl::OkStatus();
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK)
    return Error(absl::StatusCode::kUnavailable, "reconnecting", PQerrorMessage(conn_));
  return UseSchema();
}

// Runs `f` (one whole operation: a statement, or a transaction from BEGIN to COMMIT) on a
// live connection; when the server dropped the connection during it, reconnects and runs it
// once more. Every operation is safe to repeat: lookups read, Put and PutAll keep the better
// result, the journal ignores a repeated row, Delete and Gc find nothing left to drop.
template <typename F>
auto PostgresTuningDb::Retrying(F f) -> decltype(f()) {
  RETURN_IF_ERROR(EnsureConnected());
  auto r = f();
  if (r.ok() || PQstatus(conn_) == CONNECTION_OK) return r;
  RETURN_IF_ERROR(EnsureConnected());
  return f();
}

absl::StatusOr<PostgresTuningDb::Result> PostgresTuningDb::Exec(
    const std::string& sql, const std::vector<schema::SqlValue>& params, std::string_view doing) {
  std::vector<std::optional<std::string>> texts;
  texts.reserve(params.size());
  for (const schema::SqlValue& v : params) texts.push_back(ParamText(v));
  std::vector<const char*> values;
  for (const std::optional<std::string>& t : texts) values.push_back(t ? t->c_str() : nullptr);
  Result res(PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                          values.data(), nullptr, nullptr, /*resultFormat=text*/ 0));
  ExecStatusType st = res.get() != nullptr ? PQresultStatus(res.get()) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return ResultError(res.get(), doing);
  return res;
}

absl::StatusOr<int64_t> PostgresTuningDb::QueryInt(const std::string& sql,
                                                   const std::vector<schema::SqlValue>& params,
                                                   std::string_view doing) {
  ASSIGN_OR_RETURN(Result res, Exec(sql, params, doing));
  if (res.rows() != 1 || PQnfields(res.get()) != 1)
    return Error(absl::StatusCode::kInternal, doing, "expected one value");
  return PgRow(res.get(), 0).Int64(0);
}

absl::StatusOr<int64_t> PostgresTuningDb::Modify(const std::string& sql,
                                                 const std::vector<schema::SqlValue>& params,
                                                 std::string_view doing) {
  ASSIGN_OR_RETURN(Result res, Exec(sql, params, doing));
  int64_t n = 0;
  if (!absl::SimpleAtoi(PQcmdTuples(res.get()), &n))
    return Error(absl::StatusCode::kInternal, doing, "no row count");
  return n;
}

void PostgresTuningDb::Rollback() {
  if (conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK) PQclear(PQexec(conn_, "ROLLBACK"));
}

absl::Status PostgresTuningDb::Migrate() {
  RETURN_IF_ERROR(Exec("BEGIN", {}, "BEGIN").status());
  absl::Status s = [&]() -> absl::Status {
    // Concurrent first opens: everyone waits here until the first has migrated and committed.
    RETURN_IF_ERROR(Exec("SELECT pg_advisory_xact_lock(hashtext($1))",
                         {absl::StrCat("tinygrad-cc tuning schema ", options_.schema)},
                         "taking the migration lock")
                        .status());
    if (!options_.schema.empty())  // a checked identifier: the only name put into SQL text
      RETURN_IF_ERROR(Exec(absl::StrCat("CREATE SCHEMA IF NOT EXISTS ", options_.schema), {},
                           "creating the schema")
                          .status());
    RETURN_IF_ERROR(Exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", {},
                         "creating the version table")
                        .status());
    ASSIGN_OR_RETURN(Result v, Exec("SELECT COALESCE(MAX(version), 0) FROM schema_version", {},
                                    "reading the schema version"));
    int64_t version = PgRow(v.get(), 0).Int64(0);
    if (version > kSchemaVersion)
      return Error(
          absl::StatusCode::kFailedPrecondition, "opening",
          absl::StrCat("schema version ", version, ", newer than this build's ", kSchemaVersion,
                       ": use a newer tinygrad-cc or another database (it was left "
                       "untouched)"));
    for (int64_t from = version; from < kSchemaVersion; ++from)
      for (const std::string& sql : schema::Migrations()[from])
        if (absl::StatusOr<Result> r = Exec(sql, {}, "migrating"); !r.ok())
          return absl::Status(r.status().code(),
                              absl::StrCat(r.status().message(), " (migrating schema ", from,
                                           " -> ", from + 1, ")"));
    if (version < kSchemaVersion) {
      RETURN_IF_ERROR(Exec("DELETE FROM schema_version", {}, "migrating").status());
      RETURN_IF_ERROR(
          Exec("INSERT INTO schema_version VALUES ($1)", {int64_t{kSchemaVersion}}, "migrating")
              .status());
    }
    return Exec("COMMIT", {}, "COMMIT").status();
  }();
  if (!s.ok()) Rollback();
  return s;
}

absl::StatusOr<int> PostgresTuningDb::SchemaVersion() {
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<int> {
    ASSIGN_OR_RETURN(int64_t v, QueryInt("SELECT MAX(version) FROM schema_version", {},
                                         "reading the schema version"));
    return static_cast<int>(v);
  });
}

absl::StatusOr<std::optional<TuningRecord>> PostgresTuningDb::QueryRecord(
    const std::string& sql, const std::vector<schema::SqlValue>& params, std::string_view doing) {
  return Retrying([&]() -> absl::StatusOr<std::optional<TuningRecord>> {
    ASSIGN_OR_RETURN(Result res, Exec(sql, params, doing));
    if (res.rows() == 0) return std::nullopt;
    ASSIGN_OR_RETURN(TuningRecord r, schema::ReadTuningRow(PgRow(res.get(), 0)));
    return r;
  });
}

absl::StatusOr<std::optional<TuningRecord>> PostgresTuningDb::Lookup(const TuningKey& key) {
  absl::MutexLock lock(&mu_);
  return QueryRecord(schema::LookupSql(), schema::LookupParams(key), "lookup");
}

absl::StatusOr<std::optional<TuningRecord>> PostgresTuningDb::LookupBest(const TuningKey& key) {
  absl::MutexLock lock(&mu_);
  return QueryRecord(schema::LookupBestSql(), schema::LookupBestParams(key), "lookup of the best");
}

absl::StatusOr<std::optional<TuningRecord>> PostgresTuningDb::LookupBestForArch(const TuningKey& key,
                                                                               std::string_view gpu_arch) {
  if (gpu_arch.empty()) return absl::InvalidArgumentError("LookupBestForArch needs a GPU arch");
  absl::MutexLock lock(&mu_);
  return QueryRecord(schema::LookupBestForArchSql(), schema::LookupBestForArchParams(key, gpu_arch),
                     "lookup of the best for an arch");
}

absl::StatusOr<bool> PostgresTuningDb::PutLocked(const TuningRecord& record) {
  ASSIGN_OR_RETURN(int64_t n,
                   Modify(schema::UpsertSql(),
                          schema::UpsertParams(record, absl::ToUnixMillis(absl::Now())), "put"));
  return n > 0;
}

absl::StatusOr<bool> PostgresTuningDb::Put(const TuningRecord& record) {
  RETURN_IF_ERROR(schema::ValidateRecord(record));
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<bool> { return PutLocked(record); });
}

absl::StatusOr<int64_t> PostgresTuningDb::PutAll(const std::vector<TuningRecord>& records) {
  for (size_t i = 0; i < records.size(); ++i)
    if (absl::Status s = schema::ValidateRecord(records[i]); !s.ok())
      return absl::Status(s.code(), absl::StrCat("record ", i + 1, ": ", s.message()));
  // Rows locked in key order: two imports at once wait for each other instead of deadlocking
  // (stable: of equal times for one key, the first in the input still wins).
  std::vector<std::pair<std::string, const TuningRecord*>> order;
  for (const TuningRecord& r : records) order.emplace_back(r.key.Digest(), &r);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<int64_t> {
    RETURN_IF_ERROR(Exec("BEGIN", {}, "BEGIN").status());
    int64_t stored = 0;
    for (const auto& [digest, r] : order) {
      absl::StatusOr<bool> put = PutLocked(*r);
      if (!put.ok()) {
        Rollback();
        return put.status();
      }
      stored += *put;
    }
    if (absl::Status s = Exec("COMMIT", {}, "COMMIT").status(); !s.ok()) {
      Rollback();
      return s;
    }
    return stored;
  });
}

absl::StatusOr<bool> PostgresTuningDb::ReplaceUnusable(const TuningRecord& record,
                                                       const std::vector<Opt>& unusable_opts) {
  RETURN_IF_ERROR(schema::ValidateRecord(record));
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<bool> {
    RETURN_IF_ERROR(Exec("BEGIN", {}, "BEGIN").status());
    absl::StatusOr<bool> stored = [&]() -> absl::StatusOr<bool> {
      RETURN_IF_ERROR(
          Modify(schema::DropWithOptsSql(), {record.key.Digest(), OptsToText(unusable_opts)}, "replace").status());
      return PutLocked(record);
    }();
    if (stored.ok()) {
      if (absl::Status s = Exec("COMMIT", {}, "COMMIT").status(); !s.ok()) stored = s;
    }
    if (!stored.ok()) Rollback();
    return stored;
  });
}

absl::StatusOr<bool> PostgresTuningDb::Drop(std::string_view key_digest) {
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<bool> {
    ASSIGN_OR_RETURN(int64_t n, Modify(schema::DropSql(), {std::string(key_digest)}, "drop"));
    return n > 0;
  });
}

absl::StatusOr<std::vector<TuningRecord>> PostgresTuningDb::List() {
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<std::vector<TuningRecord>> {
    ASSIGN_OR_RETURN(Result res, Exec(schema::ListSql(), {}, "list"));
    std::vector<TuningRecord> out;
    for (int i = 0; i < res.rows(); ++i) {
      ASSIGN_OR_RETURN(TuningRecord r, schema::ReadTuningRow(PgRow(res.get(), i)));
      out.push_back(std::move(r));
    }
    return out;
  });
}

absl::StatusOr<int64_t> PostgresTuningDb::Count() {
  absl::MutexLock lock(&mu_);
  return Retrying(
      [&]() -> absl::StatusOr<int64_t> { return QueryInt(schema::CountSql(), {}, "count"); });
}

absl::StatusOr<bool> PostgresTuningDb::PutMeasurement(const MeasurementRecord& m) {
  RETURN_IF_ERROR(schema::ValidateMeasurement(m));
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<bool> {
    ASSIGN_OR_RETURN(
        int64_t n,
        Modify(schema::PutMeasurementSql(),
               schema::MeasurementParams(m, absl::ToUnixMillis(absl::Now())), "put measurement"));
    return n > 0;
  });
}

absl::StatusOr<std::vector<MeasurementRecord>> PostgresTuningDb::ListMeasurements(
    std::string_view search_key) {
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<std::vector<MeasurementRecord>> {
    ASSIGN_OR_RETURN(Result res, Exec(schema::ListMeasurementsSql(), {std::string(search_key)},
                                      "list measurements"));
    std::vector<MeasurementRecord> out;
    for (int i = 0; i < res.rows(); ++i) {
      ASSIGN_OR_RETURN(MeasurementRecord m, schema::ReadMeasurementRow(PgRow(res.get(), i)));
      out.push_back(std::move(m));
    }
    return out;
  });
}

absl::StatusOr<int64_t> PostgresTuningDb::DeleteMeasurements(std::string_view search_key) {
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<int64_t> {
    return Modify(schema::DeleteMeasurementsSql(), {std::string(search_key)},
                  "delete measurements");
  });
}

absl::StatusOr<int64_t> PostgresTuningDb::CountMeasurements() {
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<int64_t> {
    return QueryInt(schema::CountMeasurementsSql(), {}, "count measurements");
  });
}

absl::StatusOr<GcCounts> PostgresTuningDb::Gc(std::string_view codegen_version, int opt_version,
                                              bool dry_run) {
  std::vector<schema::SqlValue> versions = {std::string(codegen_version), int64_t{opt_version}};
  absl::MutexLock lock(&mu_);
  return Retrying([&]() -> absl::StatusOr<GcCounts> {
    RETURN_IF_ERROR(Exec("BEGIN", {}, "BEGIN").status());
    GcCounts c;
    absl::Status s = [&]() -> absl::Status {
      if (dry_run) {
        ASSIGN_OR_RETURN(c.journal_rows, QueryInt(schema::CountFinishedJournalSql(), {}, "gc"));
        ASSIGN_OR_RETURN(c.old_records, QueryInt(schema::CountOldSql(), versions, "gc"));
        return Exec("ROLLBACK", {}, "ROLLBACK").status();
      }
      ASSIGN_OR_RETURN(c.journal_rows, Modify(schema::DeleteFinishedJournalSql(), {}, "gc"));
      ASSIGN_OR_RETURN(c.old_records, Modify(schema::DeleteOldSql(), versions, "gc"));
      return Exec("COMMIT", {}, "COMMIT").status();
    }();
    if (!s.ok()) {
      Rollback();
      return s;
    }
    return c;
  });
}

}  // namespace tg::autotune
