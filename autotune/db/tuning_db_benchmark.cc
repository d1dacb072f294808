// File: autotune/db/tuning_db_benchmark.cc
// How fast the tuning cache answers: a second search of a kernel is answered by Lookup, so
// its latency (plus the key's digest) is what a cached kernel costs.
//
//   bazel run -c opt //autotune/db:tuning_db_benchmark
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "autotune/db/db_test_util.h"
#include "autotune/db/sqlite_tuning_db.h"
#include "benchmark/benchmark.h"

namespace tg::autotune {
namespace {

constexpr int kRows = 10000;

// A database of kRows records in a fresh temporary file, shared by the benchmarks.
SqliteTuningDb& Db() {
  static SqliteTuningDb* db = [] {
    std::string dir = absl::StrCat(std::filesystem::temp_directory_path().string(),
                                   "/tuning_db_benchmark_", getpid());
    std::filesystem::create_directories(dir);
    SqliteTuningDb* d = SqliteTuningDb::Open(dir + "/tuning.db").value().release();
    for (int i = 0; i < kRows; ++i) (void)d->Put(testing::SampleRecord(i, 0.001));
    return d;
  }();
  return *db;
}

void BM_LookupHit(benchmark::State& state) {
  SqliteTuningDb& db = Db();
  int i = 0;
  for (auto _ : state) {
    auto r = db.Lookup(testing::SampleKey(i++ % kRows));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_LookupHit);

void BM_LookupBest(benchmark::State& state) {
  SqliteTuningDb& db = Db();
  int i = 0;
  for (auto _ : state) {
    auto r = db.LookupBest(testing::SampleKey(i++ % kRows));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_LookupBest);

void BM_LookupMiss(benchmark::State& state) {
  SqliteTuningDb& db = Db();
  int i = 0;
  for (auto _ : state) {
    auto r = db.Lookup(testing::SampleKey(kRows + i++));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_LookupMiss);

// Opening the file (WAL setup, schema check, statements): paid once per process.
void BM_Open(benchmark::State& state) {
  Db();
  std::string path = Db().location().substr(7);
  for (auto _ : state) {
    auto db = SqliteTuningDb::Open(path);
    benchmark::DoNotOptimize(db);
  }
}
BENCHMARK(BM_Open);

// A Put that loses (an equal time is stored): the common case of a repeated search.
void BM_PutKept(benchmark::State& state) {
  SqliteTuningDb& db = Db();
  int i = 0;
  for (auto _ : state) {
    auto r = db.Put(testing::SampleRecord(i++ % kRows, 0.001));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_PutKept);

// A Put that stores (a new key): one committed write transaction.
void BM_PutNew(benchmark::State& state) {
  SqliteTuningDb& db = Db();
  static int next = 2 * kRows;
  for (auto _ : state) {
    auto r = db.Put(testing::SampleRecord(next++, 0.001));
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_PutNew);

}  // namespace
}  // namespace tg::autotune
