// Port of tinygrad/uop/ops.py: RewriteContext.unified_rewrite, graph_rewrite,
// graph_rewrite_map and substitute.
#include "tinygrad/uop/graph_rewrite.h"

#include <cstdlib>
#include <deque>
#include <map>
#include <sstream>

#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
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
    return out;
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
  const Rule* recent_[kRecentRules] = {};
  size_t num_fired_ = 0;
};

RewriteContext MakeContext(const PatternMatcher& pm, const RewriteOptions& opts) {
  return RewriteContext(opts.bottom_up ? nullptr : &pm, opts.bottom_up ? &pm : opts.bpm, opts);
}

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
  UOp out = MakeContext(pm, opts).Rewrite(sink);
  if (SpecCheckLevel() > 0) CheckSpecAfterRewrite(out, opts.name);  // tinygrad's SPEC
  return out;
}

absl::flat_hash_map<UOp, UOp> GraphRewriteMap(const UOp& sink, const PatternMatcher& pm,
                                              const RewriteOptions& opts) {
  RewriteContext ctx = MakeContext(pm, opts);
  std::vector<UOp> order = sink.toposort();
  if (opts.bottom_up) std::reverse(order.begin(), order.end());
  absl::flat_hash_map<UOp, UOp> out;
  for (const UOp& k : order) out.emplace(k, ctx.Rewrite(k));
  if (SpecCheckLevel() > 0) CheckSpecAfterRewrite(out.at(sink), opts.name);  // tinygrad's SPEC
  return out;
}

UOp Substitute(const UOp& u, const absl::flat_hash_map<UOp, UOp>& replacements) {
  bool any = false;
  for (const auto& [k, v] : replacements) any |= (k != v);
  if (!any) return u;
  return GraphRewrite(u, SubstituteRules(),
                      {.name = "substitute", .bottom_up = true, .ctx = RewriteCtx::Of(replacements)});
}

}  // namespace tg
