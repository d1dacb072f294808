// File: tinygrad/codegen/linearizer.cc
// Port of tinygrad/codegen/late/linearizer.py and codegen/__init__.py pm_linearize_cleanups.
#include "tinygrad/codegen/linearizer.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
#include "tinygrad/codegen/py_sort.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// (run_count, priority, extra) of tinygrad's linearize.
struct Priority {
  i128 run_count;
  int priority;
  Arg extra;
};

bool ArgLessPy(const Arg& a, const Arg& b) {
  // extras are ints (DEFINE_GLOBAL slots) or (name, lo, hi) tuples (DEFINE_VAR), or None.
  if (a.is_none() || b.is_none()) return false;
  if (a.is_number() && b.is_number()) return NumLess(a.number(), b.number());
  if (a.is_string() && b.is_string()) return a.str() < b.str();
  if (a.is_tuple() && b.is_tuple()) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
      if (ArgLessPy(a[i], b[i])) return true;
      if (ArgLessPy(b[i], a[i])) return false;
    }
    return a.size() < b.size();
  }
  return false;
}

int BasePriority(Ops op) {
  switch (op) {
    case Ops::DEFINE_GLOBAL: return -20;
    case Ops::DEFINE_VAR: return -19;
    case Ops::DEFINE_LOCAL: return -18;
    case Ops::DEFINE_REG: return -17;
    case Ops::CONST: return -10;  // early consts
    case Ops::LOAD: return -1;    // place loads early
    case Ops::STORE: return 1;    // place stores late
    case Ops::RANGE: return 5;    // placing RANGE is good
    case Ops::END: return -5;     // placing END is bad
    default: return 0;
  }
}

}  // namespace

std::vector<UOp> Linearize(const UOp& sink) {
  std::vector<UOp> lst = sink.toposort();
  absl::flat_hash_map<UOp, int> out_degree;
  absl::flat_hash_map<UOp, int> consumers;
  absl::flat_hash_map<UOp, Priority> priorities;
  for (auto it = lst.rbegin(); it != lst.rend(); ++it) {
    const UOp& u = *it;
    for (const UOp& s : u.src()) consumers[s]++;
    out_degree[u] = consumers[u];
    // nodes with higher run counts go later
    i128 run_count = 1;
    for (const UOp& r : u.ranges()) {  // saturating at kIntInf, as ConstValue's ints do
      if (__builtin_mul_overflow(run_count, r.vmax().to_int() + 1, &run_count) || run_count > kIntInf)
        run_count = kIntInf;
    }
    Arg extra;
    if (u.op() == Ops::DEFINE_GLOBAL || u.op() == Ops::DEFINE_VAR) extra = u.arg();
    priorities[u] = Priority{run_count, BasePriority(u.op()), extra};
  }
  // number the nodes in the "ideal" order
  std::vector<UOp> sorted = lst;
  // Python's sorted(): the key order is partial (pointer dtypes that differ only in size or
  // address space are unordered), so the exact algorithm decides where such nodes land.
  PySort(sorted, [&](const UOp& a, const UOp& b) {
    const Priority &pa = priorities.at(a), &pb = priorities.at(b);
    if (pa.run_count != pb.run_count) return pa.run_count < pb.run_count;
    if (pa.priority != pb.priority) return pa.priority < pb.priority;
    if (ArgLessPy(pa.extra, pb.extra)) return true;
    if (ArgLessPy(pb.extra, pa.extra)) return false;
    return TuplizeLess(a, b);
  });
  absl::flat_hash_map<UOp, size_t> nkey;
  for (size_t i = 0; i < sorted.size(); ++i) nkey[sorted[i]] = i;
  // then toposort as close to the ideal order as possible, from the sink backwards
  using Item = std::pair<size_t, UOp>;
  auto cmp = [](const Item& a, const Item& b) { return a.first < b.first; };  // max-heap
  std::priority_queue<Item, std::vector<Item>, decltype(cmp)> heap(cmp);
  heap.push({nkey.at(sink), sink});
  std::vector<UOp> out;
  while (!heap.empty()) {
    UOp u = heap.top().second;
    heap.pop();
    out.push_back(u);
    for (const UOp& v : u.src())
      if (--out_degree[v] == 0) heap.push({nkey.at(v), v});
  }
  std::reverse(out.begin(), out.end());
  return out;
}

namespace {
// An insertion-ordered set of nodes.
struct OrderedSet {
  std::vector<UOp> items;
  absl::flat_hash_set<UOp> index;
  void Add(const UOp& u) {
    if (index.insert(u).second) items.push_back(u);
  }
  bool Has(const UOp& u) const { return index.contains(u); }
};
}  // namespace

