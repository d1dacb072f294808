// File: autotune/farm/farm_status_json.h
// FarmStatus (broker.h) as JSON: what the coordinator's status socket answers to a "json"
// request (any other request gets FormatFarmStatus text), and what the tuning dashboard pages
// show. One object:
//
//   {"workers":[{"id":"w1","host":"node7","device_class":"<digest>","device":"CPU x86-64 ...",
//                "build_id":"...","capacity":2,"credits":1,"in_flight":1,"last_seen_s":0.2,
//                "jobs":10,"errors":0,"lost":0,"deadline_misses":0,"overdue":0,
//                "unroutable":false}, ...],
//    "classes":[{"device_class":"<digest>","workers":1,"slots":2,"queued":0,"in_flight":1}],
//    "evicted":[{"id":"w3","host":"h","key":"<z85>","deadline_misses":3}],
//    "counters":{"submitted":12,"completed":10,...,"broker_cpu_s":0.5}}
//
// "counters" holds every scalar of FarmStatus under its field's name. Reading checks each
// field's type; a missing field is an error naming it (a newer build's extra fields are
// ignored). Nothing here throws.
//
// Not a port: tinygrad has no farm.
#ifndef AUTOTUNE_FARM_FARM_STATUS_JSON_H_
#define AUTOTUNE_FARM_FARM_STATUS_JSON_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/farm/broker.h"

namespace tg::autotune::farm {

// The request frame the status socket answers with FarmStatusToJson.
inline constexpr std::string_view kStatusJsonRequest = "json";

std::string FarmStatusToJson(const FarmStatus& s);
// Errors (InvalidArgument): not JSON (where it breaks), or which field is missing or wrong.
absl::StatusOr<FarmStatus> FarmStatusFromJson(std::string_view text);

}  // namespace tg::autotune::farm

#endif  // AUTOTUNE_FARM_FARM_STATUS_JSON_H_
