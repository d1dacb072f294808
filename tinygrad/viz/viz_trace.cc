// File: tinygrad/viz/viz_trace.cc
// INTERIM STAND-IN (viz-page branch), replaced by the viz-trace branch's library at merge.
#include "tinygrad/viz/viz_trace.h"

#include <fstream>
#include <map>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tg {
namespace {

template <typename T>
absl::Status Get(const nlohmann::json& j, const char* key, T& out, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) return absl::InvalidArgumentError(absl::StrCat(where, ": no field '", key, "'"));
  try {
    out = j.at(key).get<T>();
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(where, ".", key, ": ", e.what()));
  }
  return absl::OkStatus();
}

#define TRY(x)                        \
  do {                                \
    absl::Status _s = (x);            \
    if (!_s.ok()) return _s;          \
  } while (0)

}  // namespace

absl::StatusOr<VizTrace> VizTraceFromJson(const nlohmann::json& j) {
  VizTrace t;
  if (!j.is_object() || j.value("version", 0) != 1) return absl::InvalidArgumentError("not a version 1 viz trace");
  for (const nlohmann::json& n : j.value("nodes", nlohmann::json::array())) {
    VizNode node;
    std::string w = absl::StrCat("nodes[", t.nodes.size(), "]");
    TRY(Get(n, "op", node.op, w));
    TRY(Get(n, "dtype", node.dtype, w));
    TRY(Get(n, "arg", node.arg, w));
    TRY(Get(n, "src", node.src, w));
    for (size_t s : node.src) {
      if (s >= t.nodes.size()) return absl::InvalidArgumentError(absl::StrCat(w, ".src: ", s, " is not an earlier node"));
    }
    t.nodes.push_back(std::move(node));
  }
  for (const nlohmann::json& g : j.value("groups", nlohmann::json::array())) {
    VizGroup group;
    std::string w = absl::StrCat("groups[", t.groups.size(), "]");
    TRY(Get(g, "name", group.name, w));
    TRY(Get(g, "rewrites", group.rewrites, w));
    if (g.contains("program") && !g["program"].is_null()) {
      VizProgram p;
      TRY(Get(g["program"], "name", p.name, w));
      TRY(Get(g["program"], "device", p.device, w));
      TRY(Get(g["program"], "source", p.source, w));
      TRY(Get(g["program"], "linear", p.linear, w));
      group.program = std::move(p);
    }
    t.groups.push_back(std::move(group));
  }
  for (const nlohmann::json& r : j.value("rewrites", nlohmann::json::array())) {
    VizRewrite rw;
    std::string w = absl::StrCat("rewrites[", t.rewrites.size(), "]");
    TRY(Get(r, "name", rw.name, w));
    TRY(Get(r, "group", rw.group, w));
    TRY(Get(r, "depth", rw.depth, w));
    TRY(Get(r, "bottom_up", rw.bottom_up, w));
    TRY(Get(r, "input", rw.input, w));
    TRY(Get(r, "output", rw.output, w));
    if (rw.input >= t.nodes.size() || rw.output >= t.nodes.size()) return absl::InvalidArgumentError(absl::StrCat(w, ": sink out of range"));
    if (!r.contains("matches") || !r["matches"].is_array()) return absl::InvalidArgumentError(absl::StrCat(w, ": no matches"));
    for (const nlohmann::json& m : r["matches"]) {
      VizMatch match;
      TRY(Get(m, "rule", match.rule, w));
      TRY(Get(m, "function", match.function, w));
      TRY(Get(m, "before", match.before, w));
      TRY(Get(m, "after", match.after, w));
      TRY(Get(m, "ns", match.ns, w));
      if (match.before >= t.nodes.size() || match.after >= t.nodes.size()) return absl::InvalidArgumentError(absl::StrCat(w, ": match node out of range"));
      rw.matches.push_back(std::move(match));
    }
    t.rewrites.push_back(std::move(rw));
  }
  for (const VizGroup& g : t.groups) {
    for (size_t r : g.rewrites) {
      if (r >= t.rewrites.size()) return absl::InvalidArgumentError("group names a rewrite out of range");
    }
  }
  for (const nlohmann::json& s : j.value("match_stats", nlohmann::json::array())) {
    VizMatchStat st;
    TRY(Get(s, "rule", st.rule, "match_stats"));
    TRY(Get(s, "function", st.function, "match_stats"));
    TRY(Get(s, "matches", st.matches, "match_stats"));
    TRY(Get(s, "attempts", st.attempts, "match_stats"));
    TRY(Get(s, "ns", st.ns, "match_stats"));
    t.match_stats.push_back(std::move(st));
  }
  return t;
}

