// File: autotune/farm/farm_status_json_test.cc
// FarmStatus survives JSON both ways field for field; bad input is an error naming the field.
#include "autotune/farm/farm_status_json.h"

#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace tg::autotune::farm {
namespace {

FarmStatus Sample() {
  FarmStatus s;
  s.workers.push_back(WorkerStatus{.id = "w1", .host = "node7", .device_class = "abc", .device = "CPU x86",
                                   .build_id = "b", .capacity = 2, .credits = 1, .in_flight = 1,
                                   .last_seen_s = 0.25, .jobs = 10, .errors = 1, .lost = 2,
                                   .deadline_misses = 3, .overdue = 1, .unroutable = true});
  s.classes.push_back({.device_class = "abc", .workers = 1, .slots = 2, .queued = 4, .in_flight = 1});
  s.evicted.push_back({.id = "w9", .host = "bad", .key = "zzz", .deadline_misses = 3});
  s.submitted = 12;
  s.completed = 10;
  s.pending = 2;
  s.requeued = 5;
  s.poisoned = 1;
  s.job_errors = 6;
  s.dead_workers = 7;
  s.speculative_losses = 8;
  s.broker_cpu_s = 1.5;
  return s;
}

TEST(FarmStatusJson, RoundTrip) {
  const FarmStatus s = Sample();
  absl::StatusOr<FarmStatus> back = FarmStatusFromJson(FarmStatusToJson(s));
  ASSERT_TRUE(back.ok()) << back.status();
  // Re-encoding gives the same text: every field made the trip.
  EXPECT_EQ(FarmStatusToJson(*back), FarmStatusToJson(s));
  ASSERT_EQ(back->workers.size(), 1u);
  EXPECT_EQ(back->workers[0].host, "node7");
  EXPECT_EQ(back->workers[0].deadline_misses, 3);
  EXPECT_TRUE(back->workers[0].unroutable);
  EXPECT_EQ(back->classes[0].queued, 4);
  EXPECT_EQ(back->evicted[0].key, "zzz");
  EXPECT_EQ(back->requeued, 5);
  EXPECT_EQ(back->poisoned, 1);
  EXPECT_EQ(back->speculative_losses, 8);
  EXPECT_EQ(back->broker_cpu_s, 1.5);
  nlohmann::json j = nlohmann::json::parse(FarmStatusToJson(s));
  EXPECT_EQ(j["counters"]["requeued"], 5);
  EXPECT_EQ(j["workers"][0]["device"], "CPU x86");
}

TEST(FarmStatusJson, ErrorsNameTheField) {
  EXPECT_NE(FarmStatusFromJson("workers: 1\n").status().message().find("not JSON"), std::string::npos);
  EXPECT_NE(FarmStatusFromJson("[1]").status().message().find("not a JSON object"), std::string::npos);
  nlohmann::json j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j["workers"][0]["capacity"] = "two";
  EXPECT_EQ(FarmStatusFromJson(j.dump()).status().message(), "workers[0].capacity: is not an integer");
  j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j["counters"].erase("poisoned");
  EXPECT_EQ(FarmStatusFromJson(j.dump()).status().message(), "counters.poisoned: is missing");
  j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j.erase("classes");
  EXPECT_EQ(FarmStatusFromJson(j.dump()).status().message(), "classes: is missing");
  j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j["classes"] = 3;
  EXPECT_EQ(FarmStatusFromJson(j.dump()).status().message(), "classes: is not an array");
  // an int field past int's range is an error, not a wrapped number
  j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j["workers"][0]["capacity"] = 4294967297LL;
  EXPECT_EQ(FarmStatusFromJson(j.dump()).status().message(),
            "workers[0].capacity: is out of range: 4294967297 (not in [-2147483648, 2147483647])");
  j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j["evicted"][0] = "x";
  EXPECT_EQ(FarmStatusFromJson(j.dump()).status().message(), "evicted[0]: is not an object");
  j = nlohmann::json::parse(FarmStatusToJson(Sample()));
  j["extra"] = 1;  // a newer build's field
  EXPECT_TRUE(FarmStatusFromJson(j.dump()).ok());
}

}  // namespace
}  // namespace tg::autotune::farm
