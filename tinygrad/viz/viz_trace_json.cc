// File: tinygrad/viz/viz_trace_json.cc
#include "tinygrad/viz/viz_trace_json.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/json_fields.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

using Json = nlohmann::json;

absl::StatusOr<VizNode> NodeFromJson(const Json& j, size_t id) {
  JsonFields f(j, JsonIndexPath("nodes", id));
  RETURN_IF_ERROR(f.IsObject());
  VizNode n;
  ASSIGN_OR_RETURN(n.op, f.String("op"));
  if (n.op.empty()) return f.Bad("op", "is empty");
  ASSIGN_OR_RETURN(n.dtype, f.String("dtype"));
  ASSIGN_OR_RETURN(n.arg, f.String("arg"));
  ASSIGN_OR_RETURN(n.tag, f.OptionalString("tag"));
  ASSIGN_OR_RETURN(const Json* src, f.Array("src"));
  for (size_t i = 0; i < src->size(); ++i) {
    std::string where = JsonIndexPath(f.At("src"), i);
    ASSIGN_OR_RETURN(uint64_t s, JsonCount((*src)[i], where));
    if (s >= id) return JsonError(where, absl::StrCat(s, " is not a node before ", id));
    n.src.push_back(static_cast<size_t>(s));
  }
  return n;
}

absl::StatusOr<VizProgram> ProgramFromJson(const Json& j, const std::string& where) {
  JsonFields f(j, where);
  RETURN_IF_ERROR(f.IsObject());
  VizProgram p;
  ASSIGN_OR_RETURN(p.name, f.String("name"));
  ASSIGN_OR_RETURN(p.device, f.String("device"));
  ASSIGN_OR_RETURN(p.source, f.String("source"));
  ASSIGN_OR_RETURN(p.linear, f.Strings("linear"));
  return p;
}

absl::StatusOr<VizGroup> GroupFromJson(const Json& j, size_t i, size_t num_rewrites) {
  JsonFields f(j, JsonIndexPath("groups", i));
  RETURN_IF_ERROR(f.IsObject());
  VizGroup g;
  ASSIGN_OR_RETURN(g.name, f.String("name"));
  ASSIGN_OR_RETURN(const Json* rewrites, f.Array("rewrites"));
  for (size_t k = 0; k < rewrites->size(); ++k) {
    ASSIGN_OR_RETURN(size_t r, JsonIndex((*rewrites)[k], JsonIndexPath(f.At("rewrites"), k), num_rewrites, "a rewrite"));
    g.rewrites.push_back(r);
  }
  ASSIGN_OR_RETURN(const Json* program, f.Get("program"));
  if (!program->is_null()) {
    ASSIGN_OR_RETURN(VizProgram p, ProgramFromJson(*program, f.At("program")));
    g.program = std::move(p);
  }
  return g;
}

absl::StatusOr<VizMatch> MatchFromJson(const Json& j, const std::string& where, size_t num_nodes) {
  JsonFields f(j, where);
  RETURN_IF_ERROR(f.IsObject());
  VizMatch m;
  ASSIGN_OR_RETURN(m.rule, f.String("rule"));
  ASSIGN_OR_RETURN(m.function, f.String("function"));
  ASSIGN_OR_RETURN(m.before, f.Index("before", num_nodes, "a node"));
  ASSIGN_OR_RETURN(m.after, f.Index("after", num_nodes, "a node"));
  ASSIGN_OR_RETURN(m.ns, f.Count("ns"));
  return m;
}

absl::StatusOr<VizRewrite> RewriteFromJson(const Json& j, size_t i, size_t num_groups, size_t num_nodes) {
  JsonFields f(j, JsonIndexPath("rewrites", i));
  RETURN_IF_ERROR(f.IsObject());
  VizRewrite r;
  ASSIGN_OR_RETURN(r.name, f.String("name"));
  ASSIGN_OR_RETURN(r.group, f.Index("group", num_groups, "a group"));
  ASSIGN_OR_RETURN(uint64_t depth, f.Count("depth"));
  if (depth > static_cast<uint64_t>(std::numeric_limits<int>::max())) return f.Bad("depth", "is too big");
  r.depth = static_cast<int>(depth);
  ASSIGN_OR_RETURN(r.bottom_up, f.Bool("bottom_up"));
  ASSIGN_OR_RETURN(r.input, f.Index("input", num_nodes, "a node"));
  ASSIGN_OR_RETURN(r.output, f.Index("output", num_nodes, "a node"));
  ASSIGN_OR_RETURN(const Json* matches, f.Array("matches"));
  for (size_t k = 0; k < matches->size(); ++k) {
    ASSIGN_OR_RETURN(VizMatch m, MatchFromJson((*matches)[k], JsonIndexPath(f.At("matches"), k), num_nodes));
    r.matches.push_back(std::move(m));
  }
  return r;
}

