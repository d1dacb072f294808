// File: tinygrad/uop/rewrite_trace.h
// Port of tinygrad/uop/ops.py TrackedGraphRewrite, tracked_keys / tracked_ctxs and
// add_trace_group: what TRACK_MATCH_STATS>=2 keeps of every graph_rewrite, for a viewer (VIZ)
// or a test to read afterwards.
//
// The trace is plain data: pass names, rule locations, ops and node counts, no UOp handles, so
// it outlives the graphs (and UOpContexts) it describes. It is process-wide, like the
// reference's lists: GraphRewrite opens a TracedRewrite when TrackMatchStats() >= 2, the
// matcher appends each match to the innermost open one of its thread, and a rewrite is filed
// when it finishes, in the order rewrites started (a rewrite run inside another's rule comes
// after its parent, with depth + 1).
//
// Example:
//   ScopedTraceGroup group("get_program");   // "get_program n1": this thread's later rewrites
//   ... GraphRewrite(...) ...
//   RewriteTrace t = SnapshotRewriteTrace();
//   for (const TracedRewrite& r : t.rewrites) std::cout << r.name << " " << r.matches.size();
#ifndef TINYGRAD_UOP_REWRITE_TRACE_H_
#define TINYGRAD_UOP_REWRITE_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "tinygrad/uop/ops.h"

namespace tg {

// One rule application (the reference's (before, after, location, time) tuple).
struct TracedMatch {
  std::source_location rule;  // where the rule that fired is written
  Ops before;                 // the matched node's op
  Ops after;                  // its replacement's op
  uint64_t ns = 0;            // time of the matching attempt that rewrote
};

// One graph_rewrite call (the reference's TrackedGraphRewrite).
struct TracedRewrite {
  std::string name;         // RewriteOptions::name, the pass
  size_t group = 0;         // index into RewriteTrace::groups
  int depth = 0;            // 0 at top level; a rewrite inside another's rule is one deeper
  bool bottom_up = false;
  size_t nodes_before = 0;  // nodes in the input graph
  size_t nodes_after = 0;   // nodes in the result graph
  std::vector<TracedMatch> matches;
};

struct RewriteTrace {
  std::vector<std::string> groups;     // the reference's tracked_keys: "get_program n1", ...
  std::vector<TracedRewrite> rewrites;  // in the order they started

  size_t num_matches() const;
};

// A copy of everything recorded so far (rewrites still running are left out).
RewriteTrace SnapshotRewriteTrace();
// Forgets the trace; rewrites open at the time are not filed. Not inside a traced rewrite.
void ResetRewriteTrace();

// tinygrad's track_rewrites for one scope of this thread: at TrackMatchStats() >= 2, rewrites
// started on this thread while it lives belong to a new group "<fn> n<k>" (k counts the groups
// of `fn`, from 1); the previous group is current again afterwards. Below level 2 it does
// nothing. Rewrites outside any group go to one "default" group.
class ScopedTraceGroup {
 public:
  explicit ScopedTraceGroup(std::string_view fn);
  ~ScopedTraceGroup();
  // Renames the group once its result is known (the reference's name function: a kernel's
  // name, "Schedule 3 Kernels").
  void Rename(std::string name);
  ScopedTraceGroup(const ScopedTraceGroup&) = delete;
  ScopedTraceGroup& operator=(const ScopedTraceGroup&) = delete;

 private:
  bool active_;
  std::optional<size_t> previous_;
  size_t index_ = 0;
  uint64_t generation_ = 0;
};

// GraphRewrite's side: one open rewrite of this thread. Records matches made on this thread
// while it is the innermost one, and files them when destroyed.
class ScopedTracedRewrite {
 public:
  ScopedTracedRewrite(std::string_view name, bool bottom_up, size_t nodes_before);
  ~ScopedTracedRewrite();
  void set_nodes_after(size_t n) { rewrite_.nodes_after = n; }
  ScopedTracedRewrite(const ScopedTracedRewrite&) = delete;
  ScopedTracedRewrite& operator=(const ScopedTracedRewrite&) = delete;

 private:
  size_t slot_;
  uint64_t generation_;
  TracedRewrite rewrite_;
  ScopedTracedRewrite* parent_;
  friend void RecordTracedMatch(const TracedMatch& m);
};

// The matcher's side: appends `m` to this thread's innermost open rewrite, if any.
void RecordTracedMatch(const TracedMatch& m);

}  // namespace tg

#endif  // TINYGRAD_UOP_REWRITE_TRACE_H_
