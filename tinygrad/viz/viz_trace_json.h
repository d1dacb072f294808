// File: tinygrad/viz/viz_trace_json.h
// VizTrace as JSON, the "tinygrad-cc viz trace" format, version 1:
//   {"format": "tinygrad-cc viz trace", "version": 1,
//    "nodes": [{"op", "dtype", "arg", "tag" (omitted when ""), "src": [ids]}],
//    "groups": [{"name", "rewrites": [indexes], "program": null | {"name", "device", "source", "linear"}}],
//    "rewrites": [{"name", "group", "depth", "bottom_up", "input", "output",
//                  "matches": [{"rule", "function", "before", "after", "ns"}]}],
//    "match_stats": [{"rule", "function", "code", "matches", "attempts", "ns"}]}
// Reading checks every field and every id (a source before its node, groups, rewrites and
// nodes in range), so that a viewer can index without checks; a bad file is an error naming
// the file and the field, never a crash.
//
// Example:
//   RETURN_IF_ERROR(SaveVizTrace(CaptureVizTrace(), "viz.json"));
//   ASSIGN_OR_RETURN(VizTrace t, LoadVizTrace("viz.json"));
#ifndef TINYGRAD_VIZ_VIZ_TRACE_JSON_H_
#define TINYGRAD_VIZ_VIZ_TRACE_JSON_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tinygrad/viz/viz_trace.h"

namespace tg {

inline constexpr char kVizTraceFormat[] = "tinygrad-cc viz trace";
inline constexpr int kVizTraceVersion = 1;

nlohmann::json VizTraceToJson(const VizTrace& trace);
// Errors name the bad field: "nodes[3].src[1]: 7 is not a node before 3".
absl::StatusOr<VizTrace> VizTraceFromJson(const nlohmann::json& j);

// Writes through a temporary file and renames it, so that a reader never sees half a trace.
absl::Status SaveVizTrace(const VizTrace& trace, const std::string& path);
// Errors start with the path.
absl::StatusOr<VizTrace> LoadVizTrace(const std::string& path);

}  // namespace tg

#endif  // TINYGRAD_VIZ_VIZ_TRACE_JSON_H_
