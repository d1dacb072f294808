// File: autotune/db/sqlite_tuning_db_test.cc
// What only the SQLite tuning database does: its file (default location, cache level, busy
// timeout, schema-1 migration) and clear errors for files that are not ours. The semantics
// both backends share (round trips, misses on every key part, better-wins, the journal,
// threads, processes writing at once) are in tuning_db_backends_test.
#include "autotune/db/sqlite_tuning_db.h"

#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/db/db_test_util.h"
#include "autotune/db/opts_text.h"
#include "autotune/db/tuning_db.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"

namespace tg::autotune {
namespace {

using testing::SampleKey;
using testing::SampleRecord;

std::string TempPath(const std::string& name) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/sqlite_tuning_db_test_", getpid());
  std::filesystem::create_directories(dir);
  std::string path = dir + "/" + name;
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  return path;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::unique_ptr<SqliteTuningDb> OpenOrDie(const std::string& path) {
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

TEST(SqliteTuningDbTest, RecordDefaultsNameTheBuild) {
  TuningRecord r;
  EXPECT_EQ(r.tinygrad_cc_version, TinygradCcBuild());
  EXPECT_TRUE(r.tinygrad_cc_version.starts_with("0.1.0 (tinygrad 35900290, "))
      << r.tinygrad_cc_version;
  EXPECT_EQ(r.key.codegen_version, "0.1.0");
  EXPECT_EQ(r.key.opt_version, kOptSemanticsVersion);
}

TEST(SqliteTuningDbTest, LookupBestIgnoresOnlyTheSearchSettings) {
  auto db = OpenOrDie(TempPath("best.db"));
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->LookupBest(SampleKey(5)).value(), std::nullopt);
  TuningRecord w2 = SampleRecord(5, 0.003);
  TuningRecord w4 = SampleRecord(5, 0.002);
  w4.key.settings.width = 4;
  TuningRecord w8 = SampleRecord(5, 0.004);
  w8.key.settings.width = 8;
  TuningRecord other_kernel = SampleRecord(6, 0.0001);
  TuningRecord other_compiler = SampleRecord(5, 0.0001);
  other_compiler.key.compiler = "gcc";
  for (const TuningRecord* r : {&w2, &w4, &w8, &other_kernel, &other_compiler})
    ASSERT_TRUE(db->Put(*r).value());
  TuningKey asked = SampleKey(5);
  asked.settings.width = 3;  // no search with these settings was stored
  EXPECT_EQ(db->Lookup(asked).value(), std::nullopt);
  EXPECT_EQ(db->LookupBest(asked).value(), w4);
  TuningKey other_codegen = asked;
  other_codegen.codegen_version = "0.2.0";
  EXPECT_EQ(db->LookupBest(other_codegen).value(), std::nullopt);
}

TEST(SqliteTuningDbTest, ConfigKnobsChangeTheKey) {
  Config c;
  c.beam = 2;
  std::string base = SearchSettings::FromConfig(c).ToString();
  Config d = c;
  d.beam_upcast_max = 64;
  EXPECT_NE(SearchSettings::FromConfig(d).ToString(), base);
  d = c;
  d.ignore_beam_cache = true;  // not a key part: the caller's choice to skip Lookup
  d.beam_debug = 2;            // reporting only
  EXPECT_EQ(SearchSettings::FromConfig(d).ToString(), base);
}

TEST(SqliteTuningDbTest, GarbageFileIsAClearErrorAndLeftUntouched) {
  std::string path = TempPath("garbage.db");
  std::string garbage;
  for (int i = 0; i < 8192; ++i) garbage += static_cast<char>((i * 7919) % 251);
  std::ofstream(path, std::ios::binary) << garbage;
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kDataLoss) << db.status();
  EXPECT_NE(db.status().message().find(path), std::string::npos) << db.status();
  EXPECT_NE(db.status().message().find("left untouched"), std::string::npos) << db.status();
  EXPECT_EQ(ReadBytes(path), garbage) << "nothing lost";
  // A text file (someone's notes at that path) likewise.
  std::ofstream(path, std::ios::trunc) << "these are not tuning results\n";
  EXPECT_EQ(SqliteTuningDb::Open(path).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ReadBytes(path), "these are not tuning results\n");
}

TEST(SqliteTuningDbTest, DamagedDatabaseFailsWithStatusNotACrash) {
  std::string path = TempPath("damaged.db");
  {
    auto db = OpenOrDie(path);
    ASSERT_NE(db, nullptr);
    for (int i = 0; i < 300; ++i) ASSERT_TRUE(db->Put(SampleRecord(i, 0.001 * (i + 1))).ok());
  }  // the last connection checkpoints the WAL into the file
  std::string bytes = ReadBytes(path);
  ASSERT_GT(bytes.size(), 8192u);
  // Scribble over the pages after the first (the schema page stays valid).
  for (size_t i = 4096; i < bytes.size(); i += 3) bytes[i] = static_cast<char>(0xA5);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  if (!db.ok()) {
    EXPECT_EQ(db.status().code(), absl::StatusCode::kDataLoss) << db.status();
    return;
  }
  absl::StatusOr<std::vector<TuningRecord>> all = (*db)->List();
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().code(), absl::StatusCode::kDataLoss) << all.status();
}

