// File: autotune/db/schema.cc
// The shared schema: migrations, statements, record <-> column values.
#include "autotune/db/schema.h"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "autotune/db/opts_text.h"
#include "tinygrad/base/check.h"

namespace tg::autotune::schema {
namespace {

// The tuning record's columns in bind/read order.
constexpr const char* kTuningColumns[] = {
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
    // schema 2: provenance
    "worker",
    "host",
    "samples_s",
    // schema 3: the codegen options of the key
    "codegen_options",
    // schema 4: the GPU arch of the class it was tuned on
    "gpu_arch",
};
constexpr int kNumTuningColumns = sizeof(kTuningColumns) / sizeof(kTuningColumns[0]);

constexpr const char* kMeasurementColumns[] = {
    "search_key", "opts",         "outcome", "error", "samples_s",
    "min_s",      "program_hash", "worker",  "host",  "created_unix_ms",
};
constexpr int kNumMeasurementColumns = sizeof(kMeasurementColumns) / sizeof(kMeasurementColumns[0]);

std::string Placeholders(int n) {
  std::vector<std::string> p;
  for (int i = 1; i <= n; ++i) p.push_back(absl::StrCat("$", i));
  return absl::StrJoin(p, ", ");
}

std::string SelectTuning() {
  return absl::StrCat("SELECT ", absl::StrJoin(kTuningColumns, ", "), " FROM tuning");
}

}  // namespace

const std::vector<std::vector<std::string>>& Migrations() {
  static const auto* kMigrations = new std::vector<std::vector<std::string>>{
      // 0 -> 1: the tuning table. CREATE TABLE (not IF NOT EXISTS): a foreign table of that name
      // in a database without our version table is an error, not something to write into.
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
      // 1 -> 2: provenance on every row (older rows read as unknown), and the measurement
      // journal. Its primary key makes a repeated (search, opts) one row.
      {"ALTER TABLE tuning ADD COLUMN worker TEXT NOT NULL DEFAULT ''",
       "ALTER TABLE tuning ADD COLUMN host TEXT NOT NULL DEFAULT ''",
       "ALTER TABLE tuning ADD COLUMN samples_s TEXT NOT NULL DEFAULT '[]'",
       "CREATE TABLE measurements ("
       " search_key TEXT NOT NULL,"
       " opts TEXT NOT NULL,"
       " outcome TEXT NOT NULL,"
       " error TEXT NOT NULL,"
       " samples_s TEXT NOT NULL,"
       " min_s DOUBLE PRECISION,"
       " program_hash TEXT NOT NULL,"
       " worker TEXT NOT NULL,"
       " host TEXT NOT NULL,"
       " created_unix_ms BIGINT NOT NULL,"
       " PRIMARY KEY (search_key, opts))"},
      // 2 -> 3: the codegen options became part of the key; older rows have none ('').
      {"ALTER TABLE tuning ADD COLUMN codegen_options TEXT NOT NULL DEFAULT ''"},
      // 3 -> 4: the GPU arch a record was tuned on, so that a compile-only machine finds the
      // records of every GPU of its target's arch; older rows have none ('') and match no arch.
      {"ALTER TABLE tuning ADD COLUMN gpu_arch TEXT NOT NULL DEFAULT ''"},
  };
  TG_CHECK(static_cast<int>(kMigrations->size()) == kVersion)
      << "add a migration step with the version bump";
  return *kMigrations;
}

std::string LookupSql() { return absl::StrCat(SelectTuning(), " WHERE key = $1"); }

std::string LookupBestSql() {
  return absl::StrCat(SelectTuning(),
                      " WHERE ast_hash = $1 AND device_digest = $2 AND renderer = $3 AND "
                      "compiler = $4 AND codegen_version = $5 AND opt_version = $6 AND codegen_options = $7 "
                      "ORDER BY time_s, key LIMIT 1");
}

std::string LookupBestForArchSql() {
  return absl::StrCat(SelectTuning(),
                      " WHERE ast_hash = $1 AND renderer = $2 AND gpu_arch = $3 AND codegen_version = $4 AND "
                      "opt_version = $5 AND codegen_options = $6 ORDER BY time_s, key LIMIT 1");
}

std::string DropSql() { return "DELETE FROM tuning WHERE key = $1"; }
std::string DropWithOptsSql() { return "DELETE FROM tuning WHERE key = $1 AND opts = $2"; }

std::string ListSql() { return absl::StrCat(SelectTuning(), " ORDER BY key"); }

std::string CountSql() { return "SELECT COUNT(*) FROM tuning"; }

std::string UpsertSql() {
  std::vector<std::string> sets;
  for (int i = 1; i < kNumTuningColumns; ++i)
    sets.push_back(absl::StrCat(kTuningColumns[i], " = excluded.", kTuningColumns[i]));
  return absl::StrCat("INSERT INTO tuning (", absl::StrJoin(kTuningColumns, ", "), ") VALUES (",
                      Placeholders(kNumTuningColumns), ") ON CONFLICT (key) DO UPDATE SET ",
                      absl::StrJoin(sets, ", "), " WHERE excluded.time_s < tuning.time_s");
}

bool NonNegativeFinite(double v) { return std::isfinite(v) && v >= 0; }

absl::Status ValidateRecord(const TuningRecord& r) {
  if (!NonNegativeFinite(r.time_s))
    return absl::InvalidArgumentError(
        absl::StrCat("tuning record: time_s ", r.time_s, " is not a finite time"));
  for (const std::optional<double>& t : {r.noopt_time_s, r.heuristic_time_s})
    if (t && !NonNegativeFinite(*t))
      return absl::InvalidArgumentError(
          absl::StrCat("tuning record: baseline time ", *t, " is not a finite time"));
  for (double t : r.samples_s)
    if (!NonNegativeFinite(t))
      return absl::InvalidArgumentError(
          absl::StrCat("tuning record: sample ", t, " is not a finite time"));
  return absl::OkStatus();
}

namespace {
SqlValue Opt(const std::optional<double>& v) { return v ? SqlValue(*v) : SqlValue(); }
}  // namespace

std::vector<SqlValue> UpsertParams(const TuningRecord& r, int64_t now_ms) {
  const TuningKey& k = r.key;
  std::vector<SqlValue> p = {
      k.Digest(),
      k.AstHex(),
      k.device,
      k.renderer,
      k.compiler,
      k.codegen_version,
      int64_t{k.opt_version},
      k.settings.ToString(),
      r.kernel_name,
      OptsToText(r.opts),
      r.time_s,
      Opt(r.noopt_time_s),
      Opt(r.heuristic_time_s),
      r.candidates,
      r.device_description,
      r.tinygrad_cc_version,
      r.created_unix_ms != 0 ? r.created_unix_ms : now_ms,
      r.search_wall_s,
      r.worker,
      r.host,
      SamplesToText(r.samples_s),
      k.codegen_options ? k.codegen_options->KeyText() : "",
      r.gpu_arch,
  };
  TG_CHECK(static_cast<int>(p.size()) == kNumTuningColumns) << "out of step with the columns";
  return p;
}

std::vector<SqlValue> LookupParams(const TuningKey& key) { return {key.Digest()}; }

std::vector<SqlValue> LookupBestParams(const TuningKey& key) {
  return {key.AstHex(),          key.device,
          key.renderer,          key.compiler,
          key.codegen_version,   int64_t{key.opt_version},
          key.codegen_options ? key.codegen_options->KeyText() : ""};
}

std::vector<SqlValue> LookupBestForArchParams(const TuningKey& key, std::string_view gpu_arch) {
  return {key.AstHex(),         key.renderer,
          std::string(gpu_arch), key.codegen_version,
          int64_t{key.opt_version}, key.codegen_options ? key.codegen_options->KeyText() : ""};
}

absl::StatusOr<TuningRecord> ReadTuningRow(const RowReader& s) {
  TuningRecord r;
  int c = 0;  // the next column, in kTuningColumns order
  std::string key = s.Text(c++);
  auto bad = [&](const absl::Status& st) {
    return absl::DataLossError(absl::StrCat("tuning row ", key, ": ", st.message()));
  };
  absl::StatusOr<uint64_t> ast = ParseHex64(s.Text(c++));
  if (!ast.ok()) return bad(ast.status());
  r.key.ast_hash = *ast;
  r.key.device = s.Text(c++);
  r.key.renderer = s.Text(c++);
  r.key.compiler = s.Text(c++);
  r.key.codegen_version = s.Text(c++);
  r.key.opt_version = static_cast<int>(s.Int64(c++));
  absl::StatusOr<SearchSettings> settings = SearchSettings::Parse(s.Text(c++));
  if (!settings.ok()) return bad(settings.status());
  r.key.settings = *settings;
  r.kernel_name = s.Text(c++);
  absl::StatusOr<std::vector<tg::Opt>> opts = OptsFromText(s.Text(c++));
  if (!opts.ok()) return bad(opts.status());
  r.opts = std::move(*opts);
  r.time_s = s.Double(c++);
  if (!s.IsNull(c)) r.noopt_time_s = s.Double(c);
  ++c;
  if (!s.IsNull(c)) r.heuristic_time_s = s.Double(c);
  ++c;
  r.candidates = s.Int64(c++);
  r.device_description = s.Text(c++);
  r.tinygrad_cc_version = s.Text(c++);
  r.created_unix_ms = s.Int64(c++);
  r.search_wall_s = s.Double(c++);
  r.worker = s.Text(c++);
  r.host = s.Text(c++);
  absl::StatusOr<std::vector<double>> samples = SamplesFromText(s.Text(c++));
  if (!samples.ok()) return bad(samples.status());
  r.samples_s = std::move(*samples);
  if (std::string codegen = s.Text(c++); !codegen.empty()) {
    absl::StatusOr<CodegenOptions> o = CodegenOptions::FromKeyText(codegen);
    if (!o.ok()) return bad(o.status());
    r.key.codegen_options = *o;
  }
  r.gpu_arch = s.Text(c++);
  TG_CHECK(c == kNumTuningColumns) << "ReadTuningRow out of step with the columns";
  // The digest is the primary key; a row whose parts hash elsewhere was not written by us.
  if (r.key.Digest() != key)
    return absl::DataLossError(absl::StrCat("tuning row ", key, ": key does not match its parts"));
  return r;
}

std::string PutMeasurementSql() {
  return absl::StrCat("INSERT INTO measurements (", absl::StrJoin(kMeasurementColumns, ", "),
                      ") VALUES (", Placeholders(kNumMeasurementColumns),
                      ") ON CONFLICT (search_key, opts) DO NOTHING");
}

std::string ListMeasurementsSql() {
  return absl::StrCat("SELECT ", absl::StrJoin(kMeasurementColumns, ", "),
                      " FROM measurements WHERE search_key = $1 ORDER BY created_unix_ms, opts");
}

std::string DeleteMeasurementsSql() { return "DELETE FROM measurements WHERE search_key = $1"; }
std::string CountMeasurementsSql() { return "SELECT COUNT(*) FROM measurements"; }

absl::Status ValidateMeasurement(const MeasurementRecord& m) {
  if (m.search_key.empty()) return absl::InvalidArgumentError("measurement: empty search key");
  if (std::isnan(m.min_s) || m.min_s < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("measurement: min_s ", m.min_s, " is not a time"));
  for (double t : m.samples_s)
    if (!NonNegativeFinite(t))
      return absl::InvalidArgumentError(
          absl::StrCat("measurement: sample ", t, " is not a finite time"));
  return absl::OkStatus();
}

std::vector<SqlValue> MeasurementParams(const MeasurementRecord& m, int64_t now_ms) {
  std::vector<SqlValue> p = {
      m.search_key,
      OptsToText(m.opts),
      m.outcome,
      m.error,
      SamplesToText(m.samples_s),
      std::isfinite(m.min_s) ? SqlValue(m.min_s) : SqlValue(),  // NULL: no time
      Hex64(m.program_hash),
      m.worker,
      m.host,
      m.created_unix_ms != 0 ? m.created_unix_ms : now_ms,
  };
  TG_CHECK(static_cast<int>(p.size()) == kNumMeasurementColumns) << "out of step";
  return p;
}

absl::StatusOr<MeasurementRecord> ReadMeasurementRow(const RowReader& s) {
  MeasurementRecord m;
  int c = 0;
  m.search_key = s.Text(c++);
  std::string opts_text = s.Text(c++);
  auto bad = [&](const absl::Status& st) {
    return absl::DataLossError(
        absl::StrCat("measurement row ", m.search_key, " ", opts_text, ": ", st.message()));
  };
  absl::StatusOr<std::vector<tg::Opt>> opts = OptsFromText(opts_text);
  if (!opts.ok()) return bad(opts.status());
  m.opts = std::move(*opts);
  m.outcome = s.Text(c++);
  m.error = s.Text(c++);
  absl::StatusOr<std::vector<double>> samples = SamplesFromText(s.Text(c++));
  if (!samples.ok()) return bad(samples.status());
  m.samples_s = std::move(*samples);
  if (!s.IsNull(c)) m.min_s = s.Double(c);
  ++c;
  absl::StatusOr<uint64_t> hash = ParseHex64(s.Text(c++));
  if (!hash.ok()) return bad(hash.status());
  m.program_hash = *hash;
  m.worker = s.Text(c++);
  m.host = s.Text(c++);
  m.created_unix_ms = s.Int64(c++);
  TG_CHECK(c == kNumMeasurementColumns) << "ReadMeasurementRow out of step";
  return m;
}

namespace {
constexpr const char* kOldWhere = " WHERE codegen_version <> $1 OR opt_version <> $2";
constexpr const char* kFinishedWhere = " WHERE search_key IN (SELECT key FROM tuning)";
}  // namespace

std::string CountOldSql() { return absl::StrCat("SELECT COUNT(*) FROM tuning", kOldWhere); }
std::string DeleteOldSql() { return absl::StrCat("DELETE FROM tuning", kOldWhere); }
std::string CountFinishedJournalSql() {
  return absl::StrCat("SELECT COUNT(*) FROM measurements", kFinishedWhere);
}
std::string DeleteFinishedJournalSql() {
  return absl::StrCat("DELETE FROM measurements", kFinishedWhere);
}

std::string SamplesToText(std::span<const double> samples) {
  std::string out = "[";
  for (size_t i = 0; i < samples.size(); ++i) {
    if (i > 0) out += ',';
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), samples[i]);
    TG_CHECK(ec == std::errc()) << "to_chars of a double";
    out.append(buf, end);
  }
  return out + "]";
}

