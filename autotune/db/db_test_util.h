// File: autotune/db/db_test_util.h
// Records for the tuning database's tests and benchmark.
#ifndef AUTOTUNE_DB_DB_TEST_UTIL_H_
#define AUTOTUNE_DB_DB_TEST_UTIL_H_

#include <cstdint>
#include <cstdlib>
#include <string>

#include "autotune/db/tuning_db.h"

namespace tg::autotune::testing {

// A key that differs from others only in its AST hash.
inline TuningKey SampleKey(uint64_t ast_hash) {
  TuningKey k;
  k.ast_hash = ast_hash;
  k.device = "c94acfaa25f43855";
  k.renderer = "tg::ClangRenderer";
  k.compiler = "clang -O2 -march=native\nDebian clang version 14.0.6";
  return k;
}

inline TuningRecord SampleRecord(uint64_t ast_hash, double time_s) {
  TuningRecord r;
  r.key = SampleKey(ast_hash);
  r.kernel_name = "r_256_256_256";
  r.opts = {Opt{OptOps::UPCAST, 0, int64_t{4}}, Opt{OptOps::UNROLL, 0, int64_t{4}},
            Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}}, Opt{OptOps::NOLOCALS, {}, {}}};
  r.time_s = time_s;
  r.noopt_time_s = 0.25;
  r.heuristic_time_s = 0.0125;
  r.candidates = 73;
  r.device_description = "CPU | AMD EPYC (family 26, model 2) | avx avx2 avx512f | 2 cores";
  r.tinygrad_cc_version = "0.1.0";
  r.created_unix_ms = 1795000000123;
  r.search_wall_s = 4.5;
  r.worker = "worker-3/pid 4242";
  r.host = "node7.lan";
  r.samples_s = {time_s * 1.25, time_s, 0.1 + time_s};  // in run order; time_s is the min
  return r;
}

// The PostgreSQL server for tests (tools/test starts one and passes
// --test_env=TG_TEST_POSTGRES_URL=...), or "" when there is none. Test-only: library code reads
// the environment only through tinygrad/base/config.h.
inline std::string TestPostgresUrl() {
  const char* url = std::getenv("TG_TEST_POSTGRES_URL");
  return url != nullptr ? url : "";
}
inline constexpr const char* kNoPostgresMessage =
    "TG_TEST_POSTGRES_URL not set: PostgreSQL tests skipped";

}  // namespace tg::autotune::testing

#endif  // AUTOTUNE_DB_DB_TEST_UTIL_H_
