// File: autotune/db/tuning_db_backends_test.cc
// The TuningDb semantics, run against both backends (parameterized): round trips with
// provenance, better-wins, LookupBest, the measurement journal, PutAll's all-or-nothing, gc,
// several processes writing at once, and a journal writer killed with SIGKILL. Then
// PostgreSQL-only tests: connection errors, reconnecting, migrations (from a schema 1
// database, refused newer schema, foreign table).
//
// PostgreSQL tests need TG_TEST_POSTGRES_URL (tools/test starts a server and sets it); without
// it they are skipped with a visible message. Each test uses its own schema.
// The multi-process tests re-execute this binary with --writer_* / --journal_* flags.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "autotune/db/db_test_util.h"
#include "autotune/db/postgres_tuning_db.h"
#include "autotune/db/sqlite_tuning_db.h"
#include "autotune/db/tuning_db.h"
#include "gtest/gtest.h"
#include "postgresql/libpq-fe.h"
#include "tinygrad/base/status_macros.h"

extern char** environ;

namespace tg::autotune {
namespace {

using testing::SampleKey;
using testing::SampleRecord;
using testing::TestPostgresUrl;

// This test's own name for its tables: a PostgreSQL schema or a SQLite file.
std::string TestSchemaName() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  // A random tag per process, not the pid: every test process may be pid 12 (bazel's PID
  // namespace), and runs at once share the server (--runs_per_test, CI jobs side by side).
  static const uint32_t tag = std::random_device{}();
  std::string name =
      absl::StrCat("t_", std::string(t->name()).substr(0, 36), "_", absl::Hex(tag, absl::kZeroPad8));
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? std::tolower(c) : '_';
  return name;  // room for suffixes within PostgreSQL's 63 characters
}

// Runs one SQL statement on a separate connection (test setup and inspection): the first
// column of its first row ("" when it returns none), or nullopt on an error (printed).
std::optional<std::string> PgRun(const std::string& sql) {
  PGconn* c = PQconnectdb(TestPostgresUrl().c_str());
  std::optional<std::string> out;
  if (PQstatus(c) == CONNECTION_OK) {
    PQsetNoticeProcessor(
        c, [](void*, const char*) {}, nullptr);
    PGresult* r = PQexec(c, sql.c_str());
    if (PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK)
      out = PQntuples(r) > 0 && PQnfields(r) > 0 ? PQgetvalue(r, 0, 0) : "";
    else
      fprintf(stderr, "PgRun: %s", PQresultErrorMessage(r));
    PQclear(r);
  }
  PQfinish(c);
  return out;
}

bool PgExec(const std::string& sql) { return PgRun(sql).has_value(); }

// A query's number (count(*)); -1 on an error.
int64_t PgNumber(const std::string& sql) {
  std::optional<std::string> v = PgRun(sql);
  int64_t n = -1;
  return v.has_value() && absl::SimpleAtoi(*v, &n) ? n : -1;
}

// `application_name` names a PostgreSQL connection in pg_stat_activity (a test waits for it).
absl::StatusOr<std::unique_ptr<TuningDb>> OpenBackend(const std::string& backend,
                                                      const std::string& where,
                                                      const std::string& application_name = "tinygrad-cc") {
  if (backend == "sqlite") {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteTuningDb> db, SqliteTuningDb::Open(where));
    return std::unique_ptr<TuningDb>(std::move(db));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<PostgresTuningDb> db,
                   PostgresTuningDb::Open(TestPostgresUrl(), {.schema = where, .application_name = application_name}));
  return std::unique_ptr<TuningDb>(std::move(db));
}

class TuningDbBackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      if (TestPostgresUrl().empty()) GTEST_SKIP() << testing::kNoPostgresMessage;
      where_ = TestSchemaName();
    } else {
      std::string dir = absl::StrCat(::testing::TempDir(), "/tuning_db_backends_test");
      std::filesystem::create_directories(dir);
      where_ = absl::StrCat(dir, "/", TestSchemaName(), ".db");
      for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(where_ + suffix);
    }
    db_ = Open();
    ASSERT_NE(db_, nullptr);
  }
  void TearDown() override {
    db_.reset();
    if (GetParam() == "postgresql" && !where_.empty())
      PgExec(absl::StrCat("DROP SCHEMA IF EXISTS ", where_, " CASCADE"));
  }
  std::unique_ptr<TuningDb> Open() {
    absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenBackend(GetParam(), where_);
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? std::move(*db) : nullptr;
  }

  std::string where_;
  std::unique_ptr<TuningDb> db_;
};