absl::StatusOr<VizRuleStats> RuleStatsFromJson(const Json& j, size_t i) {
  JsonFields f(j, JsonIndexPath("match_stats", i));
  RETURN_IF_ERROR(f.IsObject());
  VizRuleStats s;
  ASSIGN_OR_RETURN(s.rule, f.String("rule"));
  ASSIGN_OR_RETURN(s.function, f.String("function"));
  ASSIGN_OR_RETURN(s.code, f.OptionalString("code"));
  ASSIGN_OR_RETURN(s.matches, f.Count("matches"));
  ASSIGN_OR_RETURN(s.attempts, f.Count("attempts"));
  ASSIGN_OR_RETURN(s.ns, f.Count("ns"));
  return s;
}

}  // namespace

nlohmann::json VizTraceToJson(const VizTrace& t) {
  Json nodes = Json::array();
  for (const VizNode& n : t.nodes) {
    Json j = {{"op", n.op}, {"dtype", n.dtype}, {"arg", n.arg}, {"src", n.src}};
    if (!n.tag.empty()) j["tag"] = n.tag;
    nodes.push_back(std::move(j));
  }
  Json groups = Json::array();
  for (const VizGroup& g : t.groups) {
    Json program = nullptr;
    if (g.program) {
      program = {{"name", g.program->name}, {"device", g.program->device},
                 {"source", g.program->source}, {"linear", g.program->linear}};
    }
    groups.push_back({{"name", g.name}, {"rewrites", g.rewrites}, {"program", std::move(program)}});
  }
  Json rewrites = Json::array();
  for (const VizRewrite& r : t.rewrites) {
    Json matches = Json::array();
    for (const VizMatch& m : r.matches)
      matches.push_back({{"rule", m.rule}, {"function", m.function}, {"before", m.before}, {"after", m.after}, {"ns", m.ns}});
    rewrites.push_back({{"name", r.name}, {"group", r.group}, {"depth", r.depth}, {"bottom_up", r.bottom_up},
                        {"input", r.input}, {"output", r.output}, {"matches", std::move(matches)}});
  }
  Json stats = Json::array();
  for (const VizRuleStats& s : t.match_stats) {
    stats.push_back({{"rule", s.rule}, {"function", s.function}, {"code", s.code}, {"matches", s.matches},
                     {"attempts", s.attempts}, {"ns", s.ns}});
  }
  return {{"format", kVizTraceFormat}, {"version", kVizTraceVersion}, {"nodes", std::move(nodes)},
          {"groups", std::move(groups)}, {"rewrites", std::move(rewrites)}, {"match_stats", std::move(stats)}};
}

absl::StatusOr<VizTrace> VizTraceFromJson(const nlohmann::json& j) {
  JsonFields f(j, "trace");
  RETURN_IF_ERROR(f.IsObject());
  ASSIGN_OR_RETURN(std::string format, f.String("format"));
  if (format != kVizTraceFormat) return JsonError("format", absl::StrCat("is \"", format, "\", not \"", kVizTraceFormat, "\""));
  ASSIGN_OR_RETURN(uint64_t version, f.Count("version"));
  if (version != kVizTraceVersion) {
    return JsonError("version", absl::StrCat(version, " is not supported (this build reads version ", kVizTraceVersion, ")"));
  }
  ASSIGN_OR_RETURN(const Json* nodes, f.Array("nodes"));
  ASSIGN_OR_RETURN(const Json* groups, f.Array("groups"));
  ASSIGN_OR_RETURN(const Json* rewrites, f.Array("rewrites"));
  ASSIGN_OR_RETURN(const Json* stats, f.Array("match_stats"));
  VizTrace t;
  t.nodes.reserve(nodes->size());
  for (size_t i = 0; i < nodes->size(); ++i) {
    ASSIGN_OR_RETURN(VizNode n, NodeFromJson((*nodes)[i], i));
    t.nodes.push_back(std::move(n));
  }
  for (size_t i = 0; i < groups->size(); ++i) {
    ASSIGN_OR_RETURN(VizGroup g, GroupFromJson((*groups)[i], i, rewrites->size()));
    t.groups.push_back(std::move(g));
  }
  for (size_t i = 0; i < rewrites->size(); ++i) {
    ASSIGN_OR_RETURN(VizRewrite r, RewriteFromJson((*rewrites)[i], i, t.groups.size(), t.nodes.size()));
    t.rewrites.push_back(std::move(r));
  }
  for (size_t i = 0; i < stats->size(); ++i) {
    ASSIGN_OR_RETURN(VizRuleStats s, RuleStatsFromJson((*stats)[i], i));
    t.match_stats.push_back(std::move(s));
  }
  return t;
}

absl::Status SaveVizTrace(const VizTrace& trace, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::UnavailableError(absl::StrCat(path, ": cannot write ", tmp));
    out << VizTraceToJson(trace).dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    out.close();
    if (!out) return absl::UnavailableError(absl::StrCat(path, ": writing ", tmp, " failed"));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat(path, ": cannot rename ", tmp, " to it"));
  }
  return absl::OkStatus();
}

absl::StatusOr<VizTrace> LoadVizTrace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open the viz trace"));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<Json> j = ParseJson(text.str());
  if (!j.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": not a JSON file (truncated?): ", j.status().message()));
  absl::StatusOr<VizTrace> t = VizTraceFromJson(*j);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", t.status().message()));
  return t;
}

}  // namespace tg
