// File: tinygrad/viz/viz_trace_check.cc
// Test tool: loads a viz trace file, replays every rewrite to its last step and prints a
// summary that the shell tests check:
//   groups 3, programs 2, rewrites 71, nodes 2210, matches 812
//   program E_4_4n1
//   replay mismatches 0
// Exit status 1 with the load error on stderr for a bad file.
#include <cstdio>
#include <string>

#include "tinygrad/viz/viz_graph.h"
#include "tinygrad/viz/viz_trace_json.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: viz_trace_check FILE\n");
    return 2;
  }
  absl::StatusOr<tg::VizTrace> t = tg::LoadVizTrace(argv[1]);
  if (!t.ok()) {
    std::fprintf(stderr, "%s\n", std::string(t.status().message()).c_str());
    return 1;
  }
  size_t programs = 0, matches = 0, mismatches = 0;
  for (const tg::VizGroup& g : t->groups) programs += g.program.has_value();
  for (const tg::VizRewrite& r : t->rewrites) matches += r.matches.size();
  std::printf("groups %zu, programs %zu, rewrites %zu, nodes %zu, matches %zu\n", t->groups.size(), programs,
              t->rewrites.size(), t->nodes.size(), matches);
  for (const tg::VizGroup& g : t->groups)
    if (g.program) std::printf("program %s\n", g.name.c_str());
  for (size_t i = 0; i < t->rewrites.size(); ++i) {
    absl::StatusOr<tg::VizReplay> replay = tg::VizReplay::Create(*t, i);
    absl::StatusOr<tg::VizGraph> g = replay->GraphAt(t->rewrites[i].matches.size());
    if (!g.ok() || g->nodes.back().id != t->rewrites[i].output) {
      ++mismatches;
      std::printf("mismatch: rewrite %zu (%s, group %s)\n", i, t->rewrites[i].name.c_str(),
                  t->groups[t->rewrites[i].group].name.c_str());
    }
  }
  std::printf("replay mismatches %zu\n", mismatches);
  return 0;
}
