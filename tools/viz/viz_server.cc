// File: tools/viz/viz_server.cc
#include "tools/viz/viz_server.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/viz/graph_dot.h"
#include "tools/viz/viz_assets.h"

namespace tg::viz {
namespace {

ApiReply Error(int status, std::string message) {
  return {status, {{"error", std::move(message)}}};
}

nlohmann::json NodeJson(const VizTrace& trace, size_t id) {
  if (id >= trace.nodes.size()) return nullptr;
  const VizNode& n = trace.nodes[id];
  return {{"id", id}, {"op", n.op}, {"dtype", n.dtype}, {"arg", n.arg}};
}

// A query parameter as an index: present and all digits, else a 400 reply naming it.
std::optional<size_t> IndexParam(const httplib::Request& request, const char* name, ApiReply* error) {
  const std::string text = request.get_param_value(name);
  uint64_t value = 0;
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      !absl::SimpleAtoi(text, &value)) {
    *error = Error(400, absl::StrCat("parameter '", name, "' must be a non-negative integer, not '",
                                     text.substr(0, 40), "'"));
    return std::nullopt;
  }
  return static_cast<size_t>(value);
}

void Reply(httplib::Response& response, const ApiReply& reply) {
  web::SetJson(response, reply.body);
  response.status = reply.status;
}

}  // namespace

VizApi::VizApi(VizTrace trace, VizOptions options) : trace_(std::move(trace)), options_(options) {
  for (const VizRuleStats& s : trace_.match_stats) rule_code_[s.rule] = s.code;
}

nlohmann::json VizApi::Kernels() const {
  nlohmann::json kernels = nlohmann::json::array();
  for (size_t k = 0; k < trace_.groups.size(); ++k) {
    const VizGroup& g = trace_.groups[k];
    nlohmann::json rewrites = nlohmann::json::array();
    for (size_t r : g.rewrites) {
      if (r >= trace_.rewrites.size()) continue;
      const VizRewrite& rw = trace_.rewrites[r];
      rewrites.push_back({{"rewrite", r}, {"name", rw.name}, {"depth", rw.depth},
                          {"bottom_up", rw.bottom_up}, {"matches", rw.matches.size()}});
    }
    kernels.push_back({{"kernel", k}, {"name", g.name}, {"program", g.program.has_value()},
                       {"rewrites", std::move(rewrites)}});
  }
  return {{"kernels", std::move(kernels)}, {"match_stats", !trace_.match_stats.empty()}};
}

ApiReply VizApi::Rewrite(size_t rewrite) const {
  if (rewrite >= trace_.rewrites.size()) {
    return Error(404, absl::StrCat("no rewrite ", rewrite, ": the trace has ", trace_.rewrites.size()));
  }
  const VizRewrite& rw = trace_.rewrites[rewrite];
  nlohmann::json matches = nlohmann::json::array();
  for (const VizMatch& m : rw.matches) {
    matches.push_back({{"rule", m.rule}, {"function", m.function}, {"ns", m.ns}});
  }
  return {200,
          {{"rewrite", rewrite}, {"name", rw.name}, {"kernel", rw.group}, {"depth", rw.depth},
           {"bottom_up", rw.bottom_up}, {"steps", rw.matches.size() + 1}, {"matches", std::move(matches)}}};
}

ApiReply VizApi::Step(size_t rewrite, size_t step) {
  {
    absl::MutexLock lock(&mu_);
    if (auto it = steps_.find({rewrite, step}); it != steps_.end()) return {200, it->second};
  }
  ApiReply reply = RenderStep(rewrite, step);
  if (reply.status == 200) {
    absl::MutexLock lock(&mu_);
    if (steps_.size() >= options_.cache_steps) steps_.clear();
    steps_[{rewrite, step}] = reply.body;
  }
  return reply;
}

absl::StatusOr<std::string> VizApi::Layout(const std::string& dot, size_t nodes, ApiReply* busy) {
  {
    // Held only to look at the flag: the layout itself runs unlocked.
    layout_mu_.Lock();
    if (!layout_mu_.AwaitWithTimeout(absl::Condition(&layout_free_), options_.layout_wait)) {
      *busy = Error(503, absl::StrCat("another graph (", layout_nodes_, " nodes) is being laid out; this one (",
                                      nodes, " nodes) waited ", absl::FormatDuration(options_.layout_wait),
                                      " for it: ask again in a moment"));
      layout_mu_.Unlock();
      return absl::UnavailableError("busy");
    }
    layout_free_ = false;
    layout_nodes_ = nodes;
    layout_mu_.Unlock();
  }
  absl::StatusOr<std::string> svg = options_.layout ? options_.layout(dot) : RenderDotToSvg(dot);
  absl::MutexLock lock(&layout_mu_);
  layout_free_ = true;
  return svg;
}

