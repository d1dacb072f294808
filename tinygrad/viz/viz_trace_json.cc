// File: tinygrad/viz/viz_trace_json.cc
#include "tinygrad/viz/viz_trace_json.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

using Json = nlohmann::json;

absl::Status Bad(const std::string& where, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

// Typed reads of one object's fields; `where` names the object ("rewrites[2]").
class Fields {
 public:
  Fields(const Json& j, std::string where) : j_(j), where_(std::move(where)) {}

  absl::Status IsObject() const {
    return j_.is_object() ? absl::OkStatus() : Bad(where_, "is not an object");
  }
  std::string At(const char* key) const { return absl::StrCat(where_, ".", key); }

  absl::StatusOr<const Json*> Get(const char* key) const {
    auto it = j_.find(key);
    if (it == j_.end()) return Bad(At(key), "is missing");
    return &*it;
  }
  absl::StatusOr<std::string> String(const char* key) const {
    ASSIGN_OR_RETURN(const Json* v, Get(key));
    if (!v->is_string()) return Bad(At(key), "is not a string");
    return v->get<std::string>();
  }
  // A string that may be left out ("" then).
  absl::StatusOr<std::string> OptionalString(const char* key) const {
    if (!j_.contains(key)) return std::string();
    return String(key);
  }
  absl::StatusOr<bool> Bool(const char* key) const {
    ASSIGN_OR_RETURN(const Json* v, Get(key));
    if (!v->is_boolean()) return Bad(At(key), "is not true or false");
    return v->get<bool>();
  }
  absl::StatusOr<uint64_t> Count(const char* key) const {
    ASSIGN_OR_RETURN(const Json* v, Get(key));
    return CountOf(*v, At(key));
  }
  // An index below `limit`; `what` names what it indexes ("a node").
  absl::StatusOr<size_t> Index(const char* key, size_t limit, const char* what) const {
    ASSIGN_OR_RETURN(const Json* v, Get(key));
    return IndexOf(*v, At(key), limit, what);
  }
  absl::StatusOr<const Json*> Array(const char* key) const {
    ASSIGN_OR_RETURN(const Json* v, Get(key));
    if (!v->is_array()) return Bad(At(key), "is not an array");
    return v;
  }

  static absl::StatusOr<uint64_t> CountOf(const Json& v, const std::string& where) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      return Bad(where, "is not a non-negative integer");
    return v.get<uint64_t>();
  }
  static absl::StatusOr<size_t> IndexOf(const Json& v, const std::string& where, size_t limit,
                                        const char* what) {
    ASSIGN_OR_RETURN(uint64_t i, CountOf(v, where));
    if (i >= limit) return Bad(where, absl::StrCat(i, " is not ", what, " (there are ", limit, ")"));
    return static_cast<size_t>(i);
  }

 private:
  const Json& j_;
  std::string where_;
};

absl::StatusOr<std::vector<std::string>> Strings(const Json& arr, const std::string& where) {
  std::vector<std::string> out;
  for (size_t i = 0; i < arr.size(); ++i) {
    if (!arr[i].is_string()) return Bad(absl::StrCat(where, "[", i, "]"), "is not a string");
    out.push_back(arr[i].get<std::string>());
  }
  return out;
}

absl::StatusOr<VizNode> NodeFromJson(const Json& j, size_t id) {
  Fields f(j, absl::StrCat("nodes[", id, "]"));
  RETURN_IF_ERROR(f.IsObject());
  VizNode n;
  ASSIGN_OR_RETURN(n.op, f.String("op"));
  if (n.op.empty()) return Bad(f.At("op"), "is empty");
  ASSIGN_OR_RETURN(n.dtype, f.String("dtype"));
  ASSIGN_OR_RETURN(n.arg, f.String("arg"));
  ASSIGN_OR_RETURN(n.tag, f.OptionalString("tag"));
  ASSIGN_OR_RETURN(const Json* src, f.Array("src"));
  for (size_t i = 0; i < src->size(); ++i) {
    std::string where = absl::StrCat(f.At("src"), "[", i, "]");
    ASSIGN_OR_RETURN(uint64_t s, Fields::CountOf((*src)[i], where));
    if (s >= id) return Bad(where, absl::StrCat(s, " is not a node before ", id));
    n.src.push_back(static_cast<size_t>(s));
  }
  return n;
}

