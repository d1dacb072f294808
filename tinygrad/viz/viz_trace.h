// File: tinygrad/viz/viz_trace.h
// What tinygrad's VIZ viewer reads (the reference's viz/serve.py over RewriteTrace): every
// graph_rewrite of a run, grouped per kernel, with its graphs as ids into one node table, the
// program each kernel became, and the TRACK_MATCH_STATS table. Plain data, saved and loaded as
// JSON (viz_trace_json.h; the layout is the "tinygrad-cc viz trace" version 1 format) and
// replayed step by step by GraphAtStep (viz_graph.h).
//
// Example:
//   SetTrackMatchStats(2);  // VIZ does this through Config
//   ... run kernels ...
//   VizTrace t = CaptureVizTrace();
//   for (const VizGroup& g : t.groups) std::cout << g.name << ": " << g.rewrites.size() << "\n";
#ifndef TINYGRAD_VIZ_VIZ_TRACE_H_
#define TINYGRAD_VIZ_VIZ_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tg {

// One UOp. Its id is its index in VizTrace::nodes; sources have smaller ids.
struct VizNode {
  std::string op;     // "ADD"
  std::string dtype;  // "dtypes.float"
  std::string arg;    // the arg's repr, "" for None
  std::string tag;    // the tag's repr, "" for None
  std::vector<size_t> src;
  bool operator==(const VizNode&) const = default;
};

struct VizProgram {
  std::string name;    // the kernel's name
  std::string device;  // "CPU"
  std::string source;  // the rendered source
  std::vector<std::string> linear;  // the linear program, one line per uop as DEBUG=6 prints it
  bool operator==(const VizProgram&) const = default;
};

// The rewrites of one tracked call (a kernel's get_program, a schedule).
struct VizGroup {
  std::string name;             // the kernel's name once known, "Schedule 3 Kernels", ...
  std::vector<size_t> rewrites;  // indexes into VizTrace::rewrites, in order
  std::optional<VizProgram> program;
  bool operator==(const VizGroup&) const = default;
};

struct VizMatch {
  std::string rule;      // "tinygrad/codegen/lower/devectorizer.cc:123", where the rule is written
  std::string function;  // the function the rule is written in
  size_t before = 0;     // the node the rule matched
  size_t after = 0;      // what it returned
  uint64_t ns = 0;
  bool operator==(const VizMatch&) const = default;
};

struct VizRewrite {
  std::string name;  // the pass
  size_t group = 0;
  int depth = 0;     // 0 at top level, + 1 for a rewrite run inside another's rule
  bool bottom_up = false;
  size_t input = 0;   // the sink before
  size_t output = 0;  // the sink after
  std::vector<VizMatch> matches;
  bool operator==(const VizRewrite&) const = default;
};

// One row of TRACK_MATCH_STATS=1's table.
struct VizRuleStats {
  std::string rule;      // "file:line" as in VizMatch::rule
  std::string function;
  std::string code;      // the rule's source line, "" when it could not be read
  uint64_t matches = 0;
  uint64_t attempts = 0;
  uint64_t ns = 0;       // time in all attempts
  bool operator==(const VizRuleStats&) const = default;
};

struct VizTrace {
  std::vector<VizNode> nodes;
  std::vector<VizGroup> groups;
  std::vector<VizRewrite> rewrites;
  std::vector<VizRuleStats> match_stats;  // slowest last
  bool operator==(const VizTrace&) const = default;
};

// The process-wide rewrite trace (TRACK_MATCH_STATS >= 2 records it) and match stats, now.
// Groups without rewrites or a program are left out.
VizTrace CaptureVizTrace();

}  // namespace tg

#endif  // TINYGRAD_VIZ_VIZ_TRACE_H_
