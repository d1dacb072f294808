// File: autotune/tuning_snapshot.h
// Where a tuning run stands, kernel by kernel, as a value a display can copy at any time: the
// state behind `tg tune --dashboard`. TuningSnapshotRecorder is a TuningObserver (driver.h)
// that the caller passes to the run (DriverOptions::observer, TunerOptions::observer); another
// thread (an HTTP handler) reads Snapshot() while the run goes on.
//
// Not a port: tinygrad shows a search as one progress line.
//
// Example:
//   TuningSnapshotRecorder recorder;
//   for (const UOp& k : kernels) recorder.AddKernel(k, name_of(k));  // listed as queued
//   topts.observer = &recorder;
//   ... run the tuner; meanwhile, on any thread:
//   TuningSnapshot s = recorder.Snapshot();  // s.kernels[i].state, .best_s, .best_over_time
#ifndef AUTOTUNE_TUNING_SNAPSHOT_H_
#define AUTOTUNE_TUNING_SNAPSHOT_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "autotune/driver.h"

namespace tg::autotune {

enum class KernelState { kQueued, kSearching, kDone, kCached, kFailed };
std::string_view KernelStateName(KernelState s);  // "queued", "searching", "done", "cached", "failed"

// A point of a search's best-time curve: the best time known `search_s` into the search.
struct BestPoint {
  double search_s = 0;
  double best_s = 0;
  friend bool operator==(const BestPoint&, const BestPoint&) = default;
};

struct KernelSnapshot {
  std::string name;           // AddKernel's, or the record's kernel name
  KernelState state = KernelState::kQueued;
  std::string phase;          // of a search: "baselines", "round", "finalists", "done"; "" before
  int round = 0;              // rounds finished
  int64_t candidates = 0;     // candidates measured by the search so far
  int64_t timed = 0;          // of those, timed
  double best_s = kInf;       // best time so far: the winner's once done
  double noopt_s = kInf;      // the unoptimized kernel's time (kInf: not measured yet)
  double heuristic_s = kInf;  // the heuristic's
  double search_s = 0;        // how long it has searched (its search's own clock)
  std::vector<Opt> best_opts;
  // The best time each time it improved (and once more at the end): the plot's line.
  std::vector<BestPoint> best_over_time;
  std::array<int64_t, kNumOutcomes> outcomes{};  // candidates by Outcome
  std::string error;          // why it failed
};

struct TuningSnapshot {
  std::vector<KernelSnapshot> kernels;  // in the order they were added or seen
  TuningProgress progress;              // the run's counters (in flight, measured, ...)
  bool finished = false;                // MarkFinished() was called
  int64_t version = 0;                  // counts the events recorded (a display's "changed?")
};

class TuningSnapshotRecorder : public TuningObserver {
 public:
  // Lists a kernel (queued) under `name` before the run sees it; a kernel met first in a run
  // is listed then, named "kernel <n>" until its record names it.
  void AddKernel(const UOp& ast, std::string name);
  // The run (all of it: a caller may run the tuner once per kernel) is over.
  void MarkFinished();
  TuningSnapshot Snapshot() const;

  void RunStarted(std::span<const UOp> asts) override;
  void SearchStarted(const UOp& ast) override;
  void SearchProgress(const UOp& ast, const BeamProgress& p) override;
  void KernelDone(const KernelTuning& t) override;
  void RunProgress(const TuningProgress& p) override;

 private:
  KernelSnapshot& Row(const UOp& ast) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable std::mutex mu_;
  TuningSnapshot snapshot_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, size_t> rows_ ABSL_GUARDED_BY(mu_);  // by UOp::key()
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_TUNING_SNAPSHOT_H_