CFGContext::CFGContext(const UOp& sink) {
  // Ranges relate in three ways: nested (END y depends on END x and RANGE x on END y),
  // dependent (END y depends on END x but RANGE x not on END y), independent. Everything is
  // nested in the sink.
  absl::flat_hash_map<UOp, OrderedSet> deps;
  std::vector<std::pair<UOp, UOp>> nesting;  // END -> the END/SINK it is nested in, ordered
  absl::flat_hash_set<UOp> nested;
  for (const UOp& u : sink.toposort()) {
    OrderedSet d;
    for (const UOp& s : u.src())
      for (const UOp& x : deps.at(s).items) d.Add(x);
    if (u.op() == Ops::END || u.op() == Ops::SINK) {
      for (const UOp& x : d.items) {
        if (x.op() != Ops::END || nested.contains(x)) continue;
        if (u.op() == Ops::SINK || deps.at(x).Has(u.src(1))) {
          nesting.emplace_back(x, u);
          nested.insert(x);
        }
      }
    }
    if (u.op() == Ops::RANGE || u.op() == Ops::END) d.Add(u);
    deps.emplace(u, std::move(d));
  }
  std::vector<std::pair<UOp, std::vector<UOp>>> siblings;
  for (const auto& [k, parent] : nesting) {
    auto it = std::find_if(siblings.begin(), siblings.end(), [&](const auto& s) { return s.first == parent; });
    if (it == siblings.end()) {
      siblings.push_back({parent, {k}});
    } else {
      it->second.push_back(k);
    }
  }
  for (const auto& [k, v] : siblings) {
    // ranges that depend on other siblings are scheduled after them
    std::vector<UOp> order = v;
    auto count = [&](const UOp& x) {
      return std::count_if(v.begin(), v.end(), [&](const UOp& u) { return deps.at(x).Has(u); });
    };
    std::stable_sort(order.begin(), order.end(), [&](const UOp& a, const UOp& b) { return count(a) < count(b); });
    std::vector<UOp> firsts;
    if (k.op() != Ops::SINK) firsts.push_back(k.src(1));
    firsts.insert(firsts.end(), order.begin(), order.end());
    size_t skip = k.op() == Ops::SINK ? 1 : 0;
    for (size_t i = 0; i + skip < order.size(); ++i) {
      const UOp& x = firsts[i];
      const UOp& y = order[i + skip];
      TG_CHECK(!InBackwardSliceWithSelf(x, y.src(1))) << "control flow edge would make a cycle";
      edges_[y.src(1)] = x;
    }
  }
}

const PatternMatcher& PmAddControlFlow() {
  static const auto* const kRules = new PatternMatcher({
      // a RANGE waits for its predecessor sibling loop
      Rule(UPat(Ops::RANGE).named("x"),
           [](const Match& m) {
             const UOp& x = m["x"];
             const auto& edges = m.ctx<CFGContext>().edges();
             auto it = edges.find(x);
             if (it == edges.end()) return UOp();
             std::vector<UOp> src(x.src().begin(), x.src().end());
             src.push_back(it->second);
             return x.replace_src(src);
           }),
  });
  return *kRules;
}

const PatternMatcher& PmSplitEnds() {
  static const auto* const kRules = new PatternMatcher({
      // split the ends: END(x, r0, r1) -> END(END(x, r1), r0)
      Rule(UPat(Ops::END).named("e"),
           [](const Match& m) {
             const UOp& e = m["e"];
             std::vector<UOp> rngs = Ranges(UOp::Sink(e.src().subspan(1)));
             std::stable_sort(rngs.begin(), rngs.end(), [](const UOp& a, const UOp& b) {
               return RangeArgLess(b.arg(), a.arg());
             });
             UOp ret = e.src(0);
             for (const UOp& r : rngs) ret = End(ret, std::span<const UOp>(&r, 1));
             return ret;
           }),
  });
  return *kRules;
}

std::vector<UOp> LinearizeCleanups(std::span<const UOp> lst) {
  std::vector<UOp> out;
  absl::flat_hash_map<UOp, UOp> replaced;
  for (const UOp& u : lst) {
    TG_CHECK(u.op() != Ops::IF && u.op() != Ops::ENDIF) << "if not allowed in graph";
    std::vector<UOp> src;
    for (const UOp& x : u.src()) src.push_back(replaced.at(x));
    UOp nu = u.replace_src(src);
    replaced[u] = nu;
    // a gated INDEX becomes IF-STORE-ENDIF: the only use of IF/ENDIF
    if (nu.op() == Ops::STORE && nu.src().size() >= 2) {
      UOp idx = nu.src(0);
      if (idx.op() == Ops::CAST) idx = idx.src(0);
      if (idx.op() == Ops::INDEX && idx.src().size() == 3 && idx.src(2).dtype() == dtypes::bool_) {
        UOp mif = UOp::Make(Ops::IF, dtypes::void_, {idx.src(2), nu.src(0)});
        out.push_back(mif);
        out.push_back(nu);
        out.push_back(UOp::Make(Ops::ENDIF, dtypes::void_, {mif}));
        continue;
      }
    }
    out.push_back(nu);
  }
  return out;
}

}  // namespace tg
