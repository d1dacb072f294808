// File: tools/dashboard/farm_page.cc
#include "tools/dashboard/farm_page.h"

#include <utility>

#include "autotune/farm/farm_status_json.h"
#include "tools/dashboard/farm_page_assets.h"
#include "tools/dashboard/json_page.h"

namespace tg::dashboard {

nlohmann::json FarmPageJson(const std::string& endpoint, const absl::StatusOr<autotune::farm::FarmStatus>& status) {
  return {{"endpoint", endpoint},
          {"ok", status.ok()},
          {"error", status.ok() ? "" : std::string(status.status().message())},
          {"status", status.ok() ? nlohmann::json::parse(autotune::farm::FarmStatusToJson(*status))
                                 : nlohmann::json(nullptr)}};
}

absl::StatusOr<std::unique_ptr<web::LocalServer>> ServeFarmPage(const web::ServeOptions& options,
                                                                const std::string& endpoint,
                                                                FarmStatusFetcher fetch) {
  return ServeJsonPage(options, web::FarmPageAssets(), "/api/farm",
                       [endpoint, fetch = std::move(fetch)] { return FarmPageJson(endpoint, fetch()); });
}

}  // namespace tg::dashboard