INSTANTIATE_TEST_SUITE_P(Backends, TuningDbBackendTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

TEST_P(TuningDbBackendTest, RoundTripsARecordWithProvenance) {
  TuningRecord r = SampleRecord(1, 0.001);
  r.kernel_name = "r_\x1b[34m16\x1b[0m_é";  // colored names and non-ASCII survive
  r.samples_s = {0.0010000000000000002, 0.001, 1e-300, 123456.789};  // exact doubles
  ASSERT_TRUE(db_->Put(r).value());
  TuningRecord bare = SampleRecord(2, 0.5);
  bare.noopt_time_s.reset();
  bare.heuristic_time_s.reset();
  bare.opts.clear();
  bare.worker.clear();
  bare.host.clear();
  bare.samples_s.clear();
  ASSERT_TRUE(db_->Put(bare).value());

  EXPECT_EQ(db_->Lookup(r.key).value(), r);
  EXPECT_EQ(db_->Lookup(bare.key).value(), bare);
  EXPECT_EQ(db_->Lookup(SampleKey(3)).value(), std::nullopt);
  EXPECT_EQ(db_->Count().value(), 2);
  db_.reset();
  db_ = Open();  // another connection reads the same
  ASSERT_NE(db_, nullptr);
  EXPECT_EQ(db_->Lookup(r.key).value(), r);
  std::vector<TuningRecord> all = db_->List().value();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[0].key.Digest() < all[1].key.Digest()) << "in key order";
}

