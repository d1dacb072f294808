// File: tools/dashboard/json_page.h
// What the three tuning pages (`tg tune --dashboard`, `tg farm status --web`, `tg db serve`)
// have in common on the server: their files (one page skeleton, style and script helpers in
// page/common/, plus the page's own page.js) and one JSON endpoint the page reads, computed
// afresh for each request. Also the JSON helpers all three use.
#ifndef TOOLS_DASHBOARD_JSON_PAGE_H_
#define TOOLS_DASHBOARD_JSON_PAGE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "nlohmann/json.hpp"
#include "tools/web/asset.h"
#include "tools/web/local_server.h"

namespace tg::dashboard {

// Starts a LocalServer with `assets` and GET `api_path` answering state() as JSON. state() runs
// on the server's threads: it must be thread-safe, and outlive the server.
absl::StatusOr<std::unique_ptr<web::LocalServer>> ServeJsonPage(const web::ServeOptions& options,
                                                                absl::Span<const web::Asset> assets,
                                                                const std::string& api_path,
                                                                std::function<nlohmann::json()> state);

// A time in seconds; null when not measured (infinite, NaN or absent).
nlohmann::json Seconds(double s);
nlohmann::json Seconds(const std::optional<double>& s);
// before / after (a speedup); null unless both are measured and after > 0.
nlohmann::json Speedup(double before, double after);

}  // namespace tg::dashboard

#endif  // TOOLS_DASHBOARD_JSON_PAGE_H_
