// File: tinygrad/viz/viz_trace.cc
#include "tinygrad/viz/viz_trace.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/rewrite_trace.h"

namespace tg {
namespace {

std::string RuleName(const std::source_location& where) {
  return absl::StrCat(std::string(where.file_name()), ":", where.line());
}

}  // namespace

VizTrace CaptureVizTrace() {
  RewriteTrace rt = SnapshotRewriteTrace();
  VizTrace t;
  t.nodes.reserve(rt.nodes.size());
  for (const TracedNode& n : rt.nodes)
    t.nodes.push_back({std::string(OpName(n.op)), n.dtype, n.arg, n.tag, n.src});
  // Groups that recorded nothing (a get_program whose rewrites were all untracked) are dropped,
  // so group indexes are renumbered.
  std::vector<std::vector<size_t>> rewrites_of(rt.groups.size());
  for (size_t i = 0; i < rt.rewrites.size(); ++i) rewrites_of[rt.rewrites[i].group].push_back(i);
  std::vector<size_t> new_group(rt.groups.size(), 0);
  for (size_t g = 0; g < rt.groups.size(); ++g) {
    if (rewrites_of[g].empty() && !rt.programs[g]) continue;
    new_group[g] = t.groups.size();
    VizGroup vg{.name = rt.groups[g], .rewrites = rewrites_of[g], .program = std::nullopt};
    if (const std::optional<TracedProgram>& p = rt.programs[g])
      vg.program = VizProgram{p->name, p->device, p->source, p->linear};
    t.groups.push_back(std::move(vg));
  }
  t.rewrites.reserve(rt.rewrites.size());
  for (const TracedRewrite& r : rt.rewrites) {
    VizRewrite vr{.name = r.name, .group = new_group[r.group], .depth = r.depth, .bottom_up = r.bottom_up,
                  .input = r.input, .output = r.output, .matches = {}};
    vr.matches.reserve(r.matches.size());
    for (const TracedMatch& m : r.matches)
      vr.matches.push_back({RuleName(m.rule), m.rule.function_name(), m.before_id, m.after_id, m.ns});
    t.rewrites.push_back(std::move(vr));
  }
  for (const MatchStatsRow& row : SnapshotMatchStats().rows) {
    std::string code = SourceLineAt(row.where);
    t.match_stats.push_back({RuleName(row.where), row.where.function_name(), code == "<missing>" ? "" : code,
                             row.matches, row.attempts, row.total_ns});
  }
  return t;
}

}  // namespace tg
