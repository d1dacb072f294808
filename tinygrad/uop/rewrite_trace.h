// File: tinygrad/uop/rewrite_trace.h
// Port of tinygrad/uop/ops.py TrackedGraphRewrite, tracked_keys / tracked_ctxs and
// add_trace_group: what TRACK_MATCH_STATS>=2 keeps of every graph_rewrite, for a viewer (VIZ)
// or a test to read afterwards.
//
// The trace is plain data: pass names, rule locations, node counts and the graphs themselves as
// ids into one hash-consed node table (op, dtype, printed arg and tag, source ids), no UOp
// handles, so it outlives the graphs (and UOpContexts) it describes. An open rewrite holds its
// input, matches and result as UOps (they are alive while it runs) and turns them into node ids
// when it is filed. It is process-wide, like the
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

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// One node of the trace's node table. Nodes are hash-consed on all their fields, so equal UOps
// (the same node of one context, or equal nodes of two) share an id; sources have smaller ids.
struct TracedNode {
  Ops op = Ops::NOOP;
  std::string dtype;  // DType::repr: "dtypes.float"
  std::string arg;    // Arg::repr, "" for None
  std::string tag;    // Arg::repr of the tag, "" for None
  std::vector<size_t> src;

  bool operator==(const TracedNode&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const TracedNode& n) {
    return H::combine(std::move(h), n.op, n.dtype, n.arg, n.tag, n.src);
  }
};

// One rule application (the reference's (before, after, location, time) tuple).
struct TracedMatch {
  std::source_location rule;  // where the rule that fired is written
  Ops before;                 // the matched node's op
  Ops after;                  // its replacement's op
  uint64_t ns = 0;            // time of the matching attempt that rewrote
  size_t before_id = 0;       // the matched node, in RewriteTrace::nodes
  size_t after_id = 0;        // its replacement
};

// The program a group made (get_program's result), as text.
struct TracedProgram {
  std::string name;                 // the kernel's name, without colours
  std::string device;               // "CPU"
  std::string source;               // the rendered source
  std::vector<std::string> linear;  // the linear program, a line per uop as DEBUG=6 prints it
};

// One graph_rewrite call (the reference's TrackedGraphRewrite).
struct TracedRewrite {
  std::string name;         // RewriteOptions::name, the pass
  size_t group = 0;         // index into RewriteTrace::groups
  int depth = 0;            // 0 at top level; a rewrite inside another's rule is one deeper
  bool bottom_up = false;
  size_t nodes_before = 0;  // nodes in the input graph
  size_t nodes_after = 0;   // nodes in the result graph
  size_t input = 0;         // the input sink, in RewriteTrace::nodes
  size_t output = 0;        // the result sink
  std::vector<TracedMatch> matches;
};

struct RewriteTrace {
  std::vector<std::string> groups;     // the reference's tracked_keys: "get_program n1", ...
  std::vector<std::optional<TracedProgram>> programs;  // per group: the program it made, if any
  std::vector<TracedRewrite> rewrites;  // in the order they started
  std::vector<TracedNode> nodes;        // every graph of the rewrites, hash-consed

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
  // Files the program the group's work made (the reference keeps get_program's ProgramSpec as
  // the group's ret, for the viewer's "View Program" steps).
  void AttachProgram(TracedProgram program);
  // Whether the group records anything (TrackMatchStats() >= 2 when it opened): callers skip
  // building a TracedProgram otherwise.
  bool active() const { return active_; }
  ScopedTraceGroup(const ScopedTraceGroup&) = delete;
  ScopedTraceGroup& operator=(const ScopedTraceGroup&) = delete;

 private:
  bool active_;
  std::optional<size_t> previous_;
  size_t index_ = 0;
  uint64_t generation_ = 0;
};

// GraphRewrite's side: one open rewrite of this thread. Records matches made on this thread
// while it is the innermost one, and files them (with its input and result graphs) when
// destroyed. Without set_output (the rewrite did not finish) the output is the input.
class ScopedTracedRewrite {
 public:
  ScopedTracedRewrite(std::string_view name, bool bottom_up, const UOp& input);
  ~ScopedTracedRewrite();
  void set_output(const UOp& result);
  ScopedTracedRewrite(const ScopedTracedRewrite&) = delete;
  ScopedTracedRewrite& operator=(const ScopedTracedRewrite&) = delete;

 private:
  size_t slot_;
  uint64_t generation_;
  TracedRewrite rewrite_;
  UOp input_;
  UOp output_;
  std::vector<std::pair<UOp, UOp>> matched_;  // per rewrite_.matches: (before, after)
  ScopedTracedRewrite* parent_;
  friend void RecordTracedMatch(const TracedMatch& m, const UOp& before, const UOp& after);
};

// The matcher's side: appends `m` (the rule turned `before` into `after`) to this thread's
// innermost open rewrite, if any.
void RecordTracedMatch(const TracedMatch& m, const UOp& before, const UOp& after);

}  // namespace tg

#endif  // TINYGRAD_UOP_REWRITE_TRACE_H_
