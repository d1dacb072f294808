// File: autotune/tuning_snapshot_test.cc
// The dashboard's recorder: scripted events give exact rows (state, round, best curve,
// baselines, failures by kind), and a real driver run over a fake-timed measurer leaves rows
// that agree with what the driver returned (rounds, candidates, winner's time, opts), with
// cached kernels and a second run of the same recorder.
#include "autotune/tuning_snapshot.h"

#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "gtest/gtest.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune {
namespace {

BeamProgress Step(BeamProgress::Phase phase, int round, double best, double elapsed) {
  return BeamProgress{.phase = phase, .round = round, .best_s = best, .elapsed_s = elapsed};
}

TEST(TuningSnapshotRecorder, ScriptedSearch) {
  TuningSnapshotRecorder r;
  UOp a = AddKernel(64), b = SumKernel(4, 8);
  r.AddKernel(a, "E_64");
  r.RunStarted(std::vector<UOp>{a, b});
  TuningSnapshot s = r.Snapshot();
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].name, "E_64");
  EXPECT_EQ(s.kernels[1].name, "kernel 2");  // met first in the run
  EXPECT_EQ(s.kernels[0].state, KernelState::kQueued);
  EXPECT_FALSE(s.finished);

  r.SearchStarted(a);
  BeamProgress base = Step(BeamProgress::Phase::kBaseline, 0, 2e-3, 0.5);
  base.noopt_s = 4e-3;
  base.heuristic_s = 2e-3;
  base.total_candidates = 2;
  base.total_timed = 2;
  r.SearchProgress(a, base);
  BeamProgress r1 = Step(BeamProgress::Phase::kRound, 1, 1e-3, 1.5);
  r1.noopt_s = 4e-3;
  r1.heuristic_s = 2e-3;
  r1.total_candidates = 12;
  r1.total_timed = 9;
  r1.outcomes[static_cast<int>(Outcome::kOk)] = 9;
  r1.outcomes[static_cast<int>(Outcome::kCompileError)] = 3;
  r.SearchProgress(a, r1);
  BeamProgress r2 = r1;  // a round without progress: no new point
  r2.round = 2;
  r2.elapsed_s = 2.5;
  r.SearchProgress(a, r2);
  s = r.Snapshot();
  const KernelSnapshot& k = s.kernels[0];
  EXPECT_EQ(k.state, KernelState::kSearching);
  EXPECT_EQ(k.phase, "round");
  EXPECT_EQ(k.round, 2);
  EXPECT_EQ(k.best_s, 1e-3);
  EXPECT_EQ(k.search_s, 2.5);
  EXPECT_EQ(k.best_over_time, (std::vector<BestPoint>{{0.5, 2e-3}, {1.5, 1e-3}}));
  EXPECT_EQ(s.kernels[1].state, KernelState::kQueued);

  EXPECT_EQ(k.noopt_s, 4e-3);
  EXPECT_EQ(k.heuristic_s, 2e-3);
  EXPECT_EQ(k.candidates, 12);
  EXPECT_EQ(k.timed, 9);
  EXPECT_EQ(k.outcomes[static_cast<int>(Outcome::kCompileError)], 3);

  KernelTuning failed{.ast = b, .status = absl::InternalError("the task cannot run")};
  r.KernelDone(failed);
  r.RunProgress(TuningProgress{.kernels = 2, .done = 1, .failed = 1, .in_flight = 3});
  r.MarkFinished();
  s = r.Snapshot();
  EXPECT_EQ(s.kernels[1].state, KernelState::kFailed);
  EXPECT_EQ(s.kernels[1].error, "the task cannot run");
  EXPECT_EQ(s.progress.in_flight, 3);
  EXPECT_TRUE(s.finished);
}

// Readers on another thread while events come: each snapshot is whole (run under TSan/ASan
// this is where a missing lock shows).
TEST(TuningSnapshotRecorder, ReadWhileRecording) {
  TuningSnapshotRecorder r;
  UOp a = AddKernel(64);
  std::thread reader([&] {
    for (int i = 0; i < 2000; ++i) {
      TuningSnapshot s = r.Snapshot();
      for (const KernelSnapshot& k : s.kernels) ASSERT_LE(k.best_over_time.size(), 1000u);
    }
  });
  for (int i = 0; i < 1000; ++i) r.SearchProgress(a, Step(BeamProgress::Phase::kRound, i, 1.0 / (i + 1), i));
  reader.join();
  EXPECT_EQ(r.Snapshot().kernels[0].best_over_time.size(), 1000u);
}

// A real run through the driver: the rows say what the driver returned.
TEST(TuningSnapshotRecorder, DriverRunAgreesWithItsResults) {
  std::vector<UOp> ks = {SumKernel(8, 32), AddKernel(128)};
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create({.compile_threads = 1, .fake_timing = true});
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<Device*> cpu = GetDevice("CPU");
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  absl::StatusOr<DeviceClass> dc = DeviceClassFor(**cpu);
  ASSERT_TRUE(dc.ok()) << dc.status();
  const std::string db_path = ::testing::TempDir() + "/snapshot.db";
  std::filesystem::remove(db_path);
  absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenTuningDb(db_path);
  ASSERT_TRUE(db.ok()) << db.status();
  TuningSnapshotRecorder rec;
  SearchSettings settings;
  settings.width = 1;
  DriverOptions o{.measurer = m->get(), .db = db->get(), .device_class = *dc, .renderer = &(*cpu)->renderer(),
                  .settings = settings, .observer = &rec};
  absl::StatusOr<std::vector<KernelTuning>> got = TuneKernels(ks, o);
  ASSERT_TRUE(got.ok()) << got.status();
  TuningSnapshot s = rec.Snapshot();
  ASSERT_EQ(s.kernels.size(), ks.size());
  EXPECT_EQ(s.progress.done, 2);
  for (size_t i = 0; i < ks.size(); ++i) {
    SCOPED_TRACE(i);
    const KernelTuning& t = (*got)[i];
    const KernelSnapshot& k = s.kernels[i];
    ASSERT_TRUE(t.search.has_value());
    EXPECT_EQ(k.state, KernelState::kDone);
    EXPECT_EQ(k.name, t.record->kernel_name);
    EXPECT_EQ(k.round, t.search->rounds);
    EXPECT_GE(k.round, 1);
    EXPECT_EQ(k.candidates, t.search->candidates);
    EXPECT_EQ(k.timed, t.search->timed);
    EXPECT_EQ(k.best_s, t.record->time_s);
    EXPECT_EQ(k.best_opts, t.record->opts);
    EXPECT_EQ(k.noopt_s, t.search->noopt_s);
    EXPECT_EQ(k.outcomes, t.search->outcomes);
    // The curve never rises during the search, and ends at the winner's final time.
    ASSERT_FALSE(k.best_over_time.empty());
    for (size_t j = 1; j + 1 < k.best_over_time.size(); ++j) {
      EXPECT_LE(k.best_over_time[j].best_s, k.best_over_time[j - 1].best_s);
      EXPECT_GE(k.best_over_time[j].search_s, k.best_over_time[j - 1].search_s);
    }
    EXPECT_EQ(k.best_over_time.back().best_s, t.record->time_s);
  }

  // The same recorder on a second run: the database answers, the rows say "cached".
  o.observer = &rec;
  got = TuneKernels(ks, o);
  ASSERT_TRUE(got.ok()) << got.status();
  s = rec.Snapshot();
  ASSERT_EQ(s.kernels.size(), ks.size());
  for (const KernelSnapshot& k : s.kernels) EXPECT_EQ(k.state, KernelState::kCached);
}

}  // namespace
}  // namespace tg::autotune
