// File: tools/dashboard/tune_dashboard.h
// The live page of `tg tune --dashboard`: every kernel and its search state (round,
// candidates, best time against the heuristic's and the unoptimized kernel's), each search's
// best time over its search time, and on a farm the workers with their device classes, jobs
// in flight, requeues, poisoned candidates and failures by kind. The page polls /api/state
// about once a second.
//
// The state is what the tuning driver reports through the TuningSnapshotRecorder this object
// owns (pass recorder() as TunerOptions::observer) and the farm's FarmStatus handed to
// SetFarmStatus; both are read under locks, so the tune's threads and the server's never
// share anything else.
//
// /api/state:
//   {"title": "...", "finished": false, "version": 12,
//    "states": {"queued": 1, "searching": 1, "done": 1, "cached": 0, "failed": 0},
//    "progress": {"in_flight": 2, "measured": 40, "journal_hits": 0},
//    "kernels": [{"index": 0, "name": "r_16_16", "state": "searching", "phase": "round",
//                 "round": 2, "candidates": 30, "timed": 28, "best_s": 1.2e-5,
//                 "heuristic_s": 2e-5, "noopt_s": 9e-5, "vs_heuristic": 1.67, "vs_noopt": 7.5,
//                 "search_s": 3.1, "opts": "UPCAST0:4 ...", "best_over_time": [[0.4, 2e-5], ...],
//                 "outcomes": {"ok": 28, "compile_error": 2}, "error": ""}, ...],
//    "failures": {"compile_error": 2},   // candidates by failed outcome, all kernels
//    "farm": null | FarmStatusToJson's object (autotune/farm/farm_status_json.h)}
#ifndef TOOLS_DASHBOARD_TUNE_DASHBOARD_H_
#define TOOLS_DASHBOARD_TUNE_DASHBOARD_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "autotune/farm/broker.h"
#include "autotune/tuning_snapshot.h"
#include "nlohmann/json.hpp"
#include "tools/web/local_server.h"

namespace tg::dashboard {

// /api/state's body for a snapshot (and the farm's status, when tuning on a farm).
nlohmann::json TuneStateJson(const std::string& title, const autotune::TuningSnapshot& s,
                             const std::optional<autotune::farm::FarmStatus>& farm);

class TuneDashboard {
 public:
  explicit TuneDashboard(std::string title) : title_(std::move(title)) {}
  TuneDashboard(const TuneDashboard&) = delete;
  TuneDashboard& operator=(const TuneDashboard&) = delete;

  autotune::TuningSnapshotRecorder& recorder() { return recorder_; }
  void SetFarmStatus(const autotune::farm::FarmStatus& s);
  nlohmann::json State() const;

  // Serves the page. Errors: LocalServer::Start's (a non-loopback host without allow_remote,
  // a port in use).
  absl::Status Start(const web::ServeOptions& options);
  std::string url() const { return server_ != nullptr ? server_->url() : ""; }

 private:
  const std::string title_;
  autotune::TuningSnapshotRecorder recorder_;
  mutable std::mutex mu_;
  std::optional<autotune::farm::FarmStatus> farm_ ABSL_GUARDED_BY(mu_);
  // Last: stopped (its handlers done) before what they read goes away.
  std::unique_ptr<web::LocalServer> server_;
};

}  // namespace tg::dashboard

#endif  // TOOLS_DASHBOARD_TUNE_DASHBOARD_H_
