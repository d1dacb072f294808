// File: autotune/db/tuning_db_benchmark.cc
// How fast the tuning cache answers: a second search of a kernel is answered by Lookup, so
// its latency (plus the key's digest) is what a cached kernel costs. Each benchmark runs on
// the SQLite file and, when TG_TEST_POSTGRES_URL names a server, on PostgreSQL (schema
// bench_<pid>; start a throwaway server with tools/pg_test_server).
//
//   bazel run -c opt //autotune/db:tuning_db_benchmark
//   export TG_TEST_POSTGRES_URL=$(tools/pg_test_server start)
//   bazel run -c opt //autotune/db:tuning_db_benchmark; tools/pg_test_server stop
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/db/db_test_util.h"
#include "autotune/db/postgres_tuning_db.h"
#include "autotune/db/sqlite_tuning_db.h"
#include "benchmark/benchmark.h"

namespace tg::autotune {
namespace {

constexpr int kRows = 10000;

enum Backend { kSqlite, kPostgres };

// A database of kRows records per backend, shared by the benchmarks; null when the backend
// is not available (no PostgreSQL URL).
TuningDb* Db(Backend b) {
  static TuningDb* dbs[2] = {
      [] {
        std::string dir = absl::StrCat(std::filesystem::temp_directory_path().string(),
                                       "/tuning_db_benchmark_", getpid());
        std::filesystem::create_directories(dir);
        return static_cast<TuningDb*>(SqliteTuningDb::Open(dir + "/tuning.db").value().release());
      }(),
      []() -> TuningDb* {
        if (testing::TestPostgresUrl().empty()) return nullptr;
        return PostgresTuningDb::Open(testing::TestPostgresUrl(),
                                      {.schema = absl::StrCat("bench_", getpid())})
            .value()
            .release();
      }(),
  };
  static bool filled = [] {
    for (TuningDb* d : dbs) {
      if (d == nullptr) continue;
      std::vector<TuningRecord> rows;
      for (int i = 0; i < kRows; ++i) rows.push_back(testing::SampleRecord(i, 0.001));
      (void)d->PutAll(rows);
    }
    return true;
  }();
  (void)filled;
  return dbs[b];
}

// The backend's database, or nullptr after marking the benchmark skipped.
TuningDb* DbOrSkip(benchmark::State& state, Backend b) {
  TuningDb* db = Db(b);
  if (db == nullptr) state.SkipWithError("TG_TEST_POSTGRES_URL not set: PostgreSQL skipped");
  return db;
}

void BM_LookupHit(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  int i = 0;
  for (auto _ : state) {
    auto r = db->Lookup(testing::SampleKey(i++ % kRows));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_LookupHit, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_LookupHit, postgres, kPostgres);

void BM_LookupBest(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  int i = 0;
  for (auto _ : state) {
    auto r = db->LookupBest(testing::SampleKey(i++ % kRows));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_LookupBest, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_LookupBest, postgres, kPostgres);

void BM_LookupMiss(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  int i = 0;
  for (auto _ : state) {
    auto r = db->Lookup(testing::SampleKey(kRows + i++));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_LookupMiss, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_LookupMiss, postgres, kPostgres);

// Opening (SQLite: WAL setup, schema check, statements; PostgreSQL: connect, schema check).
void BM_Open(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  for (auto _ : state) {
    if (b == kSqlite) {
      auto d = SqliteTuningDb::Open(db->location().substr(7));
      benchmark::DoNotOptimize(d);
    } else {
      auto d = PostgresTuningDb::Open(testing::TestPostgresUrl(),
                                      {.schema = absl::StrCat("bench_", getpid())});
      benchmark::DoNotOptimize(d);
    }
  }
}
BENCHMARK_CAPTURE(BM_Open, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_Open, postgres, kPostgres);

// A Put that loses (an equal time is stored): the common case of a repeated search.
void BM_PutKept(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  int i = 0;
  for (auto _ : state) {
    auto r = db->Put(testing::SampleRecord(i++ % kRows, 0.001));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_PutKept, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_PutKept, postgres, kPostgres);

// A Put that stores (a new key): one committed write transaction.
void BM_PutNew(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  static int next[2] = {2 * kRows, 2 * kRows};
  for (auto _ : state) {
    auto r = db->Put(testing::SampleRecord(next[b]++, 0.001));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_PutNew, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_PutNew, postgres, kPostgres);

// A journal row (one per finished measurement while a search runs).
void BM_PutMeasurement(benchmark::State& state, Backend b) {
  TuningDb* db = DbOrSkip(state, b);
  if (db == nullptr) return;
  static int64_t next[2] = {0, 0};
  MeasurementRecord m{.search_key = testing::SampleKey(1).Digest(),
                      .outcome = "ok",
                      .samples_s = {0.001, 0.0011, 0.00105},
                      .min_s = 0.001};
  for (auto _ : state) {
    m.opts = {Opt{OptOps::UPCAST, 0, next[b]++}};
    auto r = db->PutMeasurement(m);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK_CAPTURE(BM_PutMeasurement, sqlite, kSqlite);
BENCHMARK_CAPTURE(BM_PutMeasurement, postgres, kPostgres);

}  // namespace
}  // namespace tg::autotune
