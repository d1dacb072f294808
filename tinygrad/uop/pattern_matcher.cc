// Port of tinygrad/uop/ops.py: PatternMatcher, TrackedPatternMatcher and print_match_stats.
#include "tinygrad/uop/pattern_matcher.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>

#include "absl/strings/ascii.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/rewrite_trace.h"

namespace tg {
namespace {

std::atomic<int> g_track_match_stats{0};
thread_local int t_untracked = 0;  // open ScopedUntrackedMatching scopes on this thread

// The level this thread's matching runs at.
int EffectiveTrackLevel() {
  return t_untracked > 0 ? 0 : g_track_match_stats.load(std::memory_order_relaxed);
}

// Every rule's stats, for printing. Diagnostics only: entries of destroyed matchers expire.
struct StatsRegistry {
  std::mutex mu;
  std::vector<std::pair<std::source_location, std::weak_ptr<RuleStats>>> entries;
};
StatsRegistry& Registry() {
  static StatsRegistry* const kRegistry = new StatsRegistry();
  return *kRegistry;
}

std::string Basename(const char* path) {
  std::string p(path);
  size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

}  // namespace

Rule::Rule(UPat pat, RuleFn fn, std::source_location where)
    : pat_(std::move(pat)), fn_(fn), where_(where), stats_(std::make_shared<RuleStats>()) {
  TG_CHECK(fn_ != nullptr) << "rule at " << location() << " has no function";
  TG_CHECK(!pat_.ops().empty()) << "rule at " << location()
                                << " must fix its root op (tinygrad asserts p.op is not None)";
  StatsRegistry& r = Registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::erase_if(r.entries, [](const auto& e) { return e.second.expired(); });
  r.entries.emplace_back(where_, stats_);
}

std::string Rule::location() const {
  return Basename(where_.file_name()) + ":" + std::to_string(where_.line());
}

PatternMatcher::PatternMatcher(std::vector<Rule> rules) : rules_(std::move(rules)) {
  for (uint32_t i = 0; i < rules_.size(); ++i)
    rules_[i].pat().ops().ForEach([&](Ops op) { by_op_[static_cast<int>(op)].push_back(i); });
}

PatternMatcher PatternMatcher::operator+(const PatternMatcher& more) const {
  std::vector<Rule> all = rules_;
  all.insert(all.end(), more.rules_.begin(), more.rules_.end());
  return PatternMatcher(std::move(all));
}

UOp PatternMatcher::Rewrite(const UOp& u, RewriteCtx ctx, const Rule** fired) const {
  const std::vector<uint32_t>& candidates = by_op_[static_cast<int>(u.op())];
  if (candidates.empty()) return {};
  const OpSet child_ops = u.src_ops();
  const int level = EffectiveTrackLevel();
  const bool track = level > 0;
  for (uint32_t i : candidates) {
    const Rule& rule = rules_[i];
    if (!rule.pat().early_reject().IsSubsetOf(child_ops)) continue;
    auto start = track ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    UOp result;
    Match m(ctx, rule.where());
    rule.pat().Match(u, m, [&] {
      result = rule.fn()(m);
      return static_cast<bool>(result);  // tinygrad stops at the first non-None, even `u` itself
    });
    bool rewrote = result && result != u;
    if (track) {
      uint64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start).count();
      RuleStats& st = rule.stats();
      st.attempts.fetch_add(1, std::memory_order_relaxed);
      (rewrote ? st.match_ns : st.miss_ns).fetch_add(ns, std::memory_order_relaxed);
      if (rewrote) st.matches.fetch_add(1, std::memory_order_relaxed);
      if (rewrote && level >= 2) RecordTracedMatch({rule.where(), u.op(), result.op(), ns}, u, result);
      if (rewrote && level >= 3)
        std::printf("%7.2f us -- %s\n", ns / 1e3, SourceLineAt(rule.where()).c_str());
    }
    if (rewrote) {
      if (fired) *fired = &rule;
      return result;
    }
  }
  return {};
}

void SetTrackMatchStats(int level) { g_track_match_stats.store(level); }
int TrackMatchStats() { return EffectiveTrackLevel(); }

ScopedUntrackedMatching::ScopedUntrackedMatching() { ++t_untracked; }
ScopedUntrackedMatching::~ScopedUntrackedMatching() { --t_untracked; }

std::string SourceLineAt(const std::source_location& where) {
  static std::mutex mu;
  static auto* const files = new std::map<std::string, std::vector<std::string>>();  // helpers.lines
  std::lock_guard<std::mutex> lock(mu);
  auto [it, inserted] = files->try_emplace(where.file_name());
  if (inserted) {
    std::ifstream in(where.file_name());
    for (std::string line; std::getline(in, line);) it->second.push_back(std::move(line));
  }
  if (where.line() == 0 || where.line() > it->second.size()) return "<missing>";
  return std::string(absl::StripAsciiWhitespace(it->second[where.line() - 1]));
}

void ResetMatchStats() {
  StatsRegistry& r = Registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& [where, weak] : r.entries) {
    if (auto st = weak.lock()) {
      st->attempts = 0;
      st->matches = 0;
      st->match_ns = 0;
      st->miss_ns = 0;
    }
  }
}

MatchStatsTable SnapshotMatchStats() {
  MatchStatsTable t;
  {
    StatsRegistry& r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto& [where, weak] : r.entries) {
      auto st = weak.lock();
      if (!st) continue;
      ++t.num_rules;
      if (st->matches > 0) ++t.matched_once;
      if (st->attempts == 0) continue;
      t.rows.push_back({where, st->matches, st->attempts, st->match_ns, st->match_ns + st->miss_ns});
    }
  }
  std::stable_sort(t.rows.begin(), t.rows.end(),
                   [](const MatchStatsRow& a, const MatchStatsRow& b) { return a.total_ns < b.total_ns; });
  return t;
}

void PrintMatchStats(std::ostream& os) {
  MatchStatsTable table = SnapshotMatchStats();
  MatchStatsRow total;
  char line[160];
  for (const MatchStatsRow& row : table.rows) {
    std::string loc = Basename(row.where.file_name()) + ":" + std::to_string(row.where.line());
    std::snprintf(line, sizeof(line), "%6llu / %7llu -- %9.2f / %9.2f ms -- %-20s ",
                  static_cast<unsigned long long>(row.matches), static_cast<unsigned long long>(row.attempts),
                  row.match_ns / 1e6, row.total_ns / 1e6, loc.c_str());
    os << line << SourceLineAt(row.where) << "\n";
    total.matches += row.matches;
    total.attempts += row.attempts;
    total.match_ns += row.match_ns;
    total.total_ns += row.total_ns;
  }
  std::snprintf(line, sizeof(line), "%6llu / %7llu -- %9.2f / %9.2f ms -- TOTAL\n",
                static_cast<unsigned long long>(total.matches), static_cast<unsigned long long>(total.attempts),
                total.match_ns / 1e6, total.total_ns / 1e6);
  os << line << table.num_rules << " rules, " << table.matched_once << " matched once\n";
}

}  // namespace tg
