// Port of tinygrad/uop/ops.py: RewriteContext.unified_rewrite, graph_rewrite,
// graph_rewrite_map and substitute.
#include "tinygrad/uop/graph_rewrite.h"

#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/uop/spec.h"

namespace tg {
namespace {

// tinygrad's REWRITE_STACK_LIMIT; we add room for every distinct node seen, so that deep but
// finite graphs (a 1M-node chain) rewrite while a cycle between rules still trips it.
constexpr size_t kBaseStackLimit = 250000;
constexpr size_t kRecentRules = 32;

class RewriteContext {
 public:
  RewriteContext(const PatternMatcher* pm, const PatternMatcher* bpm, const RewriteOptions& opts)
      : pm_(pm), bpm_(bpm), opts_(opts) {}

  // SPEC >= 2: from now on every node a rule makes, or a rebuild on rewritten sources makes, is
  // checked with full_spec. `input`'s graph is taken as given: its nodes were checked by
  // whoever made them.
  void CheckNewNodes(const UOp& input) {
    check_spec_ = true;
    for (const UOp& u : input.toposort()) checked_.insert(u);
  }

  UOp Rewrite(const UOp& root) {
    struct Item {
      UOp n;
      int stage;
      UOp new_n;
    };
    std::deque<Item> stack{{root, 0, root}};
    absl::flat_hash_set<UOp> on_stack{root};
    while (!stack.empty()) {
      if (stack.size() > kBaseStackLimit + 2 * on_stack.size()) NonTermination("stack too big");
      Item item = std::move(stack.back());
      stack.pop_back();
      const UOp& n = item.n;
      if (replace_.contains(n)) continue;
      if (item.stage == 0) {
        UOp new_n = n;
        if (bpm_ != nullptr) new_n = BottomUpFixedPoint(n);
        std::span<const UOp> srcs = new_n.src();
        stack.push_back({n, 1, new_n});
        for (auto it = srcs.rbegin(); it != srcs.rend(); ++it) {
          if (!on_stack.insert(*it).second) continue;
          stack.push_back({*it, 0, *it});
        }
      } else if (item.stage == 1) {
        const UOp& new_n = item.new_n;
        std::vector<UOp> new_src;
        new_src.reserve(new_n.src().size());
        bool ready = true;
        for (const UOp& x : new_n.src()) {
          auto it = replace_.find(x);
          if (it == replace_.end()) {
            ready = false;
            break;
          }
          new_src.push_back(it->second);
        }
        if (!ready) {  // some sources are not rewritten yet: try again later
          stack.push_front(std::move(item));
          continue;
        }
        UOp new_src_n;
        if (std::equal(new_src.begin(), new_src.end(), new_n.src().begin(), new_n.src().end())) {
          if (pm_ == nullptr || !(new_src_n = Apply(*pm_, new_n))) {
            replace_.emplace(n, new_n);
            continue;
          }
        } else {
          new_src_n = UOp::Make(new_n.op(), new_n.dtype(), new_src, new_n.arg(), new_n.tag());
          if (check_spec_) CheckMade(new_src_n, nullptr);
        }
        // Rewrite the new node, then link its result back to n.
        stack.push_back({n, 2, new_src_n});
        stack.push_back({new_src_n, 0, new_src_n});
      } else {
        auto it = replace_.find(item.new_n);
        if (it == replace_.end()) {
          stack.push_front(std::move(item));
        } else {
          UOp result = it->second;  // emplace may rehash, which would free *it first
          replace_.emplace(n, std::move(result));
        }
      }
    }
    return replace_.at(root);
  }

 private:
  UOp Apply(const PatternMatcher& pm, const UOp& u) {
    const Rule* fired = nullptr;
    UOp out = pm.Rewrite(u, opts_.ctx, &fired);
    if (out) recent_[num_fired_++ % kRecentRules] = fired;
    if (out && check_spec_) CheckMade(out, fired);
    return out;
  }

  // Checks the nodes of `made`'s graph not checked before; `rule` made them (null: a rebuild on
  // rewritten sources, after the last rule that fired).
  void CheckMade(const UOp& made, const Rule* rule) {
    std::vector<UOp> fresh;  // unchecked nodes, sources first
    std::vector<std::pair<UOp, size_t>> walk;
    if (checked_.insert(made).second) walk.push_back({made, 0});
    while (!walk.empty()) {
      auto& [u, next] = walk.back();
      if (next < u.src().size()) {
        const UOp& s = u.src(next++);
        if (checked_.insert(s).second) walk.push_back({s, 0});
        continue;
      }
      fresh.push_back(u);
      walk.pop_back();
    }
    absl::Status st = VerifySpec(std::span<const UOp>(fresh), SpecKind::kFull);
    if (st.ok()) return;
    std::ostringstream who;
    if (rule != nullptr) {
      who << "rule at " << rule->location() << " " << rule->pat().repr();
    } else {
      who << "rebuilding a node on its rewritten sources";
      if (num_fired_ > 0) {
        const Rule* last = recent_[(num_fired_ - 1) % kRecentRules];
        who << " (the last rule that fired: " << last->location() << " " << last->pat().repr() << ")";
      }
    }
    TG_CHECK(false) << "graph_rewrite" << (opts_.name.empty() ? "" : " '") << opts_.name
                    << (opts_.name.empty() ? "" : "'") << ": " << who.str()
                    << " made an invalid node (a bug in the rules; SPEC=" << SpecCheckLevel()
                    << "): " << st.message();
  }