absl::StatusOr<VizProgram> ProgramFromJson(const Json& j, const std::string& where) {
  Fields f(j, where);
  RETURN_IF_ERROR(f.IsObject());
  VizProgram p;
  ASSIGN_OR_RETURN(p.name, f.String("name"));
  ASSIGN_OR_RETURN(p.device, f.String("device"));
  ASSIGN_OR_RETURN(p.source, f.String("source"));
  ASSIGN_OR_RETURN(const Json* linear, f.Array("linear"));
  ASSIGN_OR_RETURN(p.linear, Strings(*linear, f.At("linear")));
  return p;
}

absl::StatusOr<VizGroup> GroupFromJson(const Json& j, size_t i, size_t num_rewrites) {
  Fields f(j, absl::StrCat("groups[", i, "]"));
  RETURN_IF_ERROR(f.IsObject());
  VizGroup g;
  ASSIGN_OR_RETURN(g.name, f.String("name"));
  ASSIGN_OR_RETURN(const Json* rewrites, f.Array("rewrites"));
  for (size_t k = 0; k < rewrites->size(); ++k) {
    ASSIGN_OR_RETURN(size_t r, Fields::IndexOf((*rewrites)[k], absl::StrCat(f.At("rewrites"), "[", k, "]"),
                                               num_rewrites, "a rewrite"));
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
  Fields f(j, where);
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
  Fields f(j, absl::StrCat("rewrites[", i, "]"));
  RETURN_IF_ERROR(f.IsObject());
  VizRewrite r;
  ASSIGN_OR_RETURN(r.name, f.String("name"));
  ASSIGN_OR_RETURN(r.group, f.Index("group", num_groups, "a group"));
  ASSIGN_OR_RETURN(uint64_t depth, f.Count("depth"));
  if (depth > static_cast<uint64_t>(std::numeric_limits<int>::max())) return Bad(f.At("depth"), "is too big");
  r.depth = static_cast<int>(depth);
  ASSIGN_OR_RETURN(r.bottom_up, f.Bool("bottom_up"));
  ASSIGN_OR_RETURN(r.input, f.Index("input", num_nodes, "a node"));
  ASSIGN_OR_RETURN(r.output, f.Index("output", num_nodes, "a node"));
  ASSIGN_OR_RETURN(const Json* matches, f.Array("matches"));
  for (size_t k = 0; k < matches->size(); ++k) {
    ASSIGN_OR_RETURN(VizMatch m, MatchFromJson((*matches)[k], absl::StrCat(f.At("matches"), "[", k, "]"), num_nodes));
    r.matches.push_back(std::move(m));
  }
  return r;
}

absl::StatusOr<VizRuleStats> RuleStatsFromJson(const Json& j, size_t i) {
  Fields f(j, absl::StrCat("match_stats[", i, "]"));
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
  Fields f(j, "trace");
  RETURN_IF_ERROR(f.IsObject());
  ASSIGN_OR_RETURN(std::string format, f.String("format"));
  if (format != kVizTraceFormat) return Bad("format", absl::StrCat("is \"", format, "\", not \"", kVizTraceFormat, "\""));
  ASSIGN_OR_RETURN(uint64_t version, f.Count("version"));
  if (version != kVizTraceVersion) {
    return Bad("version", absl::StrCat(version, " is not supported (this build reads version ", kVizTraceVersion, ")"));
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
  Json j = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError(absl::StrCat(path, ": not a JSON file (truncated?)"));
  absl::StatusOr<VizTrace> t = VizTraceFromJson(j);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", t.status().message()));
  return t;
}

}  // namespace tg
