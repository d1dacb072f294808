// File: tools/dashboard/tune_dashboard.cc
#include "tools/dashboard/tune_dashboard.h"

#include <array>
#include <utility>

#include "autotune/db/opts_text.h"
#include "autotune/farm/farm_status_json.h"
#include "tools/dashboard/json_page.h"
#include "tools/dashboard/tune_page_assets.h"

namespace tg::dashboard {
namespace {

using autotune::KernelSnapshot;
using autotune::Outcome;
using nlohmann::json;

// Outcomes that are not failures: timed, stopped early for being slow, or a program seen before.
bool IsFailure(Outcome o) { return o != Outcome::kOk && o != Outcome::kTooSlow && o != Outcome::kDuplicate; }

json KernelJson(size_t index, const KernelSnapshot& k) {
  json outcomes = json::object();
  for (int i = 0; i < autotune::kNumOutcomes; ++i)
    if (k.outcomes[i] > 0) outcomes[std::string(autotune::OutcomeName(static_cast<Outcome>(i)))] = k.outcomes[i];
  json curve = json::array();
  for (const autotune::BestPoint& p : k.best_over_time) curve.push_back({p.search_s, p.best_s});
  return {{"index", index},
          {"name", k.name},
          {"state", std::string(autotune::KernelStateName(k.state))},
          {"phase", k.phase},
          {"round", k.round},
          {"candidates", k.candidates},
          {"timed", k.timed},
          {"best_s", Seconds(k.best_s)},
          {"heuristic_s", Seconds(k.heuristic_s)},
          {"noopt_s", Seconds(k.noopt_s)},
          {"vs_heuristic", Speedup(k.heuristic_s, k.best_s)},
          {"vs_noopt", Speedup(k.noopt_s, k.best_s)},
          {"search_s", k.search_s},
          {"opts", autotune::OptsToShortText(k.best_opts)},
          {"best_over_time", std::move(curve)},
          {"outcomes", std::move(outcomes)},
          {"error", k.error}};
}

}  // namespace

json TuneStateJson(const std::string& title, const autotune::TuningSnapshot& s,
                   const std::optional<autotune::farm::FarmStatus>& farm) {
  json kernels = json::array();
  std::array<int64_t, autotune::kNumOutcomes> failed{};
  // By state, from the rows: a tune that runs the tuner once per kernel (in-process) reports
  // progress for one kernel at a time.
  json states = json::object();
  for (autotune::KernelState st : {autotune::KernelState::kQueued, autotune::KernelState::kSearching,
                                   autotune::KernelState::kDone, autotune::KernelState::kCached,
                                   autotune::KernelState::kFailed})
    states[std::string(autotune::KernelStateName(st))] = 0;
  for (size_t i = 0; i < s.kernels.size(); ++i) {
    kernels.push_back(KernelJson(i, s.kernels[i]));
    states[std::string(autotune::KernelStateName(s.kernels[i].state))] =
        states[std::string(autotune::KernelStateName(s.kernels[i].state))].get<int>() + 1;
    for (int o = 0; o < autotune::kNumOutcomes; ++o) failed[o] += s.kernels[i].outcomes[o];
  }
  json failures = json::object();
  for (int o = 0; o < autotune::kNumOutcomes; ++o)
    if (failed[o] > 0 && IsFailure(static_cast<Outcome>(o)))
      failures[std::string(autotune::OutcomeName(static_cast<Outcome>(o)))] = failed[o];
  const autotune::TuningProgress& p = s.progress;
  return {{"title", title},
          {"finished", s.finished},
          {"version", s.version},
          {"progress",
           {{"in_flight", p.in_flight},
            {"measured", p.measured},
            {"journal_hits", p.journal_hits}}},
          {"states", std::move(states)},
          {"kernels", std::move(kernels)},
          {"failures", std::move(failures)},
          {"farm", farm.has_value() ? json::parse(autotune::farm::FarmStatusToJson(*farm)) : json(nullptr)}};
}

void TuneDashboard::SetFarmStatus(const autotune::farm::FarmStatus& s) {
  std::lock_guard<std::mutex> lock(mu_);
  farm_ = s;
}

json TuneDashboard::State() const {
  std::optional<autotune::farm::FarmStatus> farm;
  {
    std::lock_guard<std::mutex> lock(mu_);
    farm = farm_;
  }
  return TuneStateJson(title_, recorder_.Snapshot(), farm);
}

absl::Status TuneDashboard::Start(const web::ServeOptions& options) {
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server =
      ServeJsonPage(options, web::TunePageAssets(), "/api/state", [this] { return State(); });
  if (!server.ok()) return server.status();
  server_ = *std::move(server);
  return absl::OkStatus();
}

}  // namespace tg::dashboard