TEST_P(TuningDbBackendTest, PutFillsCreatedTimeAndRejectsNonTimes) {
  TuningRecord r = SampleRecord(1, 0.001);
  r.created_unix_ms = 0;
  ASSERT_TRUE(db_->Put(r).value());
  EXPECT_GT(db_->Lookup(r.key).value()->created_unix_ms, 1700000000000);  // after 2023
  for (double bad : {-1.0, std::nan(""), 1.0 / 0.0}) {
    EXPECT_EQ(db_->Put(SampleRecord(2, bad)).status().code(), absl::StatusCode::kInvalidArgument);
    TuningRecord c = SampleRecord(3, 0.1);
    c.heuristic_time_s = bad;
    EXPECT_EQ(db_->Put(c).status().code(), absl::StatusCode::kInvalidArgument) << bad;
    TuningRecord d = SampleRecord(4, 0.1);
    d.samples_s.push_back(bad);
    EXPECT_EQ(db_->Put(d).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(db_->Count().value(), 1);
}

TEST_P(TuningDbBackendTest, BetterResultWins) {
  TuningRecord first = SampleRecord(7, 0.002);
  ASSERT_TRUE(db_->Put(first).value());
  TuningRecord worse = SampleRecord(7, 0.003);
  worse.opts = {Opt{OptOps::LOCAL, 0, int64_t{16}}};
  EXPECT_FALSE(db_->Put(worse).value());
  EXPECT_EQ(db_->Lookup(first.key).value(), first);
  TuningRecord equal = SampleRecord(7, 0.002);
  equal.opts = {Opt{OptOps::LOCAL, 0, int64_t{8}}};
  equal.worker = "someone else";
  EXPECT_FALSE(db_->Put(equal).value()) << "a tie keeps what was there";
  EXPECT_EQ(db_->Lookup(first.key).value(), first);
  TuningRecord better = SampleRecord(7, 0.001);
  better.opts = {Opt{OptOps::UPCAST, 1, int64_t{8}}};
  better.worker = "worker-9";
  better.host = "node2";
  EXPECT_TRUE(db_->Put(better).value());
  EXPECT_EQ(db_->Lookup(first.key).value(), better) << "the whole record, provenance too";
  EXPECT_EQ(db_->Count().value(), 1);
}

TEST_P(TuningDbBackendTest, DropRemovesOneRecordAndItsKeyCanBeStoredAgain) {
  TuningRecord fast = SampleRecord(8, 1e-9);
  TuningRecord other = SampleRecord(9, 0.002);
  ASSERT_TRUE(db_->Put(fast).value());
  ASSERT_TRUE(db_->Put(other).value());
  EXPECT_TRUE(db_->Drop(fast.key.Digest()).value());
  EXPECT_FALSE(db_->Drop(fast.key.Digest()).value()) << "nothing left to drop";
  EXPECT_FALSE(db_->Drop("not a key").value());
  EXPECT_EQ(db_->Lookup(fast.key).value(), std::nullopt);
  EXPECT_EQ(db_->Lookup(other.key).value(), other) << "other records stay";
  TuningRecord slower = SampleRecord(8, 0.005);
  EXPECT_TRUE(db_->Put(slower).value()) << "the dropped record no longer wins";
  EXPECT_EQ(db_->Lookup(fast.key).value(), slower);
}

TEST_P(TuningDbBackendTest, ReplaceUnusableReplacesOnlyTheRecordWithThoseOpts) {
  TuningRecord bad = SampleRecord(10, 1e-9);
  bad.opts = {Opt{OptOps::UPCAST, 9, int64_t{4}}};
  ASSERT_TRUE(db_->Put(bad).value());
  TuningRecord searched = SampleRecord(10, 0.004);
  EXPECT_FALSE(db_->Put(searched).value()) << "Put alone keeps the faster row";
  EXPECT_TRUE(db_->ReplaceUnusable(searched, bad.opts).value());
  EXPECT_EQ(db_->Lookup(searched.key).value(), searched);
  // Stored since with other opts: Put's rule.
  TuningRecord slower = SampleRecord(10, 0.005);
  EXPECT_FALSE(db_->ReplaceUnusable(slower, bad.opts).value());
  EXPECT_EQ(db_->Lookup(searched.key).value(), searched);
  TuningRecord faster = SampleRecord(10, 0.003);
  EXPECT_TRUE(db_->ReplaceUnusable(faster, bad.opts).value());
  EXPECT_EQ(db_->Lookup(searched.key).value(), faster);
  // A new key is stored; a bad time stores nothing.
  EXPECT_TRUE(db_->ReplaceUnusable(SampleRecord(11, 0.1), bad.opts).value());
  EXPECT_EQ(db_->ReplaceUnusable(SampleRecord(12, -1), bad.opts).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(db_->Count().value(), 2);
}

TEST_P(TuningDbBackendTest, LookupBestSpansSearchSettingsOnly) {
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
  TuningRecord other_compiler = SampleRecord(11, 0.0001);
  other_compiler.key.compiler = "gcc";
  for (const TuningRecord& r : {beam2, beam4, other_kernel, other_device, old_opts, other_compiler})
    ASSERT_TRUE(db_->Put(r).value());
  TuningKey query = SampleKey(11);
  query.settings.width = 8;  // never searched with these settings
  EXPECT_EQ(db_->Lookup(query).value(), std::nullopt);
  EXPECT_EQ(db_->LookupBest(query).value(), beam4);
  EXPECT_EQ(db_->LookupBest(SampleKey(13)).value(), std::nullopt);
  query.codegen_version = "0.2.0";
  EXPECT_EQ(db_->LookupBest(query).value(), std::nullopt);
}

// A compile-only machine's key names no GPU: it finds the fastest record of any GPU of the
// arch, for the same kernel, renderer, codegen version and options, and opt semantics.
TEST_P(TuningDbBackendTest, LookupBestForArchSpansTheGpusOfAnArch) {
  auto gpu_record = [](uint64_t ast, double time_s, std::string device, std::string arch) {
    TuningRecord r = SampleRecord(ast, time_s);
    r.key.device = std::move(device);
    r.key.renderer = "tg::CudaRenderer";
    r.key.compiler = "nvrtc 13.0 cubin --gpu-architecture=" + arch + " --minimal";
    r.gpu_arch = std::move(arch);
    r.device_description = "CUDA | NVIDIA H100 80GB HBM3 | " + r.gpu_arch + " | CUDA 13.0 (580.65.06), NVRTC 13.0";
    return r;
  };
  TuningRecord h100 = gpu_record(21, 0.002, "h100h100h100h100", "sm_90");
  TuningRecord h200 = gpu_record(21, 0.001, "h200h200h200h200", "sm_90");
  h200.key.compiler = "nvrtc 13.1 cubin --gpu-architecture=sm_90 --minimal";  // another NVRTC
  TuningRecord ada = gpu_record(21, 0.0005, "l40sl40sl40sl40s", "sm_89");
  TuningRecord other_kernel = gpu_record(22, 0.0001, "h100h100h100h100", "sm_90");
  TuningRecord ptx = gpu_record(21, 0.0001, "h100h100h100h100", "sm_90");
  ptx.key.renderer = "tg::PtxRenderer/PTX";
  TuningRecord old_codegen = gpu_record(21, 0.0001, "h100h100h100h100", "sm_90");
  old_codegen.key.codegen_version = "0.0.1";
  TuningRecord no_arch = gpu_record(21, 0.0001, "h100h100h100h100", "");  // from before schema 4
  for (const TuningRecord& r : {h100, h200, ada, other_kernel, ptx, old_codegen, no_arch})
    ASSERT_TRUE(db_->Put(r).value());
  // what `tg compile --device CUDA --arch sm_90` asks with: its own class, its own compiler
  TuningKey query = h100.key;
  query.device = "c0mp11e0n1ysm90";
  query.compiler = "nvrtc 12.8 cubin --gpu-architecture=sm_90 --minimal";
  query.settings.width = 8;
  EXPECT_EQ(db_->LookupBest(query).value(), std::nullopt) << "no record of the compile-only class";
  EXPECT_EQ(db_->LookupBestForArch(query, "sm_90").value(), h200) << "the fastest sm_90 record";
  EXPECT_EQ(db_->LookupBestForArch(query, "sm_89").value(), ada);
  EXPECT_EQ(db_->LookupBestForArch(query, "sm_80").value(), std::nullopt);
  query.codegen_options = CodegenOptions{.noopt = true};
  EXPECT_EQ(db_->LookupBestForArch(query, "sm_90").value(), std::nullopt) << "never across codegen options";
  EXPECT_EQ(db_->LookupBestForArch(h100.key, "").status().code(), absl::StatusCode::kInvalidArgument);
}

// Every part of the key, flipped alone, misses the stored record.
TEST_P(TuningDbBackendTest, EachKeyPartFlippedMisses) {
  TuningDb* db = db_.get();
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
  r.key = TuningKey::Make(ast, dc, settings, CodegenOptions{});
  ASSERT_TRUE(db->Put(r).value());
  ASSERT_EQ(db->Lookup(TuningKey::Make(ast, dc, settings, CodegenOptions{})).value(), r);

  std::map<std::string, TuningKey> flipped;
  flipped["ast"] = TuningKey::Make(other_ast, dc, settings, CodegenOptions{});
  auto device_flip = [&](const std::string& name, auto mutate) {
    DeviceClass d = dc;
    mutate(d);
    flipped[name] = TuningKey::Make(ast, d, settings, CodegenOptions{});
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
  key_flip("DEVECTORIZE", [](TuningKey& k) { k.codegen_options->devectorize = 0; });
  key_flip("TRANSCENDENTAL", [](TuningKey& k) { k.codegen_options->transcendental = 2; });
  key_flip("DISABLE_FAST_IDIV", [](TuningKey& k) { k.codegen_options->disable_fast_idiv = true; });
  key_flip("NOOPT", [](TuningKey& k) { k.codegen_options->noopt = true; });
  for (const auto& [name, key] : flipped)
    EXPECT_EQ(db->Lookup(key).value(), std::nullopt) << name << " flipped still hits";
  EXPECT_EQ(flipped.size(), 26u);
  // LookupBest ignores the search settings but never the codegen options.
  TuningKey other_settings = r.key;
  other_settings.settings.width = 8;
  EXPECT_EQ(db->LookupBest(other_settings).value(), r);
  TuningKey other_lowering = r.key;
  other_lowering.codegen_options->devectorize = 0;
  EXPECT_EQ(db->LookupBest(other_lowering).value(), std::nullopt);
}

MeasurementRecord SampleMeasurement(const std::string& search, int64_t amount, double t) {
  MeasurementRecord m;
  m.search_key = search;
  m.opts = {Opt{OptOps::UPCAST, 0, amount}, Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}}};
  m.outcome = "ok";
  m.samples_s = {t * 1.5, t, t * 1.01};
  m.min_s = t;
  m.program_hash = 0xfedcba9876543210ull + static_cast<uint64_t>(amount);
  m.worker = "w1";
  m.host = "node1";
  m.created_unix_ms = 1795000000000 + amount;
  return m;
}

TEST_P(TuningDbBackendTest, JournalIsIdempotentAndPerSearch) {
  std::string search = SampleKey(1).Digest(), other = SampleKey(2).Digest();
  MeasurementRecord a = SampleMeasurement(search, 4, 0.002);
  MeasurementRecord b = SampleMeasurement(search, 2, 0.003);
  MeasurementRecord failed = SampleMeasurement(search, 8, 0);
  failed.outcome = "compile_error";
  failed.error = "error: expected ';'\n  int x\n       ^";
  failed.samples_s.clear();
  failed.min_s = std::numeric_limits<double>::infinity();
  failed.program_hash = 0;
  EXPECT_TRUE(db_->PutMeasurement(a).value());
  EXPECT_TRUE(db_->PutMeasurement(b).value());
  EXPECT_TRUE(db_->PutMeasurement(failed).value());
  EXPECT_TRUE(db_->PutMeasurement(SampleMeasurement(other, 4, 0.001)).value());
  // The same (search, opts) again, even with other times or from another worker: one row,
  // the first.
  MeasurementRecord again = a;
  again.min_s = 0.0001;
  again.samples_s = {0.0001};
  again.worker = "w2";
  EXPECT_FALSE(db_->PutMeasurement(again).value());
  EXPECT_EQ(db_->CountMeasurements().value(), 4);
  // In recording order (created time).
  EXPECT_EQ(db_->ListMeasurements(search).value(), (std::vector<MeasurementRecord>{b, a, failed}));
  EXPECT_EQ(db_->ListMeasurements("nothing").value().size(), 0u);

  MeasurementRecord now = SampleMeasurement(search, 16, 0.004);
  now.created_unix_ms = 0;
  EXPECT_TRUE(db_->PutMeasurement(now).value());
  EXPECT_GT(db_->ListMeasurements(search).value().back().created_unix_ms, 1700000000000);

  EXPECT_EQ(db_->DeleteMeasurements(search).value(), 4);
  EXPECT_EQ(db_->ListMeasurements(search).value().size(), 0u);
  EXPECT_EQ(db_->CountMeasurements().value(), 1);

  MeasurementRecord bad = a;
  bad.min_s = std::nan("");
  EXPECT_EQ(db_->PutMeasurement(bad).status().code(), absl::StatusCode::kInvalidArgument);
  bad = a;
  bad.search_key.clear();
  EXPECT_EQ(db_->PutMeasurement(bad).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_P(TuningDbBackendTest, PutAllIsAllOrNothing) {
  ASSERT_TRUE(db_->Put(SampleRecord(1, 0.002)).value());
  std::vector<TuningRecord> batch = {SampleRecord(1, 0.001), SampleRecord(1, 0.0015),
                                     SampleRecord(2, 0.003), SampleRecord(3, 0.5),
                                     SampleRecord(2, 0.004)};
  EXPECT_EQ(db_->PutAll(batch).value(), 3) << "key 1 improved once, keys 2 and 3 new";
  EXPECT_EQ(db_->Lookup(SampleKey(1)).value()->time_s, 0.001);
  EXPECT_EQ(db_->Lookup(SampleKey(2)).value()->time_s, 0.003);
  std::vector<TuningRecord> with_bad = {SampleRecord(4, 0.1), SampleRecord(5, -1)};
  absl::StatusOr<int64_t> failed = db_->PutAll(with_bad);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(failed.status().message().find("record 2"), std::string::npos) << failed.status();
  EXPECT_EQ(db_->Lookup(SampleKey(4)).value(), std::nullopt) << "nothing half-imported";
  EXPECT_EQ(db_->Count().value(), 3);
}

TEST_P(TuningDbBackendTest, GcDropsOldVersionsAndFinishedJournals) {
  TuningRecord current = SampleRecord(1, 0.001);
  TuningRecord old_codegen = SampleRecord(2, 0.001);
  old_codegen.key.codegen_version = "0.0.9";
  TuningRecord old_opts = SampleRecord(3, 0.001);
  old_opts.key.opt_version = kOptSemanticsVersion - 1;
  for (const TuningRecord& r : {current, old_codegen, old_opts}) ASSERT_TRUE(db_->Put(r).value());
  // Journals: one of a finished search (its result is stored), one of a running search.
  ASSERT_TRUE(db_->PutMeasurement(SampleMeasurement(current.key.Digest(), 2, 0.001)).value());
  ASSERT_TRUE(db_->PutMeasurement(SampleMeasurement(old_codegen.key.Digest(), 2, 0.001)).value());
  ASSERT_TRUE(db_->PutMeasurement(SampleMeasurement(SampleKey(9).Digest(), 2, 0.001)).value());
  ASSERT_TRUE(db_->PutMeasurement(SampleMeasurement(SampleKey(9).Digest(), 4, 0.001)).value());

  GcCounts dry = db_->Gc(current.key.codegen_version, kOptSemanticsVersion, true).value();
  EXPECT_EQ(dry.old_records, 2);
  EXPECT_EQ(dry.journal_rows, 2);
  EXPECT_EQ(db_->Count().value(), 3) << "a dry run changes nothing";
  EXPECT_EQ(db_->CountMeasurements().value(), 4);
  GcCounts done = db_->Gc(current.key.codegen_version, kOptSemanticsVersion, false).value();
  EXPECT_EQ(done.old_records, 2);
  EXPECT_EQ(done.journal_rows, 2);
  EXPECT_EQ(db_->List().value(), std::vector<TuningRecord>{current});
  EXPECT_EQ(db_->ListMeasurements(SampleKey(9).Digest()).value().size(), 2u)
      << "a running search keeps its journal";
  GcCounts again = db_->Gc(current.key.codegen_version, kOptSemanticsVersion, false).value();
  EXPECT_EQ(again.old_records + again.journal_rows, 0);
}

TEST_P(TuningDbBackendTest, ThreadsShareOneDatabase) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([this, t] {
      for (int i = 0; i < 30; ++i) {
        EXPECT_TRUE(db_->Put(SampleRecord(i, 0.01 + 0.001 * ((i + t) % 4))).ok());
        EXPECT_TRUE(db_->Lookup(SampleKey(i)).ok());
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(db_->Count().value(), 30);
  for (int i = 0; i < 30; ++i) EXPECT_DOUBLE_EQ(db_->Lookup(SampleKey(i)).value()->time_s, 0.01);
}

// ** several processes writing at once **

constexpr int kKeys = 60;
constexpr int kRounds = 10;

// Distinct per (proc, round), so exactly one write per key is the best; processes take turns.
double WriterTime(int proc, int key, int round) {
  return 1e-3 * (1 + ((key * 31 + round * 7 + proc * 13) % 97)) + 1e-9 * (proc * kRounds + round);
}

// Runs in a child process: opens the database (racing the others when it is new), writes
// kRounds passes over kKeys keys interleaved with journal rows, plus keys only it writes.
int RunWriter(const std::string& backend, const std::string& where, int proc) {
  absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenBackend(backend, where);
  if (!db.ok()) {
    fprintf(stderr, "writer %d: %s\n", proc, std::string(db.status().message()).c_str());
    return 2;
  }
  for (int round = 0; round < kRounds; ++round) {
    for (int key = 0; key < kKeys; ++key) {
      TuningRecord r = SampleRecord(key, WriterTime(proc, key, round));
      r.opts = {Opt{OptOps::UPCAST, proc, int64_t{round}}};
      r.worker = absl::StrCat("writer ", proc);
      if (absl::Status s = (*db)->Put(r).status(); !s.ok()) {
        fprintf(stderr, "writer %d: %s\n", proc, std::string(s.message()).c_str());
        return 3;
      }
      // Every writer journals the same candidates: one row each survives.
      if (!(*db)
               ->PutMeasurement(SampleMeasurement("shared-search", key * kRounds + round, 0.1))
               .ok())
        return 4;
    }
    if (!(*db)->Put(SampleRecord(1000 + proc * 100 + round, 0.5)).ok()) return 5;
  }
  return 0;
}

void RunWritersAndCheck(const std::string& backend, const std::string& where, int writers) {
  std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::vector<pid_t> pids;
  for (int proc = 0; proc < writers; ++proc) {
    std::vector<std::string> args = {self, "--writer_backend=" + backend, "--writer_where=" + where,
                                     absl::StrCat("--writer_proc=", proc)};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ), 0);
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "writer died";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "writer failed (see its stderr above)";
  }
  absl::StatusOr<std::unique_ptr<TuningDb>> opened = OpenBackend(backend, where);
  ASSERT_TRUE(opened.ok()) << opened.status();
  TuningDb& db = **opened;
  EXPECT_EQ(db.Count().value(), kKeys + writers * kRounds) << "a write was lost";
  EXPECT_EQ(db.CountMeasurements().value(), kKeys * kRounds) << "journal rows lost or doubled";
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
    std::optional<TuningRecord> got = db.Lookup(SampleKey(key)).value();
    ASSERT_TRUE(got.has_value()) << key;
    EXPECT_EQ(got->time_s, best) << key;
    EXPECT_EQ(got->opts, (std::vector<Opt>{Opt{OptOps::UPCAST, best_proc, int64_t{best_round}}}))
        << "the record is the best write's, whole: key " << key;
    EXPECT_EQ(got->worker, absl::StrCat("writer ", best_proc));
  }
}

// The writers also create the database at once (schema migration race).
TEST_P(TuningDbBackendTest, FourProcessesCreatingAndWritingLoseNothingAndTheBestWins) {
  db_.reset();
  if (GetParam() == "postgresql") {
    where_ += "_fresh";  // a schema nobody created yet
  } else {
    where_ += ".fresh.db";
  }
  RunWritersAndCheck(GetParam(), where_, 4);
}

// Writers joining a database that exists (and that this process keeps open).
TEST_P(TuningDbBackendTest, TwoProcessesWritingAnExistingDatabase) {
  RunWritersAndCheck(GetParam(), where_, 2);
}

// ** a journal writer killed with SIGKILL **

std::string JournalWriterName(const std::string& where) { return where + "_journal"; }

// Runs in a child process: journals candidates 0, 1, 2, ... of one search and prints each
// number once PutMeasurement has returned, until it is killed.
int RunJournalWriter(const std::string& backend, const std::string& where) {
  absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenBackend(backend, where, JournalWriterName(where));
  if (!db.ok()) return 2;
  for (int64_t i = 0;; ++i) {
    if (!(*db)->PutMeasurement(SampleMeasurement("killed-search", i, 0.001)).ok()) return 3;
    std::printf("%lld\n", static_cast<long long>(i));
    std::fflush(stdout);
  }
}

// Every measurement the killed coordinator was told is recorded is there after the kill, and
// a restarted one that journals the same candidates again adds none of them twice.
TEST_P(TuningDbBackendTest, JournalSurvivesSigkillAndARestartRecordsNothingTwice) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::vector<std::string> args = {self, "--journal_backend=" + GetParam(),
                                   "--journal_where=" + where_};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  FILE* acks = fdopen(fds[0], "r");
  long long last = -1, n = 0;
  while (last < 40 && std::fscanf(acks, "%lld", &n) == 1) last = n;
  kill(pid, SIGKILL);
  while (std::fscanf(acks, "%lld", &n) == 1) last = n;  // acknowledged before it died
  std::fclose(acks);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_GE(last, 40) << "the writer stopped early";
  if (GetParam() == "postgresql") {
    // The server finishes the statement the killed writer was sending (it may commit after
    // the kill): wait until the writer's connection is gone, so the journal read below is final.
    const std::string sql = absl::StrCat("SELECT count(*) FROM pg_stat_activity WHERE application_name = '",
                                         JournalWriterName(where_), "'");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int64_t left = 0;
    while ((left = PgNumber(sql)) != 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(left, 0) << "the killed writer's connection is still open on the server";
  }

  db_.reset();
  db_ = Open();  // the restarted coordinator
  ASSERT_NE(db_, nullptr);
  std::vector<MeasurementRecord> journal = db_->ListMeasurements("killed-search").value();
  ASSERT_GE(static_cast<long long>(journal.size()), last + 1) << "an acknowledged row was lost";
  for (long long i = 0; i <= last; ++i)
    EXPECT_EQ(journal[i], SampleMeasurement("killed-search", i, 0.001)) << i;
  int64_t added = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(journal.size()) + 5; ++i)
    added += db_->PutMeasurement(SampleMeasurement("killed-search", i, 0.001)).value();
  EXPECT_EQ(added, 5) << "only the 5 new candidates are recorded";
}

// ** PostgreSQL only **

class PostgresTuningDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (TestPostgresUrl().empty()) GTEST_SKIP() << testing::kNoPostgresMessage;
    schema_ = TestSchemaName();
  }
  void TearDown() override {
    if (!schema_.empty()) PgExec(absl::StrCat("DROP SCHEMA IF EXISTS ", schema_, " CASCADE"));
  }
  std::string schema_;
};

