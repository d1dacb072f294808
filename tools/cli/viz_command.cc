// File: tools/cli/viz_command.cc
#include "tools/cli/viz_command.h"

#include <cstdio>
#include <optional>
#include <string>

#include "tinygrad/base/config.h"
#include "tinygrad/viz/viz_save.h"
#include "tinygrad/viz/viz_trace_json.h"
#include "tools/cli/command_line.h"
#include "tools/cli/serve_flags.h"
#include "tools/viz/viz_server.h"
#include "tools/web/local_server.h"

namespace tg {

constexpr char kDescription[] =
    "Serves the VIZ viewer on a saved rewrite trace: every kernel's graph rewrites, each match's\n"
    "graph (changed nodes highlighted) with its rule and source location, the kernel's source and\n"
    "linear program, and the match-stats table. `VIZ=-1 tools/tg run WORKLOAD` saves a trace;\n"
    "`VIZ=1 tools/tg run WORKLOAD` serves one right after the run. Prints \"VIZ: <url>\" and serves\n"
    "until Ctrl-C, on loopback only unless --allow-remote (the page has no authentication).";

int VizCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg viz");
  SetUpCommandApp(app);
  std::string path;
  web::ServeOptions options;
  app.add_option("FILE", path, "the trace (default: where VIZ=-1 saves it: VIZ_PATH, else <cache dir>/viz.json)");
  AddServeFlags(app, options);
  viz::VizOptions viz_options;
  app.add_option("--max-nodes", viz_options.max_nodes,
                 "larger graphs are not drawn (Graphviz takes seconds per 1000 nodes)")
      ->capture_default_str()
      ->check(IntAtLeast(1));
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (std::optional<int> rc = CheckServeFlags(options, "viz")) return *rc;

  const bool default_path = path.empty();
  if (default_path) path = VizTracePath(GetConfig());
  absl::StatusOr<VizTrace> trace = LoadVizTrace(path);
  if (!trace.ok()) {
    std::fprintf(stderr, "tg viz: %s\n", std::string(trace.status().message()).c_str());
    if (default_path) std::fprintf(stderr, "tg viz: VIZ=-1 tools/tg run WORKLOAD saves a trace there\n");
    return kExitFailed;
  }
  if (absl::Status s = viz::ServeViz(*std::move(trace), options, viz_options); !s.ok()) {
    std::fprintf(stderr, "tg viz: %s\n", std::string(s.message()).c_str());
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace tg
