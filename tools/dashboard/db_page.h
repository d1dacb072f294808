// File: tools/dashboard/db_page.h
// The page of `tg db serve`: the tuning database's records as a table (kernel, device class,
// unoptimized / heuristic / tuned times, speedups, opts, who measured it), sortable by any
// column and filtered by a text box on the page. /api/records reads the database again on each
// request, so a reload shows what a tune stored since:
//   {"db": "<location>", "error": "", "records": [{"kernel": "r_16_16", "key": "<digest>",
//     "device": "<class digest>", "device_description": "CPU ...", "renderer": "...",
//     "noopt_s": 9e-5, "heuristic_s": 2e-5, "tuned_s": 1.2e-5, "vs_noopt": 7.5,
//     "vs_heuristic": 1.67, "opts": "UPCAST0:4 ...", "candidates": 73, "search_s": 4.5,
//     "worker": "w1", "host": "node7", "created_unix_ms": 1795000000123}, ...]}
// in the order DbRecordsJson sorts them.
#ifndef TOOLS_DASHBOARD_DB_PAGE_H_
#define TOOLS_DASHBOARD_DB_PAGE_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"
#include "nlohmann/json.hpp"
#include "tools/web/local_server.h"

namespace tg::dashboard {

// The records' rows, by device class, then kernel name, then tuned time (fastest first); the
// page sorts them otherwise on a click.
nlohmann::json DbRecordsJson(std::vector<autotune::TuningRecord> records);

// Serves the page over `db` (not owned; it must outlive the server; requests read it one at a
// time). Errors: LocalServer::Start's.
absl::StatusOr<std::unique_ptr<web::LocalServer>> ServeDbPage(const web::ServeOptions& options,
                                                              autotune::TuningDb* db);

}  // namespace tg::dashboard

#endif  // TOOLS_DASHBOARD_DB_PAGE_H_
