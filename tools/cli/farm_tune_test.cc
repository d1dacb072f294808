// File: tools/cli/farm_tune_test.cc
// The farm mode of `tg tune` as a coordinator bound on ipc:// with in-test workers (the
// `tg worker` processes of --workers N are the worker helper's): same winners as the
// in-process tuner with fake timing, stored in the database.
//
// Time: the broker, the workers and the measurers share a scripted clock that never moves, so
// nothing here is decided by how fast the machine is: no worker is ever declared dead or
// finds the coordinator silent, no compile counts as too slow, and every time compared is a
// fake one. Real time bounds only waits that end on any machine (workers joining, the Bye).
#include "tools/cli/farm_tune.h"

#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/farm/test_worker.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/wait_until.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg {
namespace {

TEST(FarmTuneTest, BoundCoordinatorTunesWithJoiningWorkers) {
  char tmpl[] = "/tmp/farm_tune_testXXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok());
  absl::StatusOr<autotune::DeviceClass> dc = autotune::DeviceClassFor(**dev);
  ASSERT_TRUE(dc.ok());
  const std::string ep = absl::StrCat("ipc://", dir, "/farm");
  std::vector<UOp> kernels = {autotune::MatmulKernel(16), autotune::AddKernel(256)};
  FakeClock clock;

  // Workers keep trying to connect until the coordinator binds (ZeroMQ reconnects).
  autotune::net::ZmqContext ctx;
  std::vector<std::unique_ptr<autotune::farm::TestWorker>> workers;
  for (int i = 0; i < 2; ++i) {
    auto m = autotune::LocalMeasurer::Create({.compile_threads = 1, .fake_timing = true, .clock = &clock});
    ASSERT_TRUE(m.ok());
    std::shared_ptr<autotune::LocalMeasurer> lm = *std::move(m);
    workers.push_back(std::make_unique<autotune::farm::TestWorker>(
        ctx, autotune::farm::TestWorkerOptions{
                 .endpoint = ep,
                 .id = absl::StrCat("w", i),
                 .device = *dc,
                 // The broker's interval (BrokerOptions' default): a worker waits 5 of the
                 // broker's heartbeats before it calls it silent, not 1.
                 .heartbeat = std::chrono::milliseconds(1000),
                 .clock = &clock,
                 .measure = [lm](const autotune::KernelTask& t, std::span<const std::vector<Opt>> c,
                                 const autotune::MeasureOptions& o) { return lm->Measure(t, c, o); }}));
  }
  autotune::SearchSettings settings;
  settings.width = 2;
  autotune::TunerOptions topts{.beam = 2, .db = absl::StrCat(dir, "/t.db"), .settings = settings};
  int lines = 0;
  absl::StatusOr<std::vector<autotune::KernelTuning>> r =
      FarmTuneKernels(kernels, **dev, topts, {.bind = ep, .wait_for_workers_s = 30, .clock = &clock},
                      [&](const std::string&) { ++lines; });
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_GT(lines, 0);
  // The in-process tuner with fake timing picks the same opts.
  auto lm = autotune::LocalMeasurer::Create({.fake_timing = true, .clock = &clock});
  ASSERT_TRUE(lm.ok());
  autotune::TunerOptions local{.beam = 2, .ignore_cache = true, .db = absl::StrCat(dir, "/local.db"),
                               .settings = settings, .measurer = std::shared_ptr<autotune::Measurer>(*std::move(lm))};
  auto tuner = autotune::Tuner::Create(local);
  ASSERT_TRUE(tuner.ok());
  for (size_t k = 0; k < kernels.size(); ++k) {
    absl::StatusOr<autotune::KernelTuning> want = (*tuner)->Tune(kernels[k], **dev);
    ASSERT_TRUE(want.ok());
    ASSERT_TRUE((*r)[k].record.has_value());
    EXPECT_EQ((*r)[k].record->opts, want->record->opts) << k;
    EXPECT_EQ((*r)[k].record->time_s, want->record->time_s) << k;
  }
  // The workers heard Bye.
  ASSERT_TRUE(WaitUntil([&] { return workers[0]->byes_received() > 0; })) << "no Bye";
  EXPECT_EQ(workers[0]->byes_received(), 1);
  workers.clear();
  std::filesystem::remove_all(dir);
}

// Tuning for a CPU target (tg tune --cpu-target): the coordinator's device class is the target's,
// and jobs go only to workers that announced it (tg worker --cpu-target), never to a worker of
// the host's own class on the same machine. The records are stored under the target's class.
TEST(FarmTuneTest, ACpuTargetRoutesOnlyToWorkersOfThatTarget) {
  if (absl::Status s = CheckCpuTarget("x86-64-v3"); !s.ok()) GTEST_SKIP() << s;
  char tmpl[] = "/tmp/farm_tune_testXXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  DeviceOptions v3_options = DeviceOptions::FromConfig(GetConfig());
  v3_options.cpu.cpu_target = "x86-64-v3";
  absl::StatusOr<Device*> native = GetDevice("CPU");
  absl::StatusOr<Device*> v3 = GetDevice("CPU", v3_options);
  ASSERT_TRUE(native.ok() && v3.ok());
  absl::StatusOr<autotune::DeviceClass> native_class = autotune::DeviceClassFor(**native);
  absl::StatusOr<autotune::DeviceClass> v3_class = autotune::DeviceClassFor(**v3);
  ASSERT_TRUE(native_class.ok() && v3_class.ok());
  ASSERT_NE(native_class->Digest(), v3_class->Digest());
  const std::string ep = absl::StrCat("ipc://", dir, "/farm");
  std::vector<UOp> kernels = {autotune::MatmulKernel(16)};
  FakeClock clock;
  autotune::net::ZmqContext ctx;
  auto worker = [&](const std::string& id, const autotune::DeviceClass& dc) {
    // default measurement: every candidate ok with a fake time from its opts
    return std::make_unique<autotune::farm::TestWorker>(
        ctx, autotune::farm::TestWorkerOptions{
                 .endpoint = ep, .id = id, .device = dc, .heartbeat = std::chrono::milliseconds(1000), .clock = &clock});
  };
  std::unique_ptr<autotune::farm::TestWorker> host_worker = worker("native", *native_class);
  std::unique_ptr<autotune::farm::TestWorker> target_worker = worker("v3", *v3_class);
  autotune::SearchSettings settings;
  settings.width = 2;
  const std::string db = absl::StrCat(dir, "/t.db");
  autotune::TunerOptions topts{.beam = 2, .db = db, .settings = settings};
  absl::StatusOr<std::vector<autotune::KernelTuning>> r =
      FarmTuneKernels(kernels, **v3, topts, {.bind = ep, .wait_for_workers_s = 30, .clock = &clock},
                      [](const std::string&) {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 1u);
  ASSERT_TRUE((*r)[0].record.has_value());
  EXPECT_EQ((*r)[0].record->key.device, v3_class->Digest());
  EXPECT_GT(target_worker->jobs(), 0);
  EXPECT_EQ(host_worker->received(), 0) << "a job went to a worker of another device class";
  host_worker.reset();
  target_worker.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tg