absl::StatusOr<VizTrace> LoadVizTrace(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return absl::InvalidArgumentError(absl::StrCat(path, ": not JSON"));
  absl::StatusOr<VizTrace> t = VizTraceFromJson(j);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", t.status().message()));
  return t;
}

// Substitutes each earlier match's before -> after into the input graph (bottom_up rewrites
// show each match against the input); nodes made by substitution get ids past trace.nodes.
absl::StatusOr<VizGraph> GraphAtStep(const VizTrace& trace, size_t rewrite, size_t step) {
  if (rewrite >= trace.rewrites.size()) return absl::NotFoundError(absl::StrCat("no rewrite ", rewrite));
  const VizRewrite& rw = trace.rewrites[rewrite];
  if (step > rw.matches.size()) return absl::NotFoundError(absl::StrCat("rewrite ", rewrite, " has no step ", step));
  std::vector<VizNode> nodes = trace.nodes;
  std::map<std::pair<std::string, std::vector<size_t>>, size_t> made;
  for (size_t i = 0; i < nodes.size(); ++i) {
    made.emplace(std::make_pair(nodes[i].op + "\x1f" + nodes[i].dtype + "\x1f" + nodes[i].arg, nodes[i].src), i);
  }
  absl::flat_hash_map<size_t, size_t> replaces;
  size_t sink = rw.input;
  size_t changed_root = SIZE_MAX, matched = SIZE_MAX;
  for (size_t i = 0; i < step; ++i) {
    replaces[rw.matches[i].before] = rw.matches[i].after;
    absl::flat_hash_map<size_t, size_t> memo;
    std::vector<size_t> order;  // post-order of the reachable graph
    std::vector<std::pair<size_t, bool>> stack{{sink, false}};
    absl::flat_hash_set<size_t> seen;
    while (!stack.empty()) {
      auto [u, done] = stack.back();
      stack.pop_back();
      if (done) { order.push_back(u); continue; }
      if (!seen.insert(u).second) continue;
      stack.push_back({u, true});
      if (replaces.contains(u)) continue;
      for (size_t s : nodes[u].src) stack.push_back({s, false});
    }
    for (size_t u : order) {
      if (auto it = replaces.find(u); it != replaces.end()) { memo[u] = it->second; continue; }
      VizNode n = nodes[u];
      bool diff = false;
      for (size_t& s : n.src) {
        size_t m = memo.count(s) ? memo[s] : s;
        diff |= m != s;
        s = m;
      }
      if (!diff) { memo[u] = u; continue; }
      auto key = std::make_pair(n.op + "\x1f" + n.dtype + "\x1f" + n.arg, n.src);
      auto [it, fresh] = made.emplace(key, nodes.size());
      if (fresh) nodes.push_back(n);
      memo[u] = it->second;
    }
    size_t new_sink = memo.count(sink) ? memo[sink] : sink;
    if (i + 1 == step) { changed_root = rw.matches[i].after; matched = rw.matches[i].after; sink = new_sink; break; }
    if (!rw.bottom_up) sink = new_sink;
  }
  absl::flat_hash_set<size_t> changed;
  if (changed_root != SIZE_MAX) {
    std::vector<size_t> st{changed_root};
    while (!st.empty()) {
      size_t u = st.back(); st.pop_back();
      if (!changed.insert(u).second) continue;
      for (size_t s : nodes[u].src) st.push_back(s);
    }
  }
  VizGraph g;
  std::vector<std::pair<size_t, bool>> stack{{sink, false}};
  absl::flat_hash_set<size_t> seen;
  while (!stack.empty()) {
    auto [u, done] = stack.back();
    stack.pop_back();
    if (done) {
      const VizNode& n = nodes[u];
      g.nodes.push_back({u, n.op, n.dtype, n.arg, n.src, changed.contains(u), u == matched});
      continue;
    }
    if (!seen.insert(u).second) continue;
    stack.push_back({u, true});
    for (auto it = nodes[u].src.rbegin(); it != nodes[u].src.rend(); ++it) stack.push_back({*it, false});
  }
  return g;
}

}  // namespace tg
