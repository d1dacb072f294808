// File: tinygrad/viz/viz_graph.cc
#include "tinygrad/viz/viz_graph.h"

#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

struct NodeContentHash {
  size_t operator()(const VizNode* n) const {
    return absl::Hash<std::tuple<const std::string&, const std::string&, const std::string&,
                                 const std::string&, const std::vector<size_t>&>>()(
        std::tie(n->op, n->dtype, n->arg, n->tag, n->src));
  }
};
struct NodeContentEq {
  bool operator()(const VizNode* a, const VizNode* b) const { return *a == *b; }
};

// The trace's node table plus the nodes a replay builds, hash-consed together so that a
// rebuilt node that the rewrite really made gets the trace's id (later matches name it).
class ReplayNodes {
 public:
  explicit ReplayNodes(const VizTrace& t) : t_(t) {}

  const VizNode& at(size_t id) const { return id < t_.nodes.size() ? t_.nodes[id] : extra_[id - t_.nodes.size()]; }

  size_t Intern(VizNode n) {
    if (!indexed_) {
      for (size_t i = 0; i < t_.nodes.size(); ++i) index_.try_emplace(&t_.nodes[i], i);
      indexed_ = true;
    }
    if (auto it = index_.find(&n); it != index_.end()) return it->second;
    extra_.push_back(std::move(n));  // a deque: pointers to earlier nodes stay valid
    size_t id = t_.nodes.size() + extra_.size() - 1;
    index_.emplace(&extra_.back(), id);
    return id;
  }

 private:
  const VizTrace& t_;
  std::deque<VizNode> extra_;
  absl::flat_hash_map<const VizNode*, size_t, NodeContentHash, NodeContentEq> index_;
  bool indexed_ = false;
};

using Replaces = absl::flat_hash_map<size_t, size_t>;

// The reference's substitute (a bottom-up graph_rewrite whose only rule is the replacement
// map, applied to a fixed point at every node, rebuilt nodes included), on node ids.
// Iterative: graphs can be far deeper than the call stack. Null when the replacements loop.
class Substituter {
 public:
  Substituter(ReplayNodes& nodes, const Replaces& replaces) : nodes_(nodes), replaces_(replaces) {}

  std::optional<size_t> Run(size_t root) {
    struct Frame {
      size_t n;
      size_t m;             // n after the replacements
      size_t next = 0;      // next source of m to visit
      std::optional<size_t> rebuilt;  // waiting for this rebuilt node's result
    };
    std::vector<Frame> stack;
    auto enter = [&](size_t n) -> bool {
      std::optional<size_t> m = Resolve(n);
      if (!m || !in_progress_.insert(n).second) return false;
      stack.push_back({n, *m});
      return true;
    };
    if (!done_.contains(root) && !enter(root)) return std::nullopt;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.rebuilt) {
        Finish(f.n, done_.at(*f.rebuilt));
        stack.pop_back();
        continue;
      }
      const VizNode& m = nodes_.at(f.m);
      if (f.next < m.src.size()) {
        size_t s = m.src[f.next++];
        if (done_.contains(s)) continue;
        if (!enter(s)) return std::nullopt;  // invalidates f
        continue;
      }
      VizNode rebuilt = m;
      for (size_t& s : rebuilt.src) s = done_.at(s);
      if (rebuilt.src == m.src) {
        Finish(f.n, f.m);
        stack.pop_back();
        continue;
      }
      size_t r = nodes_.Intern(std::move(rebuilt));
      if (auto it = done_.find(r); it != done_.end()) {
        Finish(f.n, it->second);
        stack.pop_back();
        continue;
      }
      f.rebuilt = r;
      if (!enter(r)) return std::nullopt;
    }
    return done_.at(root);
  }

 private:
  // The replacements applied until none applies; null on a loop.
  std::optional<size_t> Resolve(size_t n) {
    absl::flat_hash_set<size_t> seen{n};
    for (auto it = replaces_.find(n); it != replaces_.end(); it = replaces_.find(n)) {
      n = it->second;
      if (!seen.insert(n).second) return std::nullopt;
    }
    return n;
  }
  void Finish(size_t n, size_t result) {
    in_progress_.erase(n);
    done_.emplace(n, result);
  }

  ReplayNodes& nodes_;
  const Replaces& replaces_;
  absl::flat_hash_map<size_t, size_t> done_;
  absl::flat_hash_set<size_t> in_progress_;
};