  // Applies the bottom-up matcher until nothing changes (memoized per node).
  UOp BottomUpFixedPoint(const UOp& n) {
    absl::flat_hash_set<UOp> seen;
    UOp cur = n;
    while (true) {
      if (!seen.insert(cur).second) NonTermination("loop in the bottom-up fixed point");
      UOp next;
      if (auto it = bpm_cache_.find(cur); it != bpm_cache_.end()) {
        next = it->second;
      } else {
        next = Apply(*bpm_, cur);
        bpm_cache_.emplace(cur, next);
      }
      if (!next) return cur;
      cur = next;
    }
  }

  [[noreturn]] void NonTermination(const char* what) {
    std::map<std::string, int> counts;
    size_t n = std::min<size_t>(num_fired_, kRecentRules);
    for (size_t i = 0; i < n; ++i) counts[recent_[i]->location() + " " + recent_[i]->pat().repr()]++;
    std::ostringstream rules;
    for (const auto& [rule, count] : counts) rules << "\n  " << count << "x " << rule;
    TG_CHECK(false) << "graph_rewrite" << (opts_.name.empty() ? "" : " '") << opts_.name
                    << (opts_.name.empty() ? "" : "'") << " does not terminate (" << what
                    << ") after " << num_fired_ << " rewrites; the last " << n
                    << " rewrites came from these rules:" << rules.str();
    std::abort();
  }

  const PatternMatcher* pm_;
  const PatternMatcher* bpm_;
  const RewriteOptions& opts_;
  absl::flat_hash_map<UOp, UOp> replace_;
  absl::flat_hash_map<UOp, UOp> bpm_cache_;  // node -> bottom-up result (null: none applies)
  bool check_spec_ = false;
  absl::flat_hash_set<UOp> checked_;  // SPEC >= 2: the input graph and every node checked since
  const Rule* recent_[kRecentRules] = {};
  size_t num_fired_ = 0;
};

RewriteContext MakeContext(const PatternMatcher& pm, const RewriteOptions& opts, const UOp& input) {
  RewriteContext ctx(opts.bottom_up ? nullptr : &pm, opts.bottom_up ? &pm : opts.bpm, opts);
  if (SpecCheckLevel() >= 2) ctx.CheckNewNodes(input);  // tinygrad's SPEC=2
  return ctx;
}

// What one GraphRewrite / GraphRewriteMap call holds while it runs: its untracked scope, or its
// entry in the rewrite trace (TRACK_MATCH_STATS >= 2, the reference's profile_matches).
class RewriteTracking {
 public:
  RewriteTracking(const UOp& input, const RewriteOptions& opts) {
    if (!opts.track) {
      untracked_.emplace();
    } else if (TrackMatchStats() >= 2) {
      traced_.emplace(opts.name.empty() ? "graph_rewrite" : opts.name, opts.bottom_up, input);
    }
  }
  void Finish(const UOp& result) {
    if (traced_) traced_->set_output(result);
  }

 private:
  std::optional<ScopedUntrackedMatching> untracked_;
  std::optional<ScopedTracedRewrite> traced_;
};

using SubstituteMap = const absl::flat_hash_map<UOp, UOp>;

const PatternMatcher& SubstituteRules() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(GroupOp::All).named("x"),
       [](const Match& m) {
         SubstituteMap& map = m.ctx<SubstituteMap>();
         auto it = map.find(m["x"]);
         return it == map.end() ? UOp() : it->second;
       }),
  });
  return *kRules;
}

}  // namespace

UOp GraphRewrite(const UOp& sink, const PatternMatcher& pm, const RewriteOptions& opts) {
  RewriteTracking tracking(sink, opts);
  UOp out = MakeContext(pm, opts, sink).Rewrite(sink);
  tracking.Finish(out);
  return out;
}

absl::flat_hash_map<UOp, UOp> GraphRewriteMap(const UOp& sink, const PatternMatcher& pm,
                                              const RewriteOptions& opts) {
  RewriteTracking tracking(sink, opts);
  RewriteContext ctx = MakeContext(pm, opts, sink);
  std::vector<UOp> order = sink.toposort();
  if (opts.bottom_up) std::reverse(order.begin(), order.end());
  absl::flat_hash_map<UOp, UOp> out;
  for (const UOp& k : order) out.emplace(k, ctx.Rewrite(k));
  tracking.Finish(out.at(sink));
  return out;
}

UOp Substitute(const UOp& u, const absl::flat_hash_map<UOp, UOp>& replacements) {
  bool any = false;
  for (const auto& [k, v] : replacements) any |= (k != v);
  if (!any) return u;
  // Untracked, as the reference's substitute without a name.
  return GraphRewrite(u, SubstituteRules(),
                      {.name = "substitute", .bottom_up = true, .ctx = RewriteCtx::Of(replacements),
                       .track = false});
}

}  // namespace tg
