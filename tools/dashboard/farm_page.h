// File: tools/dashboard/farm_page.h
// The page of `tg farm status --web`: a running coordinator's workers with their device
// classes, queues and jobs in flight, requeues, poisoned candidates and error counts, asked
// from its status socket (FarmStatusToJson, autotune/farm/farm_status_json.h) each time the
// page polls /api/farm:
//   {"endpoint": "ipc://...", "ok": true, "error": "", "status": <FarmStatus JSON> | null}
// A coordinator that does not answer is an error on the page ("ok": false), not the end of
// the server: the page keeps asking.
#ifndef TOOLS_DASHBOARD_FARM_PAGE_H_
#define TOOLS_DASHBOARD_FARM_PAGE_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "autotune/farm/broker.h"
#include "nlohmann/json.hpp"
#include "tools/web/local_server.h"

namespace tg::dashboard {

// Asks the coordinator once; called on the server's threads (so it must be thread-safe).
using FarmStatusFetcher = std::function<absl::StatusOr<autotune::farm::FarmStatus>()>;

// /api/farm's body for one answer.
nlohmann::json FarmPageJson(const std::string& endpoint, const absl::StatusOr<autotune::farm::FarmStatus>& status);

// Serves the page; `fetch` must outlive the server. Errors: LocalServer::Start's.
absl::StatusOr<std::unique_ptr<web::LocalServer>> ServeFarmPage(const web::ServeOptions& options,
                                                                const std::string& endpoint,
                                                                FarmStatusFetcher fetch);

}  // namespace tg::dashboard

#endif  // TOOLS_DASHBOARD_FARM_PAGE_H_
