// File: tinygrad/uop/pattern_matcher.h
// Port of tinygrad/uop/ops.py PatternMatcher: an ordered list of (UPat, rule) pairs.
//
// Order is priority: the first rule that returns a node other than the one it was given wins.
// Rules are plain function pointers, so they cannot capture state (tinygrad forbids closures);
// a pass that needs state reads it through `m.ctx<T>()`. Returning `{}` means "doesn't apply".
//
// Example:
//   const PatternMatcher& FoldDoubleAdd() {
//     static const auto* const kRules = new PatternMatcher({
//         Rule(UPat::Var("x") + UPat::Var("x"),
//              [](const Match& m) { return m["x"] * 2; }),  // x+x -> x*2
//     });
//     return *kRules;
//   }
//
// Rules are indexed by root op and pre-filtered by the child ops they need (early reject), so a
// rewrite's cost does not grow with unrelated rules. Matchers compose with `+`.
#ifndef TINYGRAD_UOP_PATTERN_MATCHER_H_
#define TINYGRAD_UOP_PATTERN_MATCHER_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <source_location>
#include <string>
#include <vector>

#include "tinygrad/uop/upat.h"

namespace tg {

using RuleFn = UOp (*)(const Match&);

// Per-rule counters for TRACK_MATCH_STATS; shared by every matcher that contains the rule.
struct RuleStats {
  std::atomic<uint64_t> attempts{0};  // pattern tried (passed early reject)
  std::atomic<uint64_t> matches{0};   // rule returned a replacement
  std::atomic<uint64_t> match_ns{0};  // time in attempts that rewrote
  std::atomic<uint64_t> miss_ns{0};   // time in attempts that did not
};

class Rule {
 public:
  // The location defaults to where the rule is written, which names it in stats and errors.
  // Write `Rule(pat, fn)` in tables, not `{pat, fn}`: GCC 12 evaluates the default argument of
  // a brace-initialized element at the end of the whole list, so every rule would get one line.
  Rule(UPat pat, RuleFn fn, std::source_location where = std::source_location::current());

  const UPat& pat() const { return pat_; }
  RuleFn fn() const { return fn_; }
  const std::source_location& where() const { return where_; }
  RuleStats& stats() const { return *stats_; }
  // "symbolic.cc:42".
  std::string location() const;

 private:
  UPat pat_;
  RuleFn fn_;
  std::source_location where_;
  std::shared_ptr<RuleStats> stats_;
};

class PatternMatcher {
 public:
  PatternMatcher(std::initializer_list<Rule> rules) : PatternMatcher(std::vector<Rule>(rules)) {}
  explicit PatternMatcher(std::vector<Rule> rules);

  // Both rule lists, this one's first.
  PatternMatcher operator+(const PatternMatcher& more) const;

  // The first rule's replacement for `u`, or null. `fired`, when given, receives the rule.
  UOp Rewrite(const UOp& u, RewriteCtx ctx = {}, const Rule** fired = nullptr) const;

  const std::vector<Rule>& rules() const { return rules_; }

 private:
  std::vector<Rule> rules_;
  std::array<std::vector<uint32_t>, kNumOps> by_op_;  // rule indices per root op, in order
};

// TRACK_MATCH_STATS: 0 off; >= 1 count attempts, matches and time per rule; >= 2 also record
// every match into the rewrite trace (rewrite_trace.h); >= 3 also print each match's time.
// Set once by the entry points (tools/tg, the engine's Realize) from their Config; tests set it
// directly.
void SetTrackMatchStats(int level);
// The level matching on this thread runs at: the set level, or 0 in a ScopedUntrackedMatching.
int TrackMatchStats();
// tinygrad's print_match_stats: one line per rule that was tried (matches / attempts, time in
// matches / all time, location, the rule's source line), slowest last, then a total.
void PrintMatchStats(std::ostream& os);
void ResetMatchStats();

// One rule's counters, for a table (PrintMatchStats, the VIZ viewer).
struct MatchStatsRow {
  std::source_location where;
  uint64_t matches = 0;
  uint64_t attempts = 0;
  uint64_t match_ns = 0;  // time in the attempts that matched
  uint64_t total_ns = 0;  // time in all attempts
};
struct MatchStatsTable {
  std::vector<MatchStatsRow> rows;  // the rules tried at least once, slowest last
  size_t num_rules = 0;             // all live rules
  size_t matched_once = 0;          // rules that matched at least once
};
MatchStatsTable SnapshotMatchStats();

// tinygrad's printable(): the source line a location names, trimmed, read from the file as the
// build named it (relative to the workspace root); "<missing>" when it cannot be read.
std::string SourceLineAt(const std::source_location& where);

// Turns match tracking off on this thread for a scope: tinygrad's
// Context(TRACK_MATCH_STATS=0) around UOp.simplify and an unnamed substitute, whose many small
// rewrites would drown the passes' own.
class ScopedUntrackedMatching {
 public:
  ScopedUntrackedMatching();
  ~ScopedUntrackedMatching();
  ScopedUntrackedMatching(const ScopedUntrackedMatching&) = delete;
  ScopedUntrackedMatching& operator=(const ScopedUntrackedMatching&) = delete;
};

}  // namespace tg

#endif  // TINYGRAD_UOP_PATTERN_MATCHER_H_