TEST(SqliteTuningDbTest, NewerSchemaIsRefused) {
  std::string path = TempPath("newer.db");
  { ASSERT_NE(OpenOrDie(path), nullptr); }
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(raw, "UPDATE schema_version SET version = 99", nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(raw);
  }
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(db.status().message().find("schema version 99, newer than this build's 4"),
            std::string::npos)
      << db.status();
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "SELECT version FROM schema_version", -1, &stmt, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), 99) << "the refused file is left as it was";
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
}

TEST(SqliteTuningDbTest, ForeignDatabaseIsNotWrittenInto) {
  std::string path = TempPath("foreign.db");
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE tuning (x INTEGER); INSERT INTO tuning VALUES (5)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("migrating schema 0 -> 1"), std::string::npos)
      << db.status();
  // The migration rolled back: no version table was left behind, the foreign row is intact.
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_NE(sqlite3_prepare_v2(raw, "SELECT version FROM schema_version", -1, &stmt, nullptr),
            SQLITE_OK);
  sqlite3_finalize(stmt);
  ASSERT_EQ(sqlite3_prepare_v2(raw, "SELECT x FROM tuning", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), 5);
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
}

TEST(SqliteTuningDbTest, UnwritableLocationIsAClearError) {
  std::string file = TempPath("a_file");
  std::ofstream(file) << "x";
  // A directory that cannot exist (its parent is a file): fails even when running as root.
  std::string path = file + "/sub/tuning.db";
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kUnavailable) << db.status();
  EXPECT_NE(db.status().message().find(path), std::string::npos) << db.status();
  absl::StatusOr<std::unique_ptr<TuningDb>> via_open = OpenTuningDb(path, DbCreate::kFileAndDirectories);
  ASSERT_FALSE(via_open.ok());
  EXPECT_NE(via_open.status().message().find("cannot create directory"), std::string::npos)
      << via_open.status();
}