TEST_F(PostgresTuningDbTest, ConnectionErrorsNameTheServerNotThePassword) {
  // A port nobody listens on (bound, never listening).
  int port = 1;  // privileged, never a PostgreSQL server in a test
  std::string url = absl::StrCat("postgresql://alice:s3cr3t-pw@127.0.0.1:", port, "/tuning");
  absl::StatusOr<std::unique_ptr<PostgresTuningDb>> db = PostgresTuningDb::Open(url);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kUnavailable) << db.status();
  std::string msg(db.status().message());
  EXPECT_NE(msg.find("postgresql://alice@127.0.0.1:1/tuning"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot connect"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("s3cr3t-pw"), std::string::npos) << msg;
  // A database that does not exist on the real server.
  std::string base = TestPostgresUrl();
  std::string no_db = base.substr(0, base.rfind('/')) + "/no_such_db_here";
  absl::StatusOr<std::unique_ptr<TuningDb>> missing = OpenTuningDb(no_db);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no_such_db_here"), std::string::npos)
      << missing.status();
  EXPECT_EQ(PostgresTuningDb::Open(base, {.schema = "Bad; DROP"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenTuningDb("postgresql://[::1").status().code(), absl::StatusCode::kInvalidArgument);
}

// A connection the server dropped (restart, idle timeout, failover) is reopened on the next
// call, with its schema.
TEST_F(PostgresTuningDbTest, ReconnectsAfterTheServerDropsTheConnection) {
  std::string app = schema_ + "_app";
  absl::StatusOr<std::unique_ptr<PostgresTuningDb>> db =
      PostgresTuningDb::Open(TestPostgresUrl(), {.schema = schema_, .application_name = app});
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->Put(SampleRecord(1, 0.5)).value());
  ASSERT_TRUE(PgExec(absl::StrCat(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '", app,
      "'")));
  // The call finds the connection dropped, reconnects and runs again.
  absl::StatusOr<std::optional<TuningRecord>> again = (*db)->Lookup(SampleKey(1));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->value(), SampleRecord(1, 0.5)) << "same schema after reconnecting";
  ASSERT_TRUE(PgExec(absl::StrCat(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '", app,
      "'")));
  EXPECT_TRUE((*db)->Put(SampleRecord(2, 0.5)).value());
  EXPECT_EQ((*db)->Count().value(), 2);
}

TEST_F(PostgresTuningDbTest, OpenTuningDbTakesAUrl) {
  absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenTuningDb(TestPostgresUrl());
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->location().starts_with("postgresql://")) << (*db)->location();
  EXPECT_TRUE((*db)->Count().ok());
}

