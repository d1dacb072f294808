// File: tools/dashboard/tune_dashboard_test.cc
// The tuning dashboard's /api/state: after an in-process tune of two tiny kernels (fake
// timing, so the searches are deterministic) its kernel rows say what the tuner returned
// (round, candidates, best time, speedups, opts, state); a farm's workers, queues and counters
// and the failures by kind come through; and a non-loopback address is refused.
#include "tools/dashboard/tune_dashboard.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "autotune/db/opts_text.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/tuner.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tinygrad/base/check.h"
#include "tinygrad/engine/device.h"

namespace tg::dashboard {
namespace {

using nlohmann::json;

json GetState(const TuneDashboard& d) {
  const std::string url = d.url();  // http://127.0.0.1:PORT/
  const int port = std::stoi(url.substr(url.rfind(':') + 1));
  httplib::Client client("127.0.0.1", port);
  httplib::Result r = client.Get("/api/state");
  if (!r || r->status != 200) return nullptr;
  return json::parse(r->body, nullptr, false);
}

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
  std::filesystem::remove(path);
  return path;
}

TEST(TuneDashboard, KernelRowsSayWhatTheTunerReturned) {
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  ASSERT_TRUE(dev.ok()) << dev.status();
  TuneDashboard dash("sum and add, BEAM=1");
  ASSERT_TRUE(dash.Start({}).ok());
  ASSERT_TRUE(dash.url().starts_with("http://127.0.0.1:")) << dash.url();
  std::vector<UOp> kernels = {autotune::SumKernel(8, 32), autotune::AddKernel(128)};
  dash.recorder().AddKernel(kernels[0], "sum");
  dash.recorder().AddKernel(kernels[1], "add");

  json before = GetState(dash);
  ASSERT_TRUE(before.is_object());
  ASSERT_EQ(before["kernels"].size(), 2u);
  EXPECT_EQ(before["kernels"][0]["state"], "queued");
  EXPECT_EQ(before["states"]["queued"], 2);
  EXPECT_TRUE(before["kernels"][0]["best_s"].is_null());
  EXPECT_FALSE(before["finished"].get<bool>());
  EXPECT_TRUE(before["farm"].is_null());

  absl::StatusOr<std::unique_ptr<autotune::LocalMeasurer>> m =
      autotune::LocalMeasurer::Create({.compile_threads = 1, .fake_timing = true});
  ASSERT_TRUE(m.ok()) << m.status();
  autotune::TunerOptions o{.beam = 1, .db = TempPath("dash.db"), .measurer = *std::move(m)};
  o.observer = &dash.recorder();
  absl::StatusOr<std::unique_ptr<autotune::Tuner>> tuner = autotune::Tuner::Create(o);
  ASSERT_TRUE(tuner.ok()) << tuner.status();
  std::vector<autotune::KernelTuning> got;
  for (const UOp& k : kernels) {
    absl::StatusOr<autotune::KernelTuning> t = (*tuner)->Tune(k, **dev);
    ASSERT_TRUE(t.ok()) << t.status();
    got.push_back(*std::move(t));
  }
  dash.recorder().MarkFinished();

  json after = GetState(dash);
  ASSERT_TRUE(after.is_object());
  EXPECT_TRUE(after["finished"].get<bool>());
  EXPECT_EQ(after["title"], "sum and add, BEAM=1");
  EXPECT_EQ(after["states"]["done"], 2);
  for (size_t i = 0; i < kernels.size(); ++i) {
    SCOPED_TRACE(i);
    const json& k = after["kernels"][i];
    const autotune::TuningRecord& rec = *got[i].record;
    ASSERT_TRUE(got[i].search.has_value());
    EXPECT_EQ(k["index"], i);
    EXPECT_EQ(k["name"], rec.kernel_name);
    EXPECT_EQ(k["state"], "done");
    EXPECT_EQ(k["round"], got[i].search->rounds);
    EXPECT_EQ(k["candidates"], got[i].search->candidates);
    EXPECT_EQ(k["timed"], got[i].search->timed);
    EXPECT_DOUBLE_EQ(k["best_s"].get<double>(), rec.time_s);
    EXPECT_DOUBLE_EQ(k["noopt_s"].get<double>(), *rec.noopt_time_s);
    EXPECT_DOUBLE_EQ(k["vs_noopt"].get<double>(), *rec.noopt_time_s / rec.time_s);
    EXPECT_EQ(k["opts"], autotune::OptsToShortText(rec.opts));
    ASSERT_FALSE(k["best_over_time"].empty());
    EXPECT_DOUBLE_EQ(k["best_over_time"].back()[1].get<double>(), rec.time_s);
  }
}

TEST(TuneDashboard, FarmAndFailures) {
  TuneDashboard dash("farm");
  ASSERT_TRUE(dash.Start({}).ok());
  UOp a = autotune::AddKernel(64);
  autotune::BeamProgress p{.phase = autotune::BeamProgress::Phase::kRound, .round = 1, .best_s = 1e-3};
  p.outcomes[static_cast<int>(autotune::Outcome::kOk)] = 5;
  p.outcomes[static_cast<int>(autotune::Outcome::kTooSlow)] = 2;    // not failures
  p.outcomes[static_cast<int>(autotune::Outcome::kDuplicate)] = 1;
  p.outcomes[static_cast<int>(autotune::Outcome::kCompileError)] = 3;
  p.outcomes[static_cast<int>(autotune::Outcome::kWorkerLost)] = 1;
  dash.recorder().SearchProgress(a, p);
  autotune::farm::FarmStatus fs;
  fs.workers.push_back({.id = "w1", .host = "h1", .device_class = "abc", .device = "CPU test", .capacity = 2,
                        .in_flight = 2});
  fs.workers.push_back({.id = "w2", .host = "h2", .device_class = "def", .device = "GPU test", .capacity = 1});
  fs.classes.push_back({.device_class = "abc", .workers = 1, .slots = 2, .queued = 5, .in_flight = 2});
  fs.requeued = 3;
  fs.poisoned = 1;
  dash.SetFarmStatus(fs);
  json s = GetState(dash);
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["failures"], (json{{"compile_error", 3}, {"worker_lost", 1}}));
  EXPECT_EQ(s["kernels"][0]["outcomes"]["too_slow"], 2);
  EXPECT_EQ(s["kernels"][0]["state"], "searching");
  ASSERT_EQ(s["farm"]["workers"].size(), 2u);
  EXPECT_EQ(s["farm"]["workers"][1]["device"], "GPU test");
  EXPECT_EQ(s["farm"]["classes"][0]["in_flight"], 2);
  EXPECT_EQ(s["farm"]["counters"]["requeued"], 3);
  EXPECT_EQ(s["farm"]["counters"]["poisoned"], 1);
}

TEST(TuneDashboard, RefusesANonLoopbackAddress) {
  TuneDashboard dash("x");
  absl::Status s = dash.Start({.host = "0.0.0.0"});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("refusing to serve on 0.0.0.0"), std::string::npos) << s;
  EXPECT_EQ(dash.url(), "");
  EXPECT_TRUE(dash.Start({.host = "127.0.0.1", .port = 0}).ok());
}

}  // namespace
}  // namespace tg::dashboard