// Only what the caller allows is made: nothing for reading, the file for storing, directories
// only for the cache directory's own file.
TEST(SqliteTuningDbTest, OpeningMakesOnlyWhatTheCallerAllows) {
  const std::string base = TempPath("made");  // TempPath makes its parent, not `base`
  const std::string dir = base + "/sub";
  const std::string path = dir + "/tuning.db";
  for (const std::string& location : {path, "sqlite:" + path}) {
    absl::StatusOr<std::unique_ptr<TuningDb>> read = OpenTuningDb(location, DbCreate::kNothing);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.status().code(), absl::StatusCode::kNotFound) << read.status();
    EXPECT_EQ(read.status().message(), "tuning database " + path + " does not exist");
    absl::StatusOr<std::unique_ptr<TuningDb>> store = OpenTuningDb(location, DbCreate::kFile);
    ASSERT_FALSE(store.ok());
    EXPECT_EQ(store.status().code(), absl::StatusCode::kFailedPrecondition) << store.status();
    EXPECT_NE(store.status().message().find("its directory " + dir + " does not exist"), std::string::npos)
        << store.status();
    EXPECT_FALSE(std::filesystem::exists(base)) << location;
  }
  // The directory exists, the file not: reading still makes nothing, storing makes the file.
  std::filesystem::create_directories(dir);
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> bare = SqliteTuningDb::Open(path, {.create_if_missing = false});
  ASSERT_FALSE(bare.ok());
  EXPECT_EQ(bare.status().code(), absl::StatusCode::kNotFound) << bare.status();
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "no file, no -wal, no -shm";
  absl::StatusOr<std::unique_ptr<TuningDb>> store = OpenTuningDb(path, DbCreate::kFile);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->Put(SampleRecord(1, 0.5)).value());
  absl::StatusOr<std::unique_ptr<TuningDb>> read = OpenTuningDb(path, DbCreate::kNothing);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ((*read)->Count().value(), 1);
}

TEST(SqliteTuningDbTest, DefaultLocationAndCacheLevel) {
  Config c;
  c.cache_dir = TempPath("cache") + "/tinygrad-cc";  // not created yet
  EXPECT_EQ(DefaultTuningDbPath(c), c.cache_dir + "/tuning.db");
  c.cachelevel = 0;
  absl::StatusOr<std::unique_ptr<TuningDb>> off = OpenDefaultTuningDb(c);
  ASSERT_TRUE(off.ok()) << off.status();
  EXPECT_EQ(*off, nullptr) << "CACHELEVEL=0: no database";
  EXPECT_FALSE(std::filesystem::exists(c.cache_dir));
  c.cachelevel = 2;
  absl::StatusOr<std::unique_ptr<TuningDb>> on = OpenDefaultTuningDb(c);
  ASSERT_TRUE(on.ok()) << on.status();
  ASSERT_NE(*on, nullptr);
  EXPECT_EQ((*on)->location(), "sqlite:" + c.cache_dir + "/tuning.db");
  EXPECT_TRUE(std::filesystem::exists(c.cache_dir + "/tuning.db"));
  // The same file through an explicit location.
  ASSERT_TRUE((*on)->Put(SampleRecord(1, 0.5)).value());
  absl::StatusOr<std::unique_ptr<TuningDb>> explicit_db =
      OpenTuningDb("sqlite:" + c.cache_dir + "/tuning.db");
  ASSERT_TRUE(explicit_db.ok()) << explicit_db.status();
  EXPECT_EQ((*explicit_db)->Count().value(), 1);
}