// A schema 1 database (the tuning table of issue 4) is migrated: its rows read with empty
// provenance, and the journal works.
TEST_F(PostgresTuningDbTest, MigratesASchemaOneDatabase) {
  std::string create = absl::StrCat("CREATE SCHEMA ", schema_, "; SET search_path = ", schema_,
                                    "; CREATE TABLE schema_version (version INTEGER NOT NULL); "
                                    "INSERT INTO schema_version VALUES (1);");
  for (const std::string& sql : schema::Migrations()[0]) absl::StrAppend(&create, sql, ";");
  TuningRecord r = SampleRecord(5, 0.25);
  r.worker.clear();
  r.host.clear();
  r.samples_s.clear();
  absl::StrAppend(
      &create, "INSERT INTO tuning VALUES ('", r.key.Digest(), "', '", r.key.AstHex(), "', '",
      r.key.device, "', '", r.key.renderer, "', '", r.key.compiler, "', '", r.key.codegen_version,
      "', ", r.key.opt_version, ", '", r.key.settings.ToString(), "', '", r.kernel_name,
      "', '[[\"UPCAST\",0,4],[\"UNROLL\",0,4],[\"TC\",0,[-1,2,1]],[\"NOLOCALS\",null,null]]', "
      "0.25, "
      "0.25, 0.0125, 73, '",
      r.device_description, "', '", r.tinygrad_cc_version, "', ", r.created_unix_ms, ", 4.5)");
  ASSERT_TRUE(PgExec(create));
  absl::StatusOr<std::unique_ptr<PostgresTuningDb>> db =
      PostgresTuningDb::Open(TestPostgresUrl(), {.schema = schema_});
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->SchemaVersion().value(), 4);
  EXPECT_EQ((*db)->Lookup(r.key).value(), r);
  EXPECT_TRUE((*db)->PutMeasurement(SampleMeasurement("s", 1, 0.1)).value());
}

