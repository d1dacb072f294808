// File: tools/dashboard/db_page.cc
#include "tools/dashboard/db_page.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "autotune/db/opts_text.h"
#include "tools/dashboard/db_page_assets.h"
#include "tools/dashboard/json_page.h"

namespace tg::dashboard {

using autotune::TuningRecord;
using nlohmann::json;

constexpr double kNotMeasured = std::numeric_limits<double>::infinity();

json DbRecordsJson(std::vector<TuningRecord> records) {
  std::stable_sort(records.begin(), records.end(), [](const TuningRecord& a, const TuningRecord& b) {
    return std::tie(a.key.device, a.kernel_name, a.time_s) < std::tie(b.key.device, b.kernel_name, b.time_s);
  });
  json rows = json::array();
  for (const TuningRecord& r : records) {
    const double noopt = r.noopt_time_s.value_or(kNotMeasured), heuristic = r.heuristic_time_s.value_or(kNotMeasured);
    rows.push_back({{"kernel", r.kernel_name},
                    {"key", r.key.Digest()},
                    {"device", r.key.device},
                    {"device_description", r.device_description},
                    {"renderer", r.key.renderer},
                    {"noopt_s", Seconds(r.noopt_time_s)},
                    {"heuristic_s", Seconds(r.heuristic_time_s)},
                    {"tuned_s", Seconds(r.time_s)},
                    {"vs_noopt", Speedup(noopt, r.time_s)},
                    {"vs_heuristic", Speedup(heuristic, r.time_s)},
                    {"opts", autotune::OptsToShortText(r.opts)},
                    {"candidates", r.candidates},
                    {"search_s", r.search_wall_s},
                    {"worker", r.worker},
                    {"host", r.host},
                    {"created_unix_ms", r.created_unix_ms}});
  }
  return rows;
}

absl::StatusOr<std::unique_ptr<web::LocalServer>> ServeDbPage(const web::ServeOptions& options,
                                                              autotune::TuningDb* db) {
  auto mu = std::make_shared<std::mutex>();
  return ServeJsonPage(options, web::DbPageAssets(), "/api/records", [db, mu]() -> json {
    std::lock_guard<std::mutex> lock(*mu);  // a database connection serves one request at a time
    absl::StatusOr<std::vector<TuningRecord>> all = db->List();
    if (!all.ok()) return {{"db", db->location()}, {"error", std::string(all.status().message())}, {"records", json::array()}};
    return {{"db", db->location()}, {"error", ""}, {"records", DbRecordsJson(*std::move(all))}};
  });
}

}  // namespace tg::dashboard
