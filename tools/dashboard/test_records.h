// File: tools/dashboard/test_records.h (testonly)
// Tuning records with known times for the db page's tests.
#ifndef TOOLS_DASHBOARD_TEST_RECORDS_H_
#define TOOLS_DASHBOARD_TEST_RECORDS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "autotune/db/tuning_db.h"

namespace tg::dashboard {

// A record of kernel `kernel` (AST hash `ast`) on device class `device`, opts "UPCAST0:4".
inline autotune::TuningRecord TestRecord(uint64_t ast, std::string device, std::string kernel, double tuned,
                                         std::optional<double> noopt, std::optional<double> heuristic) {
  autotune::TuningRecord r;
  r.key.ast_hash = ast;
  r.key.device = std::move(device);
  r.key.renderer = "tg::ClangRenderer";
  r.key.compiler = "clang -O2";
  r.kernel_name = std::move(kernel);
  r.opts = {Opt{OptOps::UPCAST, 0, int64_t{4}}};
  r.time_s = tuned;
  r.noopt_time_s = noopt;
  r.heuristic_time_s = heuristic;
  r.candidates = 10;
  r.device_description = "CPU | test | avx2 | 2 cores";
  return r;
}

}  // namespace tg::dashboard

#endif  // TOOLS_DASHBOARD_TEST_RECORDS_H_