// Ids of `root`'s graph, sources first.
std::vector<size_t> Toposort(const ReplayNodes& nodes, size_t root) {
  std::vector<size_t> order;
  absl::flat_hash_set<size_t> seen{root};
  std::vector<std::pair<size_t, size_t>> walk{{root, 0}};
  while (!walk.empty()) {
    auto& [n, next] = walk.back();
    const VizNode& node = nodes.at(n);
    if (next < node.src.size()) {
      size_t s = node.src[next++];
      if (seen.insert(s).second) walk.push_back({s, 0});  // invalidates n, next
      continue;
    }
    order.push_back(n);
    walk.pop_back();
  }
  return order;
}

// Applies match `m` to the replacement map, as the reference's `replaces[u0] = u1`.
void AddReplace(Replaces& replaces, const VizMatch& m) {
  if (m.before == m.after) {
    replaces.erase(m.before);  // the reference's substitute drops k -> k
  } else {
    replaces[m.before] = m.after;
  }
}

}  // namespace

struct VizReplay::State {
  explicit State(const VizTrace& t) : nodes(t) {}
  ReplayNodes nodes;
  Replaces replaces;          // top-down: the first sinks.size() - 1 matches
  std::vector<size_t> sinks;  // top-down: the sink after 0, 1, ... matches, as far as computed
};

VizReplay::VizReplay(const VizTrace& trace, size_t rewrite)
    : trace_(trace), rewrite_(rewrite), state_(std::make_unique<State>(trace)) {}
VizReplay::~VizReplay() = default;
VizReplay::VizReplay(VizReplay&&) noexcept = default;

absl::StatusOr<VizReplay> VizReplay::Create(const VizTrace& trace, size_t rewrite) {
  if (rewrite >= trace.rewrites.size())
    return absl::OutOfRangeError(absl::StrCat("rewrite ", rewrite, " of ", trace.rewrites.size()));
  return VizReplay(trace, rewrite);
}

absl::StatusOr<VizGraph> VizReplay::GraphAt(size_t step) {
  const VizRewrite& r = trace_.rewrites[rewrite_];
  if (step > r.matches.size())
    return absl::OutOfRangeError(absl::StrCat("step ", step, " of rewrite ", rewrite_, ", which has ",
                                              r.matches.size(), " matches"));
  ReplayNodes& nodes = state_->nodes;
  auto substitute = [&](size_t root, const Replaces& replaces, size_t num_matches) {
    std::optional<size_t> next = Substituter(nodes, replaces).Run(root);
    if (next) return *next;
    return nodes.Intern({.op = "NOOP", .dtype = "dtypes.void",
                         .arg = absl::StrCat("the substitutions of matches 1..", num_matches, " loop"),
                         .tag = "", .src = {}});
  };
  size_t sink = r.input;
  if (r.bottom_up) {
    // Every step substitutes into the input: only this step's substitution is needed.
    Replaces replaces;
    for (size_t i = 0; i < step; ++i) AddReplace(replaces, r.matches[i]);
    if (step > 0) sink = substitute(r.input, replaces, step);
  } else {
    // Each step substitutes into the previous step's graph: go on from the last one computed.
    std::vector<size_t>& sinks = state_->sinks;
    if (sinks.empty()) sinks.push_back(r.input);
    while (sinks.size() <= step) {
      AddReplace(state_->replaces, r.matches[sinks.size() - 1]);
      sinks.push_back(substitute(sinks.back(), state_->replaces, sinks.size()));
    }
    sink = sinks[step];
  }
  absl::flat_hash_set<size_t> changed;
  if (step > 0) {
    for (size_t id : Toposort(nodes, r.matches[step - 1].after)) changed.insert(id);
  }
  std::optional<size_t> matched;
  if (step < r.matches.size()) matched = r.matches[step].before;
  VizGraph g;
  for (size_t id : Toposort(nodes, sink)) {
    const VizNode& n = nodes.at(id);
    g.nodes.push_back({.id = id, .op = n.op, .dtype = n.dtype, .arg = n.arg, .tag = n.tag, .src = n.src,
                       .changed = changed.contains(id), .matched = matched == id});
  }
  return g;
}

absl::StatusOr<VizGraph> GraphAtStep(const VizTrace& trace, size_t rewrite, size_t step) {
  ASSIGN_OR_RETURN(VizReplay replay, VizReplay::Create(trace, rewrite));
  return replay.GraphAt(step);
}

}  // namespace tg
