// File: tools/viz/viz_server.h
// The VIZ viewer's server: the page (tools/viz/page, compiled in) and its JSON API over one
// loaded trace, like tinygrad's viz/serve.py.
//
//   GET /api/kernels                     the groups (kernels, schedules) and their rewrites:
//                                        {"kernels":[{"kernel","name","program",
//                                          "rewrites":[{"rewrite","name","depth","matches",...}]}]}
//   GET /api/rewrite?rewrite=R           one rewrite's matches: rule, function, ns per step
//   GET /api/step?rewrite=R&step=S       the graph after S matches (0: the input): SVG laid out
//                                        by Graphviz (nodes match S made: class "changed"; the
//                                        node match S+1 rewrites: "matched"), node counts, the
//                                        rule of match S, its location and source line
//   GET /api/program?kernel=K            the kernel's rendered source and linear program
//   GET /api/match_stats                 the TRACK_MATCH_STATS table, slowest rule first
//
// Errors are JSON {"error": "..."}: 400 for a malformed parameter, 404 for one out of range,
// 503 for a step whose layout waited VizOptions::layout_wait for another graph's. Graphs with
// more than max_nodes drawn nodes are not laid out (a message says why), so a huge trace cannot
// hold the server up.
//
// Example:
//   ASSIGN_OR_RETURN(VizTrace trace, LoadVizTrace(path));
//   RETURN_IF_ERROR(ServeViz(std::move(trace), {.port = 8000}));  // prints "VIZ: <url>", until Ctrl-C
#ifndef TOOLS_VIZ_VIZ_SERVER_H_
#define TOOLS_VIZ_VIZ_SERVER_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tinygrad/viz/viz_graph.h"
#include "tinygrad/viz/viz_trace.h"
#include "tools/web/local_server.h"

namespace tg::viz {

struct VizOptions {
  // Larger graphs are not laid out: Graphviz's dot took 5 s for 1000 nodes and 30-55 s for
  // 2000 (a chain with skip edges, on a loaded 2-core machine), holding up every other step.
  size_t max_nodes = 1000;
  size_t cache_steps = 256;  // rendered steps kept
  // Graphs are laid out one at a time (Graphviz's context is not thread-safe). A step that
  // finds another layout in progress waits this long for it, then is answered 503 with a
  // message saying so, instead of holding one of the server's threads (with enough of them
  // held, even the page itself would wait).
  absl::Duration layout_wait = absl::Seconds(2);
  // DOT text -> SVG; tests put a stand-in here. Unset: Graphviz (RenderDotToSvg).
  std::function<absl::StatusOr<std::string>(const std::string&)> layout;
};

// A reply of the API: an HTTP status and its JSON body.
struct ApiReply {
  int status = 200;
  nlohmann::json body;
};

class VizApi {
 public:
  explicit VizApi(VizTrace trace, VizOptions options = {});

  nlohmann::json Kernels() const;
  ApiReply Rewrite(size_t rewrite) const;
  ApiReply Step(size_t rewrite, size_t step);  // cached per (rewrite, step)
  ApiReply Program(size_t kernel) const;
  nlohmann::json MatchStats() const;

  // Registers the page and the routes above on `server`; `this` must outlive it.
  void AddRoutes(httplib::Server& server);

 private:
  ApiReply RenderStep(size_t rewrite, size_t step);
  // The SVG of `dot`, or a 503 reply when another layout kept it waiting too long.
  absl::StatusOr<std::string> Layout(const std::string& dot, size_t nodes, ApiReply* busy);

  const VizTrace trace_;
  const VizOptions options_;
  absl::flat_hash_map<std::string, std::string> rule_code_;  // rule -> its source line
  absl::Mutex mu_;
  std::map<std::pair<size_t, size_t>, nlohmann::json> steps_ ABSL_GUARDED_BY(mu_);
  absl::Mutex layout_mu_;
  bool layout_free_ ABSL_GUARDED_BY(layout_mu_) = true;
  size_t layout_nodes_ ABSL_GUARDED_BY(layout_mu_) = 0;  // of the graph being laid out
};

// Serves `trace` on `options` (loopback unless allow_remote), prints "VIZ: <url>" to stdout
// and blocks until Ctrl-C. Errors: the address (see LocalServer::Start).
absl::Status ServeViz(VizTrace trace, const web::ServeOptions& options, VizOptions viz = {});

}  // namespace tg::viz

#endif  // TOOLS_VIZ_VIZ_SERVER_H_