// A file written by schema 1 (issue 4's build, before provenance and the journal) opens: its
// rows read with empty provenance, new rows and journal rows are written, the version is 2.
TEST(SqliteTuningDbTest, MigratesASchemaOneFile) {
  std::string path = TempPath("v1.db");
  TuningRecord old = SampleRecord(5, 0.25);
  old.worker.clear();
  old.host.clear();
  old.samples_s.clear();
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    // Schema 1 exactly as issue 4's build created it.
    std::string v1 =
        "CREATE TABLE schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version VALUES (1);"
        "CREATE TABLE tuning ( key TEXT PRIMARY KEY, ast_hash TEXT NOT NULL, device_digest TEXT "
        "NOT NULL, renderer TEXT NOT NULL, compiler TEXT NOT NULL, codegen_version TEXT NOT NULL, "
        "opt_version INTEGER NOT NULL, search_settings TEXT NOT NULL, kernel_name TEXT NOT NULL, "
        "opts TEXT NOT NULL, time_s DOUBLE PRECISION NOT NULL, noopt_time_s DOUBLE PRECISION, "
        "heuristic_time_s DOUBLE PRECISION, candidates BIGINT NOT NULL, device_description TEXT "
        "NOT NULL, tinygrad_cc_version TEXT NOT NULL, created_unix_ms BIGINT NOT NULL, "
        "search_wall_s DOUBLE PRECISION NOT NULL);"
        "CREATE INDEX tuning_by_ast ON tuning (ast_hash);";
    ASSERT_EQ(sqlite3_exec(raw, v1.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_stmt* ins = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(raw,
                                 "INSERT INTO tuning VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                 "?, ?, ?, ?, ?, ?)",
                                 -1, &ins, nullptr),
              SQLITE_OK);
    std::vector<std::string> text = {old.key.Digest(), old.key.AstHex(), old.key.device,
                                     old.key.renderer, old.key.compiler, old.key.codegen_version};
    int i = 1;
    for (const std::string& t : text) sqlite3_bind_text(ins, i++, t.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(ins, i++, old.key.opt_version);
    std::string settings = old.key.settings.ToString(), opts = OptsToText(old.opts);
    sqlite3_bind_text(ins, i++, settings.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, i++, old.kernel_name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, i++, opts.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(ins, i++, old.time_s);
    sqlite3_bind_double(ins, i++, *old.noopt_time_s);
    sqlite3_bind_double(ins, i++, *old.heuristic_time_s);
    sqlite3_bind_int64(ins, i++, old.candidates);
    sqlite3_bind_text(ins, i++, old.device_description.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, i++, old.tinygrad_cc_version.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(ins, i++, old.created_unix_ms);
    sqlite3_bind_double(ins, i++, old.search_wall_s);
    ASSERT_EQ(sqlite3_step(ins), SQLITE_DONE);
    sqlite3_finalize(ins);
    sqlite3_close(raw);
  }
  auto db = OpenOrDie(path);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->SchemaVersion().value(), 4);
  EXPECT_EQ(db->Lookup(old.key).value(), old);
  TuningRecord fresh = SampleRecord(6, 0.5);
  EXPECT_TRUE(db->Put(fresh).value());
  EXPECT_EQ(db->Lookup(fresh.key).value(), fresh);
  MeasurementRecord m{.search_key = fresh.key.Digest(), .outcome = "ok", .min_s = 0.5};
  EXPECT_TRUE(db->PutMeasurement(m).value());
  EXPECT_EQ(db->ListMeasurements(fresh.key.Digest()).value().size(), 1u);
  db.reset();
  auto again = OpenOrDie(path);  // opening a current file changes nothing
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->Count().value(), 2);
}

// A writer that finds the file locked waits up to the busy timeout, then fails clearly.
TEST(SqliteTuningDbTest, LockedFileWaitsForTheBusyTimeout) {
  std::string path = TempPath("busy.db");
  auto patient = OpenOrDie(path);
  ASSERT_NE(patient, nullptr);
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> impatient =
      SqliteTuningDb::Open(path, {.busy_timeout_ms = 50});
  ASSERT_TRUE(impatient.ok()) << impatient.status();
  sqlite3* other = nullptr;  // another process's connection, holding the write lock
  ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);

  absl::StatusOr<bool> failed = (*impatient)->Put(SampleRecord(1, 0.5));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable) << failed.status();
  EXPECT_NE(failed.status().message().find("busy timeout"), std::string::npos) << failed.status();
  EXPECT_TRUE((*impatient)->Lookup(SampleKey(1)).ok()) << "WAL: readers are not blocked";

  // The 300 ms give the patient writer time to start waiting (a slow machine may not, and the
  // test still holds); its Put cannot end before the commit, whatever the machine's speed.
  std::atomic<bool> committed{false};
  std::thread release([other, &committed] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    committed = true;  // just before: the writer can only get the lock after this
    sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
  });
  absl::StatusOr<bool> waited = patient->Put(SampleRecord(1, 0.5));
  const bool after_commit = committed.load();
  release.join();
  sqlite3_close(other);
  ASSERT_TRUE(waited.ok()) << waited.status();
  EXPECT_TRUE(*waited);
  EXPECT_TRUE(after_commit) << "the write went through while another connection held the lock";
  EXPECT_EQ((*impatient)->Lookup(SampleKey(1)).value()->time_s, 0.5);
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
