// File: autotune/db/sqlite_tuning_db_test.cc
// The SQLite tuning database: round trips, misses on every key part, better-wins, several
// processes writing one file at once, and clear errors for files that are not ours.
//
// The multi-process test re-executes this binary with --writer=... as the writer processes.
#include "autotune/db/sqlite_tuning_db.h"

#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "autotune/db/db_test_util.h"
#include "autotune/db/tuning_db.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"

extern char** environ;

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

TEST(SqliteTuningDbTest, RoundTripsARecord) {
  std::string path = TempPath("roundtrip.db");
  auto db = OpenOrDie(path);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->journal_mode(), "wal");
  EXPECT_EQ(db->SchemaVersion().value(), SqliteTuningDb::kSchemaVersion);
  EXPECT_EQ(db->location(), "sqlite:" + path);

  TuningRecord r = SampleRecord(1, 0.001);
  r.kernel_name = "r_\x1b[34m16\x1b[0m_é";  // colored names and non-ASCII survive
  ASSERT_TRUE(db->Put(r).value());
  TuningRecord no_baselines = SampleRecord(2, 0.5);
  no_baselines.noopt_time_s.reset();
  no_baselines.heuristic_time_s.reset();
  no_baselines.opts.clear();
  ASSERT_TRUE(db->Put(no_baselines).value());

  EXPECT_EQ(db->Lookup(r.key).value(), r);
  EXPECT_EQ(db->Lookup(no_baselines.key).value(), no_baselines);
  EXPECT_EQ(db->Lookup(SampleKey(3)).value(), std::nullopt);
  EXPECT_EQ(db->Count().value(), 2);

  // Kept on disk: a second connection (another process's view) reads the same.
  db.reset();
  auto again = OpenOrDie(path);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->Lookup(r.key).value(), r);
  std::vector<TuningRecord> all = again->List().value();
  ASSERT_EQ(all.size(), 2u);
}

TEST(SqliteTuningDbTest, RecordDefaultsNameTheBuild) {
  TuningRecord r;
  EXPECT_EQ(r.tinygrad_cc_version, TinygradCcBuild());
  EXPECT_TRUE(r.tinygrad_cc_version.starts_with("0.1.0 (tinygrad 35900290, "))
      << r.tinygrad_cc_version;
  EXPECT_EQ(r.key.codegen_version, "0.1.0");
  EXPECT_EQ(r.key.opt_version, kOptSemanticsVersion);
}

