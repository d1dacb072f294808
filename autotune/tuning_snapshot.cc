// File: autotune/tuning_snapshot.cc
#include "autotune/tuning_snapshot.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace tg::autotune {

std::string_view KernelStateName(KernelState s) {
  switch (s) {
    case KernelState::kQueued: return "queued";
    case KernelState::kSearching: return "searching";
    case KernelState::kDone: return "done";
    case KernelState::kCached: return "cached";
    case KernelState::kFailed: return "failed";
  }
  return "?";
}

namespace {

std::string PhaseName(BeamProgress::Phase p) {
  switch (p) {
    case BeamProgress::Phase::kBaseline: return "baselines";
    case BeamProgress::Phase::kRound: return "round";
    case BeamProgress::Phase::kFinalists: return "finalists";
    case BeamProgress::Phase::kDone: return "done";
  }
  return "?";
}

}  // namespace

KernelSnapshot& TuningSnapshotRecorder::Row(const UOp& ast) {
  auto [it, added] = rows_.try_emplace(ast.key(), snapshot_.kernels.size());
  if (added) {
    snapshot_.kernels.push_back(KernelSnapshot{});
    snapshot_.kernels.back().name = absl::StrCat("kernel ", snapshot_.kernels.size());
  }
  return snapshot_.kernels[it->second];
}

void TuningSnapshotRecorder::AddKernel(const UOp& ast, std::string name) {
  std::lock_guard<std::mutex> lock(mu_);
  Row(ast).name = std::move(name);
  ++snapshot_.version;
}

void TuningSnapshotRecorder::MarkFinished() {
  std::lock_guard<std::mutex> lock(mu_);
  snapshot_.finished = true;
  ++snapshot_.version;
}

TuningSnapshot TuningSnapshotRecorder::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return snapshot_;
}

void TuningSnapshotRecorder::RunStarted(std::span<const UOp> asts) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const UOp& ast : asts) Row(ast);
  ++snapshot_.version;
}

void TuningSnapshotRecorder::SearchStarted(const UOp& ast) {
  std::lock_guard<std::mutex> lock(mu_);
  Row(ast).state = KernelState::kSearching;
  ++snapshot_.version;
}

void TuningSnapshotRecorder::SearchProgress(const UOp& ast, const BeamProgress& p) {
  std::lock_guard<std::mutex> lock(mu_);
  KernelSnapshot& k = Row(ast);
  k.state = KernelState::kSearching;
  k.phase = PhaseName(p.phase);
  k.round = p.round;
  k.candidates = p.total_candidates;
  k.timed = p.total_timed;
  k.noopt_s = p.noopt_s;
  k.heuristic_s = p.heuristic_s;
  k.search_s = p.elapsed_s;
  k.outcomes = p.outcomes;
  // A point where the best changed; the final phase's re-timed winner (kDone) may be a little
  // slower than its search time, and is the curve's last point either way.
  const bool changed = k.best_over_time.empty() ? p.best_s < kInf : p.best_s != k.best_over_time.back().best_s;
  if (p.best_s < kInf && (changed || p.phase == BeamProgress::Phase::kDone))
    k.best_over_time.push_back({.search_s = p.elapsed_s, .best_s = p.best_s});
  k.best_s = p.best_s;
  k.best_opts = p.best_opts;
  ++snapshot_.version;
}

void TuningSnapshotRecorder::KernelDone(const KernelTuning& t) {
  std::lock_guard<std::mutex> lock(mu_);
  KernelSnapshot& k = Row(t.ast);
  ++snapshot_.version;
  if (!t.status.ok()) {
    k.state = KernelState::kFailed;
    k.error = std::string(t.status.message());
    return;
  }
  if (!t.record.has_value()) {  // a lookup-only miss: nothing was decided
    k.state = KernelState::kDone;
    return;
  }
  const TuningRecord& r = *t.record;
  k.state = t.from_cache ? KernelState::kCached : KernelState::kDone;
  if (!r.kernel_name.empty()) k.name = r.kernel_name;
  k.phase = t.from_cache ? "" : "done";
  k.best_s = r.time_s;
  k.best_opts = r.opts;
  k.noopt_s = r.noopt_time_s.value_or(kInf);
  k.heuristic_s = r.heuristic_time_s.value_or(kInf);
  if (t.search.has_value()) {
    k.round = t.search->rounds;
    k.candidates = t.search->candidates;
    k.timed = t.search->timed;
    k.outcomes = t.search->outcomes;
    k.search_s = t.search->search_wall_s;
  } else {
    k.candidates = r.candidates;
    k.search_s = r.search_wall_s;
  }
}

void TuningSnapshotRecorder::RunProgress(const TuningProgress& p) {
  std::lock_guard<std::mutex> lock(mu_);
  snapshot_.progress = p;
  ++snapshot_.version;
}

}  // namespace tg::autotune
