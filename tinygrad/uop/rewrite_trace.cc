// File: tinygrad/uop/rewrite_trace.cc
// Port of tinygrad/uop/ops.py: the tracked_ctxs / tracked_keys side of TRACK_MATCH_STATS>=2.
#include "tinygrad/uop/rewrite_trace.h"

#include <map>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/pattern_matcher.h"

namespace tg {
namespace {

struct TraceStore {
  std::mutex mu;
  RewriteTrace trace;
  std::vector<bool> filed;  // per slot of trace.rewrites: finished (a snapshot shows only these)
  std::optional<size_t> default_group;
  std::map<std::string, int, std::less<>> groups_of;  // the reference's _name_cnt
  absl::flat_hash_map<TracedNode, size_t> node_ids;  // trace.nodes' index, for hash-consing
  uint64_t generation = 0;  // bumped by a reset: rewrites open across it are dropped
};

TraceStore& Store() {
  static TraceStore* const kStore = new TraceStore();  // read at exit: never destroyed
  return *kStore;
}

// This thread's current group and innermost open rewrite.
thread_local std::optional<size_t> t_group;
thread_local ScopedTracedRewrite* t_innermost = nullptr;

size_t AddGroupLocked(TraceStore& s, std::string name) {
  s.trace.groups.push_back(std::move(name));
  s.trace.programs.emplace_back();
  return s.trace.groups.size() - 1;
}

std::string ReprOrEmpty(const Arg& a) { return a.is_none() ? std::string() : a.repr(); }

// UOps this filing has given ids already (a rewrite's graphs share most of their nodes).
using NodeMemo = absl::flat_hash_map<UOp, size_t>;

// The id of `root` in the node table, adding the nodes of its graph that are not there yet.
// Iterative (graphs can be a million nodes deep) and stops at nodes `memo` knows, so that
// filing many matches inside one big graph costs the new nodes only.
size_t InternLocked(TraceStore& s, const UOp& root, NodeMemo& memo) {
  if (auto it = memo.find(root); it != memo.end()) return it->second;
  std::vector<std::pair<UOp, size_t>> walk{{root, 0}};
  while (!walk.empty()) {
    auto& [u, next] = walk.back();
    if (next < u.src().size()) {
      UOp child = u.src(next++);
      if (!memo.contains(child)) walk.push_back({std::move(child), 0});  // invalidates u
      continue;
    }
    TracedNode node{.op = u.op(), .dtype = u.dtype().repr(), .arg = ReprOrEmpty(u.arg()),
                    .tag = ReprOrEmpty(u.tag()), .src = {}};
    node.src.reserve(u.src().size());
    for (const UOp& x : u.src()) node.src.push_back(memo.at(x));
    auto [it, inserted] = s.node_ids.try_emplace(node, s.trace.nodes.size());
    if (inserted) s.trace.nodes.push_back(std::move(node));
    memo.emplace(u, it->second);
    walk.pop_back();
  }
  return memo.at(root);
}

}  // namespace

size_t RewriteTrace::num_matches() const {
  size_t n = 0;
  for (const TracedRewrite& r : rewrites) n += r.matches.size();
  return n;
}

RewriteTrace SnapshotRewriteTrace() {
  TraceStore& s = Store();
  std::lock_guard<std::mutex> lock(s.mu);
  RewriteTrace out;
  out.groups = s.trace.groups;
  out.programs = s.trace.programs;
  out.nodes = s.trace.nodes;
  for (size_t i = 0; i < s.trace.rewrites.size(); ++i)
    if (s.filed[i]) out.rewrites.push_back(s.trace.rewrites[i]);
  return out;
}

void ResetRewriteTrace() {
  TraceStore& s = Store();
  std::lock_guard<std::mutex> lock(s.mu);
  TG_CHECK(t_innermost == nullptr) << "ResetRewriteTrace inside a traced rewrite";
  s.trace = {};
  s.filed.clear();
  s.default_group.reset();
  s.groups_of.clear();
  s.node_ids.clear();
  ++s.generation;
  t_group.reset();
}

ScopedTraceGroup::ScopedTraceGroup(std::string_view fn) : active_(TrackMatchStats() >= 2) {
  if (!active_) return;
  previous_ = t_group;
  TraceStore& s = Store();
  std::lock_guard<std::mutex> lock(s.mu);
  auto [it, unused] = s.groups_of.try_emplace(std::string(fn), 0);
  index_ = AddGroupLocked(s, absl::StrCat(std::string(fn), " n", ++it->second));
  generation_ = s.generation;
  t_group = index_;
}

ScopedTraceGroup::~ScopedTraceGroup() {
  if (active_) t_group = previous_;
}

void ScopedTraceGroup::Rename(std::string name) {
  if (!active_) return;
  TraceStore& s = Store();
  std::lock_guard<std::mutex> lock(s.mu);
  if (generation_ == s.generation) s.trace.groups[index_] = std::move(name);
}

void ScopedTraceGroup::AttachProgram(TracedProgram program) {
  if (!active_) return;
  TraceStore& s = Store();
  std::lock_guard<std::mutex> lock(s.mu);
  if (generation_ == s.generation) s.trace.programs[index_] = std::move(program);
}

ScopedTracedRewrite::ScopedTracedRewrite(std::string_view name, bool bottom_up, const UOp& input)
    : input_(input), parent_(t_innermost) {
  rewrite_.name = std::string(name);
  rewrite_.bottom_up = bottom_up;
  rewrite_.nodes_before = input.toposort().size();
  rewrite_.depth = parent_ != nullptr ? parent_->rewrite_.depth + 1 : 0;
  TraceStore& s = Store();
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (t_group) {
      rewrite_.group = *t_group;
    } else {
      if (!s.default_group) s.default_group = AddGroupLocked(s, "default");
      rewrite_.group = *s.default_group;
    }
    // The slot is taken now so that a parent comes before the rewrites its rules start.
    slot_ = s.trace.rewrites.size();
    generation_ = s.generation;
    s.trace.rewrites.emplace_back();
    s.filed.push_back(false);
  }
  t_innermost = this;
}

void ScopedTracedRewrite::set_output(const UOp& result) {
  output_ = result;
  rewrite_.nodes_after = result.toposort().size();
}

ScopedTracedRewrite::~ScopedTracedRewrite() {
  t_innermost = parent_;
  TraceStore& s = Store();
  std::lock_guard<std::mutex> lock(s.mu);
  if (generation_ != s.generation) return;  // the trace was reset while this one ran
  NodeMemo memo;
  rewrite_.input = InternLocked(s, input_, memo);
  for (size_t i = 0; i < matched_.size(); ++i) {
    rewrite_.matches[i].before_id = InternLocked(s, matched_[i].first, memo);
    rewrite_.matches[i].after_id = InternLocked(s, matched_[i].second, memo);
  }
  rewrite_.output = output_ ? InternLocked(s, output_, memo) : rewrite_.input;
  s.trace.rewrites[slot_] = std::move(rewrite_);
  s.filed[slot_] = true;
}

void RecordTracedMatch(const TracedMatch& m, const UOp& before, const UOp& after) {
  if (t_innermost == nullptr) return;
  t_innermost->rewrite_.matches.push_back(m);
  t_innermost->matched_.emplace_back(before, after);
}

}  // namespace tg
