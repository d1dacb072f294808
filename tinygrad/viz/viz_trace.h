// File: tinygrad/viz/viz_trace.h
// INTERIM STAND-IN (viz-page branch): the VIZ trace data of /tmp's agreed format, version 1,
// until the viz-trace branch's library lands; replaced by it at merge. Only what the viewer
// needs: the structs, LoadVizTrace and GraphAtStep.
#ifndef TINYGRAD_VIZ_VIZ_TRACE_H_
#define TINYGRAD_VIZ_VIZ_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace tg {

struct VizNode {
  std::string op, dtype, arg;
  std::vector<size_t> src;
};

struct VizProgram {
  std::string name, device, source;
  std::vector<std::string> linear;
};

struct VizGroup {
  std::string name;
  std::vector<size_t> rewrites;
  std::optional<VizProgram> program;
};

struct VizMatch {
  std::string rule, function;
  size_t before = 0, after = 0;
  int64_t ns = 0;
};

struct VizRewrite {
  std::string name;
  size_t group = 0;
  int depth = 0;
  bool bottom_up = false;
  size_t input = 0, output = 0;
  std::vector<VizMatch> matches;
};

struct VizMatchStat {
  std::string rule, function;
  int64_t matches = 0, attempts = 0, ns = 0;
};

struct VizTrace {
  std::vector<VizNode> nodes;
  std::vector<VizGroup> groups;
  std::vector<VizRewrite> rewrites;
  std::vector<VizMatchStat> match_stats;
};

struct VizGraphNode {
  size_t id = 0;
  std::string op, dtype, arg;
  std::vector<size_t> src;
  bool changed = false, matched = false;
};

struct VizGraph {
  std::vector<VizGraphNode> nodes;  // topological: sources first, the sink last
};

absl::StatusOr<VizTrace> VizTraceFromJson(const nlohmann::json& j);
absl::StatusOr<VizTrace> LoadVizTrace(const std::string& path);
absl::StatusOr<VizGraph> GraphAtStep(const VizTrace& trace, size_t rewrite, size_t step);

}  // namespace tg

#endif  // TINYGRAD_VIZ_VIZ_TRACE_H_