TEST(SqliteTuningDbTest, PutFillsCreatedTimeAndRejectsNonTimes) {
  auto db = OpenOrDie(TempPath("times.db"));
  ASSERT_NE(db, nullptr);
  TuningRecord r = SampleRecord(1, 0.001);
  r.created_unix_ms = 0;
  ASSERT_TRUE(db->Put(r).value());
  EXPECT_GT(db->Lookup(r.key).value()->created_unix_ms, 1700000000000);  // after 2023
  for (double bad : {-1.0, std::nan(""), 1.0 / 0.0}) {
    TuningRecord b = SampleRecord(2, bad);
    EXPECT_EQ(db->Put(b).status().code(), absl::StatusCode::kInvalidArgument) << bad;
    TuningRecord c = SampleRecord(3, 0.1);
    c.heuristic_time_s = bad;
    EXPECT_EQ(db->Put(c).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(db->Count().value(), 1);
}

TEST(SqliteTuningDbTest, BetterResultWins) {
  auto db = OpenOrDie(TempPath("better.db"));
  ASSERT_NE(db, nullptr);
  TuningRecord first = SampleRecord(7, 0.002);
  ASSERT_TRUE(db->Put(first).value());

  TuningRecord worse = SampleRecord(7, 0.003);
  worse.opts = {Opt{OptOps::LOCAL, 0, int64_t{16}}};
  EXPECT_FALSE(db->Put(worse).value());
  EXPECT_EQ(db->Lookup(first.key).value(), first);

  TuningRecord equal = SampleRecord(7, 0.002);
  equal.opts = {Opt{OptOps::LOCAL, 0, int64_t{8}}};
  EXPECT_FALSE(db->Put(equal).value()) << "a tie keeps what was there";
  EXPECT_EQ(db->Lookup(first.key).value(), first);

  TuningRecord better = SampleRecord(7, 0.001);
  better.opts = {Opt{OptOps::UPCAST, 1, int64_t{8}}};
  better.candidates = 200;
  EXPECT_TRUE(db->Put(better).value());
  EXPECT_EQ(db->Lookup(first.key).value(), better);
  EXPECT_EQ(db->Count().value(), 1);
}

// LookupBest: the fastest record of the kernel on this device, renderer, compiler and opt
// semantics, across search settings; other kernels, devices or opt versions never answer.
TEST(SqliteTuningDbTest, LookupBestSpansSearchSettingsOnly) {
  auto db = OpenOrDie(TempPath("best.db"));
  ASSERT_NE(db, nullptr);
  TuningRecord beam2 = SampleRecord(11, 0.004);
  beam2.key.settings.width = 2;
  TuningRecord beam4 = SampleRecord(11, 0.003);
  beam4.key.settings.width = 4;
  beam4.opts = {Opt{OptOps::UPCAST, 1, int64_t{8}}};
  TuningRecord other_kernel = SampleRecord(12, 0.001);
  TuningRecord other_device = SampleRecord(11, 0.0005);
  other_device.key.device = "0000000000000000";
  TuningRecord old_opts = SampleRecord(11, 0.0001);
  old_opts.key.opt_version = kOptSemanticsVersion - 1;
  for (const TuningRecord& r : {beam2, beam4, other_kernel, other_device, old_opts})
    ASSERT_TRUE(db->Put(r).value());

  TuningKey query = SampleKey(11);
  query.settings.width = 8;  // never searched with these settings
  EXPECT_EQ(db->Lookup(query).value(), std::nullopt);
  EXPECT_EQ(db->LookupBest(query).value(), beam4);
  EXPECT_EQ(db->LookupBest(SampleKey(13)).value(), std::nullopt);
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

// Every part of the key, flipped alone, misses the stored record.
TEST(SqliteTuningDbTest, EachKeyPartFlippedMisses) {
  auto db = OpenOrDie(TempPath("flips.db"));
  ASSERT_NE(db, nullptr);
  UOp a = UOp::Variable("a", 0, 10);
  UOp ast = UOp::Sink({a * 4 + UOp::Range(16, 0, AxisType::LOOP)});
  UOp other_ast = UOp::Sink({a * 4 + UOp::Range(32, 0, AxisType::LOOP)});
  DeviceClass dc{.device = "CPU",
                 .cpu_model = "AMD EPYC (family 26, model 2)",
                 .isa_flags = {"avx2", "avx512f", "fma"},
                 .cores = 2,
                 .compiler_id = "clang -O2 -march=native",
                 .renderer = "tg::ClangRenderer"};
  SearchSettings settings;
  TuningRecord r = SampleRecord(0, 0.001);
  r.key = TuningKey::Make(ast, dc, settings);
  ASSERT_TRUE(db->Put(r).value());
  ASSERT_EQ(db->Lookup(TuningKey::Make(ast, dc, settings)).value(), r);

  std::map<std::string, TuningKey> flipped;
  flipped["ast"] = TuningKey::Make(other_ast, dc, settings);
  auto device_flip = [&](const std::string& name, auto mutate) {
    DeviceClass d = dc;
    mutate(d);
    flipped[name] = TuningKey::Make(ast, d, settings);
  };
  device_flip("cpu model", [](DeviceClass& d) { d.cpu_model = "AMD EPYC (family 25, model 1)"; });
  device_flip("isa flags", [](DeviceClass& d) { d.isa_flags.push_back("avx512_vnni"); });
  device_flip("cores", [](DeviceClass& d) { d.cores = 1; });
  device_flip("gpu arch", [](DeviceClass& d) { d.gpu_arch = "sm_90"; });
  device_flip("renderer", [](DeviceClass& d) { d.renderer = "tg::LLVMRenderer"; });
  device_flip("compiler version",
              [](DeviceClass& d) { d.compiler_id = "clang-15 -O2 -march=native"; });
  auto key_flip = [&](const std::string& name, auto mutate) {
    TuningKey k = r.key;
    mutate(k);
    flipped[name] = k;
  };
  key_flip("codegen version", [](TuningKey& k) { k.codegen_version = "0.2.0"; });
  key_flip("opt version", [](TuningKey& k) { k.opt_version = kOptSemanticsVersion + 1; });
  key_flip("renderer alone", [](TuningKey& k) { k.renderer = "tg::LLVMRenderer"; });
  key_flip("compiler alone", [](TuningKey& k) { k.compiler = "clang-15"; });
  key_flip("device alone", [](TuningKey& k) { k.device = "0123456789abcdef"; });
  key_flip("width", [](TuningKey& k) { k.settings.width = 4; });
  key_flip("BEAM_UPCAST_MAX", [](TuningKey& k) { k.settings.upcast_max = 128; });
  key_flip("BEAM_LOCAL_MAX", [](TuningKey& k) { k.settings.local_max = 512; });
  key_flip("BEAM_UOPS_MAX", [](TuningKey& k) { k.settings.uops_max = 1000; });
  key_flip("BEAM_MIN_PROGRESS", [](TuningKey& k) { k.settings.min_progress_us = 1; });
  key_flip("BEAM_TIMEOUT_SEC", [](TuningKey& k) { k.settings.timeout_sec = 20; });
  key_flip("BEAM_PADTO", [](TuningKey& k) { k.settings.padto = true; });
  key_flip("NOLOCALS", [](TuningKey& k) { k.settings.nolocals = true; });
  key_flip("TC", [](TuningKey& k) { k.settings.tc = 0; });
  key_flip("TC_OPT", [](TuningKey& k) { k.settings.tc_opt = 1; });
  for (const auto& [name, key] : flipped)
    EXPECT_EQ(db->Lookup(key).value(), std::nullopt) << name << " flipped still hits";
  EXPECT_EQ(flipped.size(), 22u);
}

// Settings from the environment reach the key through Config (env is read only there).
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
  EXPECT_NE(db.status().message().find("schema version 99, newer than this build's 1"),
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
  absl::StatusOr<std::unique_ptr<TuningDb>> via_open = OpenTuningDb(path);
  ASSERT_FALSE(via_open.ok());
  EXPECT_NE(via_open.status().message().find("cannot create directory"), std::string::npos)
      << via_open.status();
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
  EXPECT_EQ(OpenTuningDb("postgresql://localhost/tg").status().code(),
            absl::StatusCode::kUnimplemented);
}

// ** several writers at once **

constexpr int kKeys = 100;
constexpr int kRounds = 20;  // each writer writes every key this often: 2000 writes per process

// Writer `proc`'s time for `key` in `round`: distinct per (proc, round), so exactly one write
// per key is the best, and the two processes take turns being faster.
double WriterTime(int proc, int key, int round) {
  return 1e-3 * (1 + ((key * 31 + round * 7 + proc * 13) % 97)) + 1e-9 * (proc * kRounds + round);
}

// Runs in a child process: writes kRounds passes over kKeys keys, plus keys only it writes.
int RunWriter(const std::string& path, int proc) {
  absl::StatusOr<std::unique_ptr<SqliteTuningDb>> db = SqliteTuningDb::Open(path);
  if (!db.ok()) {
    fprintf(stderr, "writer %d: %s\n", proc, std::string(db.status().message()).c_str());
    return 2;
  }
  for (int round = 0; round < kRounds; ++round) {
    for (int key = 0; key < kKeys; ++key) {
      TuningRecord r = SampleRecord(key, WriterTime(proc, key, round));
      r.opts = {Opt{OptOps::UPCAST, proc, int64_t{round}}};
      if (absl::Status s = (*db)->Put(r).status(); !s.ok()) {
        fprintf(stderr, "writer %d: %s\n", proc, std::string(s.message()).c_str());
        return 3;
      }
    }
    TuningRecord own = SampleRecord(1000 + proc * 100 + round, 0.5);
    if (!(*db)->Put(own).ok()) return 4;
  }
  return 0;
}

// Starts `writers` processes on `path` at once, waits for them, and checks every write:
// kKeys shared keys hold the best write each, whole, and every writer's own keys are there.
void RunWritersAndCheck(const std::string& path, int writers) {
  std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::vector<pid_t> pids;
  for (int proc = 0; proc < writers; ++proc) {
    std::string arg = absl::StrCat("--writer=", path, ",", proc);
    char* argv[] = {self.data(), arg.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, environ), 0);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "writer died";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "writer failed (see its stderr above)";
  }
  auto db = OpenOrDie(path);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Count().value(), kKeys + writers * kRounds) << "a write was lost";
  for (int key = 0; key < kKeys; ++key) {
    double best = 1e9;
    int best_proc = -1, best_round = -1;
    for (int proc = 0; proc < writers; ++proc)
      for (int round = 0; round < kRounds; ++round)
        if (WriterTime(proc, key, round) < best) {
          best = WriterTime(proc, key, round);
          best_proc = proc;
          best_round = round;
        }
    std::optional<TuningRecord> got = db->Lookup(SampleKey(key)).value();
    ASSERT_TRUE(got.has_value()) << key;
    EXPECT_EQ(got->time_s, best) << key;
    EXPECT_EQ(got->opts, (std::vector<Opt>{Opt{OptOps::UPCAST, best_proc, int64_t{best_round}}}))
        << "the record is the best write's, whole: key " << key;
  }
}

// Both processes also create the file at once (schema migration and the WAL switch race).
TEST(SqliteTuningDbTest, TwoProcessesWritingAtOnceLoseNothingAndTheBestWins) {
  RunWritersAndCheck(TempPath("concurrent.db"), 2);
}

TEST(SqliteTuningDbTest, FourProcessesWritingAnExistingFile) {
  std::string path = TempPath("concurrent4.db");
  { ASSERT_NE(OpenOrDie(path), nullptr); }
  RunWritersAndCheck(path, 4);
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

  std::thread release([other] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
  });
  absl::StatusOr<bool> waited = patient->Put(SampleRecord(1, 0.5));
  release.join();
  sqlite3_close(other);
  ASSERT_TRUE(waited.ok()) << waited.status();
  EXPECT_TRUE(*waited);
  EXPECT_EQ((*impatient)->Lookup(SampleKey(1)).value()->time_s, 0.5);
}

// Threads of one process sharing one connection.
TEST(SqliteTuningDbTest, ThreadsShareOneDatabase) {
  auto db = OpenOrDie(TempPath("threads.db"));
  ASSERT_NE(db, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&db, t] {
      for (int i = 0; i < 50; ++i) {
        EXPECT_TRUE(db->Put(SampleRecord(i, 0.01 + 0.001 * ((i + t) % 4))).ok());
        EXPECT_TRUE(db->Lookup(SampleKey(i)).ok());
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(db->Count().value(), 50);
  for (int i = 0; i < 50; ++i) EXPECT_DOUBLE_EQ(db->Lookup(SampleKey(i)).value()->time_s, 0.01);
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--writer=")) {
      std::string spec(a.substr(9));
      size_t comma = spec.rfind(',');
      int proc = 0;
      if (comma == std::string::npos || !absl::SimpleAtoi(spec.substr(comma + 1), &proc)) return 64;
      return tg::autotune::RunWriter(spec.substr(0, comma), proc);
    }
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