namespace {
std::string_view StripLeft(std::string_view t) {
  while (!t.empty() && absl::ascii_isspace(static_cast<unsigned char>(t.front())))
    t.remove_prefix(1);
  return t;
}
std::string_view Strip(std::string_view t) {
  t = StripLeft(t);
  while (!t.empty() && absl::ascii_isspace(static_cast<unsigned char>(t.back())))
    t.remove_suffix(1);
  return t;
}
}  // namespace

absl::StatusOr<std::vector<double>> SamplesFromText(std::string_view text) {
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat("bad samples '", std::string(text), "'"));
  };
  std::string_view t = Strip(text);
  if (t.size() < 2 || t.front() != '[' || t.back() != ']') return bad();
  t = Strip(t.substr(1, t.size() - 2));
  std::vector<double> out;
  while (!t.empty()) {
    double v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc()) return bad();
    out.push_back(v);
    t = StripLeft(t.substr(end - t.data()));
    if (t.empty()) break;
    if (t.front() != ',') return bad();
    t = StripLeft(t.substr(1));
    if (t.empty()) return bad();
  }
  return out;
}

std::string Hex64(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = kDigits[v & 0xf];
  return s;
}

absl::StatusOr<uint64_t> ParseHex64(std::string_view hex) {
  auto bad = [&] {
    return absl::DataLossError(absl::StrCat("bad 64-bit hex '", std::string(hex), "'"));
  };
  if (hex.size() != 16) return bad();
  uint64_t v = 0;
  for (char c : hex) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return bad();
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return v;
}

}  // namespace tg::autotune::schema
