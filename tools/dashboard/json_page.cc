// File: tools/dashboard/json_page.cc
#include "tools/dashboard/json_page.h"

#include <cmath>
#include <utility>

namespace tg::dashboard {

absl::StatusOr<std::unique_ptr<web::LocalServer>> ServeJsonPage(const web::ServeOptions& options,
                                                                absl::Span<const web::Asset> assets,
                                                                const std::string& api_path,
                                                                std::function<nlohmann::json()> state) {
  return web::LocalServer::Start(options, [&](httplib::Server& s) {
    web::ServeAssets(s, assets);
    s.Get(api_path, [state = std::move(state)](const httplib::Request&, httplib::Response& r) {
      web::SetJson(r, state());
    });
  });
}

nlohmann::json Seconds(double s) { return std::isfinite(s) ? nlohmann::json(s) : nlohmann::json(nullptr); }

nlohmann::json Seconds(const std::optional<double>& s) { return s.has_value() ? Seconds(*s) : nullptr; }

nlohmann::json Speedup(double before, double after) {
  if (!std::isfinite(before) || !std::isfinite(after) || after <= 0) return nullptr;
  return before / after;
}

}  // namespace tg::dashboard
