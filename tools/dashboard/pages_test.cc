// File: tools/dashboard/pages_test.cc
// `tg db serve`'s JSON on a database with known records (order, speedups, unmeasured
// baselines as null), served over HTTP; `tg farm status --web`'s JSON from a scripted
// coordinator (an answer, then none); and both pages refusing a non-loopback address.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "autotune/db/tuning_db.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tools/dashboard/db_page.h"
#include "tools/dashboard/farm_page.h"
#include "tools/dashboard/test_records.h"

namespace tg::dashboard {
namespace {

using autotune::TuningRecord;
using nlohmann::json;

std::vector<TuningRecord> Records() {
  return {TestRecord(1, "dev-b", "r_8", 1e-3, 4e-3, 2e-3), TestRecord(2, "dev-a", "r_16", 2e-3, std::nullopt, 3e-3),
          TestRecord(3, "dev-a", "E_4", 5e-4, 1e-3, std::nullopt)};
}

std::vector<std::string> Kernels(const json& rows) {
  std::vector<std::string> out;
  for (const json& r : rows) out.push_back(r["kernel"]);
  return out;
}

TEST(DbRecordsJson, SortedByDeviceThenKernelWithSpeedups) {
  json rows = DbRecordsJson(Records());
  EXPECT_EQ(Kernels(rows), (std::vector<std::string>{"E_4", "r_16", "r_8"}));
  const json& r8 = rows[2];
  EXPECT_EQ(r8["device"], "dev-b");
  EXPECT_DOUBLE_EQ(r8["tuned_s"].get<double>(), 1e-3);
  EXPECT_DOUBLE_EQ(r8["vs_noopt"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(r8["vs_heuristic"].get<double>(), 2.0);
  EXPECT_EQ(r8["opts"], "UPCAST0:4");
  EXPECT_TRUE(rows[1]["noopt_s"].is_null());  // r_16: the unoptimized kernel never measured
  EXPECT_TRUE(rows[1]["vs_noopt"].is_null());
  EXPECT_DOUBLE_EQ(rows[1]["vs_heuristic"].get<double>(), 1.5);
  EXPECT_TRUE(rows[0]["vs_heuristic"].is_null());
}

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
  std::filesystem::remove(path);
  return path;
}

json Get(const web::LocalServer& server, const std::string& path) {
  httplib::Client client("127.0.0.1", server.port());
  httplib::Result r = client.Get(path);
  if (!r || r->status != 200) return nullptr;
  return json::parse(r->body, nullptr, false);
}

TEST(DbPage, ServesTheDatabasesRecords) {
  absl::StatusOr<std::unique_ptr<autotune::TuningDb>> db = autotune::OpenTuningDb(TempPath("pages.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  for (const TuningRecord& r : Records()) ASSERT_TRUE((*db)->Put(r).ok());
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server = ServeDbPage({}, db->get());
  ASSERT_TRUE(server.ok()) << server.status();
  json j = Get(**server, "/api/records");
  ASSERT_TRUE(j.is_object()) << j;
  EXPECT_EQ(j["db"], (*db)->location());
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(Kernels(j["records"]), (std::vector<std::string>{"E_4", "r_16", "r_8"}));
  EXPECT_DOUBLE_EQ(j["records"][0]["vs_noopt"].get<double>(), 2.0);
  // A record stored since shows on the next request.
  ASSERT_TRUE((*db)->Put(TestRecord(4, "dev-a", "A_1", 1e-3, 1e-3, 1e-3)).ok());
  EXPECT_EQ(Kernels(Get(**server, "/api/records")["records"]).front(), "A_1");
  // The page's files: the shared skeleton and this page's script.
  httplib::Client client("127.0.0.1", (*server)->port());
  httplib::Result index = client.Get("/");
  ASSERT_TRUE(index);
  EXPECT_NE(index->body.find("page.js"), std::string::npos);
  httplib::Result page = client.Get("/page.js");
  ASSERT_TRUE(page);
  EXPECT_NE(page->body.find("/api/records"), std::string::npos);
  EXPECT_TRUE(client.Get("/common.js"));
}

TEST(FarmPage, ShowsTheCoordinatorsAnswerOrWhyThereIsNone) {
  int calls = 0;
  auto fetch = [&]() -> absl::StatusOr<autotune::farm::FarmStatus> {
    if (++calls > 1) return absl::DeadlineExceededError("no answer from ipc://x (is a coordinator running there?)");
    autotune::farm::FarmStatus s;
    s.workers.push_back({.id = "w1", .device_class = "abc", .device = "CPU test", .capacity = 2, .in_flight = 1});
    s.classes.push_back({.device_class = "abc", .workers = 1, .slots = 2, .queued = 3, .in_flight = 1});
    s.requeued = 4;
    s.poisoned = 1;
    return s;
  };
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server = ServeFarmPage({}, "ipc://x", fetch);
  ASSERT_TRUE(server.ok()) << server.status();
  json j = Get(**server, "/api/farm");
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["endpoint"], "ipc://x");
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["status"]["workers"][0]["device"], "CPU test");
  EXPECT_EQ(j["status"]["classes"][0]["queued"], 3);
  EXPECT_EQ(j["status"]["counters"]["requeued"], 4);
  EXPECT_EQ(j["status"]["counters"]["poisoned"], 1);
  j = Get(**server, "/api/farm");
  EXPECT_FALSE(j["ok"].get<bool>());
  EXPECT_NE(j["error"].get<std::string>().find("no answer"), std::string::npos);
  EXPECT_TRUE(j["status"].is_null());
}

TEST(Pages, RefuseANonLoopbackAddressWithoutTheFlag) {
  absl::StatusOr<std::unique_ptr<autotune::TuningDb>> db = autotune::OpenTuningDb(TempPath("refuse.db"));
  ASSERT_TRUE(db.ok());
  absl::StatusOr<std::unique_ptr<web::LocalServer>> s = ServeDbPage({.host = "0.0.0.0"}, db->get());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("--allow-remote"), std::string::npos) << s.status();
  s = ServeFarmPage({.host = "192.0.2.1"}, "ipc://x", [] { return autotune::farm::FarmStatus{}; });
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tg::dashboard