TEST_F(PostgresTuningDbTest, NewerSchemaAndForeignTablesAreRefusedUntouched) {
  ASSERT_TRUE(PostgresTuningDb::Open(TestPostgresUrl(), {.schema = schema_}).ok());
  ASSERT_TRUE(PgExec(absl::StrCat("UPDATE ", schema_, ".schema_version SET version = 99")));
  absl::StatusOr<std::unique_ptr<PostgresTuningDb>> newer =
      PostgresTuningDb::Open(TestPostgresUrl(), {.schema = schema_});
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(newer.status().message().find("schema version 99, newer than this build's 4"),
            std::string::npos)
      << newer.status();

  std::string foreign = schema_ + "_foreign";
  ASSERT_TRUE(
      PgExec(absl::StrCat("CREATE SCHEMA ", foreign, "; CREATE TABLE ", foreign,
                          ".tuning (x INTEGER); INSERT INTO ", foreign, ".tuning VALUES (5)")));
  absl::StatusOr<std::unique_ptr<PostgresTuningDb>> db =
      PostgresTuningDb::Open(TestPostgresUrl(), {.schema = foreign});
  ASSERT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("migrating schema 0 -> 1"), std::string::npos)
      << db.status();
  // Rolled back: no version table was left behind.
  EXPECT_FALSE(PgExec(absl::StrCat("SELECT version FROM ", foreign, ".schema_version")));
  EXPECT_TRUE(PgExec(absl::StrCat("SELECT x FROM ", foreign, ".tuning WHERE x = 5")));
  PgExec(absl::StrCat("DROP SCHEMA ", foreign, " CASCADE"));
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) {
  std::string backend, where, journal_backend, journal_where;
  int proc = -1;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--journal_backend=")) journal_backend = a.substr(18);
    if (a.starts_with("--journal_where=")) journal_where = a.substr(16);
    if (a.starts_with("--writer_backend=")) backend = a.substr(17);
    if (a.starts_with("--writer_where=")) where = a.substr(15);
    if (a.starts_with("--writer_proc=") && !absl::SimpleAtoi(std::string(a.substr(14)), &proc))
      return 64;
  }
  if (proc >= 0) return tg::autotune::RunWriter(backend, where, proc);
  if (!journal_backend.empty())
    return tg::autotune::RunJournalWriter(journal_backend, journal_where);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
