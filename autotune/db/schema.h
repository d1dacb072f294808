// File: autotune/db/schema.h
// The tuning database's schema and SQL, shared by the SQLite and PostgreSQL backends: one
// list of migrations, one column order, one set of statements (placeholders $1..$n, which
// both engines accept), and the conversion of records to and from typed column values.
//
// The SQL is kept to what both engines run alike: TEXT, BIGINT, INTEGER, DOUBLE PRECISION,
// INSERT ... ON CONFLICT ... DO UPDATE ... WHERE / DO NOTHING, ALTER TABLE ... ADD COLUMN
// with a constant default.
#ifndef AUTOTUNE_DB_SCHEMA_H_
#define AUTOTUNE_DB_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"

namespace tg::autotune::schema {

// The schema this build writes. Databases with a lower version are migrated on open.
inline constexpr int kVersion = 4;

// Migration i takes a database from schema version i to i + 1 (Migrations().size() ==
// kVersion). Never edit a shipped step: add one.
const std::vector<std::vector<std::string>>& Migrations();

// One column value as a backend binds it: NULL, text, integer or double.
using SqlValue = std::variant<std::monostate, std::string, int64_t, double>;

// Reads one result row; backends implement it over their own result types.
class RowReader {
 public:
  virtual ~RowReader() = default;
  virtual bool IsNull(int col) const = 0;
  virtual std::string Text(int col) const = 0;
  virtual int64_t Int64(int col) const = 0;
  virtual double Double(int col) const = 0;
};

// ** tuning **
std::string LookupSql();      // every column WHERE key = $1
std::string LookupBestSql();  // the fastest of a kernel across search settings ($1..$7)
std::string LookupBestForArchSql();  // the fastest of a kernel on any GPU of an arch ($1..$6)
std::string ListSql();        // every column ORDER BY key
std::string UpsertSql();      // better result wins: the update runs only when strictly faster
std::string CountSql();
// Put's checks (finite non-negative times): InvalidArgument naming the bad value.
absl::Status ValidateRecord(const TuningRecord& r);
// The upsert's parameters; created_unix_ms 0 becomes `now_ms`.
std::vector<SqlValue> UpsertParams(const TuningRecord& r, int64_t now_ms);
std::string DropSql();  // WHERE key = $1
std::string DropWithOptsSql();  // WHERE key = $1 AND opts = $2 (OptsToText)
std::vector<SqlValue> LookupParams(const TuningKey& key);
std::vector<SqlValue> LookupBestParams(const TuningKey& key);
std::vector<SqlValue> LookupBestForArchParams(const TuningKey& key, std::string_view gpu_arch);
// A row of LookupSql/LookupBestSql/ListSql. A row this build cannot read is DataLoss, named
// by its key (also when its parts do not hash to its key).
absl::StatusOr<TuningRecord> ReadTuningRow(const RowReader& row);

// ** the measurement journal **
std::string PutMeasurementSql();      // ON CONFLICT (search_key, opts) DO NOTHING
std::string ListMeasurementsSql();    // WHERE search_key = $1, in recording order
std::string DeleteMeasurementsSql();  // WHERE search_key = $1
std::string CountMeasurementsSql();
absl::Status ValidateMeasurement(const MeasurementRecord& m);
std::vector<SqlValue> MeasurementParams(const MeasurementRecord& m, int64_t now_ms);
absl::StatusOr<MeasurementRecord> ReadMeasurementRow(const RowReader& row);

// ** gc **: $1 codegen_version, $2 opt_version. Journal rows go first, so a finished search
// of an old version loses its journal too.
std::string CountOldSql();
std::string DeleteOldSql();
std::string CountFinishedJournalSql();
std::string DeleteFinishedJournalSql();

// ** values **
// Time samples as a JSON array of shortest-round-trip doubles: "[0.00123,0.00125]".
std::string SamplesToText(std::span<const double> samples);
absl::StatusOr<std::vector<double>> SamplesFromText(std::string_view text);
std::string Hex64(uint64_t v);  // 16 lower-case hex digits
absl::StatusOr<uint64_t> ParseHex64(std::string_view hex);
// A finite value >= 0.
bool NonNegativeFinite(double v);

}  // namespace tg::autotune::schema

#endif  // AUTOTUNE_DB_SCHEMA_H_