ApiReply VizApi::RenderStep(size_t rewrite, size_t step) {
  if (rewrite >= trace_.rewrites.size()) {
    return Error(404, absl::StrCat("no rewrite ", rewrite, ": the trace has ", trace_.rewrites.size()));
  }
  const VizRewrite& rw = trace_.rewrites[rewrite];
  if (step > rw.matches.size()) {
    return Error(404, absl::StrCat("rewrite ", rewrite, " (", rw.name, ") has steps 0..",
                                   rw.matches.size(), ", not ", step));
  }
  absl::StatusOr<VizGraph> graph = GraphAtStep(trace_, rewrite, step);
  if (!graph.ok()) return Error(404, std::string(graph.status().message()));
  nlohmann::json body = {{"rewrite", rewrite}, {"step", step}, {"steps", rw.matches.size() + 1},
                         {"name", rw.name}, {"nodes", graph->nodes.size()}};
  if (step > 0) {
    const VizMatch& m = rw.matches[step - 1];
    body["rule"] = m.rule;
    body["function"] = m.function;
    body["ns"] = m.ns;
    auto code = rule_code_.find(m.rule);
    body["code"] = code != rule_code_.end() ? code->second : "";
    body["before"] = NodeJson(trace_, m.before);
    body["after"] = NodeJson(trace_, m.after);
  } else {
    body["rule"] = nullptr;
  }
  GraphDot dot = GraphToDot(*graph);
  body["node_count"] = dot.drawn;
  body["changed_count"] = dot.changed;
  body["svg"] = nullptr;
  if (dot.drawn > options_.max_nodes) {
    body["message"] = absl::StrCat("this graph has ", dot.drawn, " nodes; graphs over ",
                                   options_.max_nodes, " nodes are not drawn (tg viz --max-nodes N ",
                                   "draws bigger ones, slowly)");
    return {200, std::move(body)};
  }
  ApiReply busy;
  absl::StatusOr<std::string> svg = Layout(dot.text, dot.drawn, &busy);
  if (busy.status == 503) return busy;
  if (!svg.ok()) {
    body["message"] = std::string(svg.status().message());
  } else {
    body["svg"] = *std::move(svg);
  }
  return {200, std::move(body)};
}

ApiReply VizApi::Program(size_t kernel) const {
  if (kernel >= trace_.groups.size()) {
    return Error(404, absl::StrCat("no kernel ", kernel, ": the trace has ", trace_.groups.size()));
  }
  const VizGroup& g = trace_.groups[kernel];
  if (!g.program.has_value()) return Error(404, absl::StrCat(g.name, " made no program"));
  const VizProgram& p = *g.program;
  return {200,
          {{"kernel", kernel}, {"name", p.name}, {"device", p.device}, {"source", p.source},
           {"linear", p.linear}}};
}

nlohmann::json VizApi::MatchStats() const {
  std::vector<const VizRuleStats*> rows;
  for (const VizRuleStats& s : trace_.match_stats) rows.push_back(&s);
  std::stable_sort(rows.begin(), rows.end(), [](const VizRuleStats* a, const VizRuleStats* b) { return a->ns > b->ns; });
  nlohmann::json out = nlohmann::json::array();
  for (const VizRuleStats* s : rows) {
    out.push_back({{"rule", s->rule}, {"function", s->function}, {"code", s->code}, {"matches", s->matches},
                   {"attempts", s->attempts}, {"ns", s->ns}});
  }
  return {{"rows", std::move(out)}};
}

void VizApi::AddRoutes(httplib::Server& server) {
  web::ServeAssets(server, web::VizAssets());
  server.Get("/api/kernels", [this](const httplib::Request&, httplib::Response& response) {
    web::SetJson(response, Kernels());
  });
  server.Get("/api/match_stats", [this](const httplib::Request&, httplib::Response& response) {
    web::SetJson(response, MatchStats());
  });
  server.Get("/api/rewrite", [this](const httplib::Request& request, httplib::Response& response) {
    ApiReply error;
    std::optional<size_t> r = IndexParam(request, "rewrite", &error);
    Reply(response, r ? Rewrite(*r) : error);
  });
  server.Get("/api/step", [this](const httplib::Request& request, httplib::Response& response) {
    ApiReply error;
    std::optional<size_t> r = IndexParam(request, "rewrite", &error);
    std::optional<size_t> s = r ? IndexParam(request, "step", &error) : std::nullopt;
    Reply(response, r && s ? Step(*r, *s) : error);
  });
  server.Get("/api/program", [this](const httplib::Request& request, httplib::Response& response) {
    ApiReply error;
    std::optional<size_t> k = IndexParam(request, "kernel", &error);
    Reply(response, k ? Program(*k) : error);
  });
}

absl::Status ServeViz(VizTrace trace, const web::ServeOptions& options, VizOptions viz) {
  VizApi api(std::move(trace), viz);
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server =
      web::LocalServer::Start(options, [&](httplib::Server& s) { api.AddRoutes(s); });
  if (!server.ok()) return server.status();
  std::printf("VIZ: %s\n", (*server)->url().c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "serving the viewer until Ctrl-C\n");
  web::WaitForInterrupt();
  (*server)->Stop();
  return absl::OkStatus();
}

}  // namespace tg::viz
