// Port of tinygrad/uop/symbolic.py: the valid simplification machinery (parse_valid,
// uop_given_valid, simplify_valid, pm_simplify_valid) and the gated-index cleanups built on
// it (drop_and_clauses / pm_drop_and_clauses, where_on_load / pm_move_where_on_load).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// A clause `X <= c` (upper) or `X >= c` (lower) of a valid.
struct Bound {
  UOp expr;
  bool is_upper;
  ConstValue c;
};

// (X < c).ne(True) is X >= c; X < c is X <= c-1; anything else is not a bound.
std::optional<Bound> ParseValid(const UOp& v) {
  if (v.op() == Ops::CMPNE && v.src(1).op() == Ops::CONST && PyEq(ConstArg(v.src(1)), 1) &&
      v.src(0).op() == Ops::CMPLT && dtypes::is_int(v.src(0).src(0).dtype())) {
    const UOp& s0 = v.src(0);
    return Bound{s0.src(0), false, ConstValue(s0.src(1).vmin().to_int())};
  }
  // NOTE: v.src(1) can be a VCONST
  if (v.op() == Ops::CMPLT && dtypes::is_int(v.src(0).dtype()))
    return Bound{v.src(0), true, ConstValue(v.src(1).vmax().to_int() - 1)};
  return std::nullopt;
}

using SubstMap = absl::flat_hash_map<UOp, UOp>;

// Every candidate of a set simplifies `uop` to the same node: that node, else what the two
// lanes of a 2-wide VECTORIZE agree on. `uop` unchanged when the set doesn't apply.
UOp TryCandidates(const UOp& uop, const std::vector<std::pair<UOp, UOp>>& candidate) {
  std::vector<UOp> newuops;
  for (const auto& [big_x, new_x] : candidate) {
    UOp u = Substitute(uop, SubstMap{{big_x, new_x}});
    if (u == uop) return uop;  // a branch that doesn't appear in uop: skip the set
    newuops.push_back(u);
  }
  for (size_t i = 0; i < newuops.size(); ++i) {
    const auto& [big_x, new_x] = candidate[i];
    newuops[i] = Simplify(Substitute(Simplify(newuops[i]), SubstMap{{new_x, big_x}}));
  }
  if (AllSame(newuops)) return newuops[0];
  UOp out = uop;
  if (uop.op() == Ops::VECTORIZE && uop.src().size() == 2) {
    auto lanes_same = [&](size_t lane) {
      return std::all_of(newuops.begin(), newuops.end(),
                         [&](const UOp& n) { return n.src(lane) == newuops[0].src(lane); });
    };
    if (lanes_same(0)) out = out.replace_src({newuops[0].src(0), out.src(1)});
    if (lanes_same(1)) out = out.replace_src({out.src(0), newuops[0].src(1)});
  }
  return out;
}

// A valid clause's sort key: clauses whose expression appears inside other clauses go first.
int ValidPriority(const UOp& v, const std::vector<UOp>& valids) {
  std::optional<Bound> res = ParseValid(v);
  if (!res) return 0;
  int key = 0;
  for (const UOp& other : valids)
    if (InBackwardSliceWithSelf(other, res->expr)) --key;
  return key;
}

// AND of clauses: each clause simplified given the ones before it.
UOp SimplifyValidRule(const Match& m) { return SimplifyValid(m["valid"]); }

UOp GatedGivenValid(const Match& m) {
  // tinygrad skips this for image indexing (IMAGE > 0 with IDIV/MOD in x); we have no images.
  const UOp& cond = m["cond"];
  return cond.where(UOpGivenValid(cond, m["x"], /*try_simplex=*/false), m["i"]);
}

// where(cond, x, Invalid) -> where(cond', x, Invalid) with the AND clauses of cond that use
// none of x's ranges dropped.
UOp DropAndClauses(const Match& m) {
  const UOp &cond = m["cond"], &x = m["x"];
  std::vector<UOp> x_ranges = Ranges(x);
  std::vector<UOp> keep;
  bool dropped = false;
  for (const UOp& c : SplitUOp(cond, Ops::AND)) {
    std::vector<UOp> c_ranges = Ranges(c);
    bool uses_x_range = std::any_of(c_ranges.begin(), c_ranges.end(),
                                    [&](const UOp& r) { return Contains(x_ranges, r); });
    if (uses_x_range) {
      keep.push_back(c);
    } else {
      dropped = true;
    }
  }
  if (!dropped) return {};
  keep.insert(keep.begin(), UOp::Const(dtypes::bool_, true));
  return UOpProd(keep).where(x, m["i"]);
}

// where(c1, buf[x], 0) -> where(rest, buf[x.valid(moved & c2)], 0): clauses of c1 that only use
// ranges the load already has (and no other loads) move into the load's valid.
UOp WhereOnLoad(const UOp& c1, const UOp& buf, const UOp& x) {
  UOp c2 = GetValid(x);
  std::vector<UOp> c1_clauses = SplitUOp(c1, Ops::AND), c2_clauses = SplitUOp(c2, Ops::AND);
  std::vector<UOp> duplicate, moved;
  for (const UOp& c : c1_clauses)
    if (Contains(c2_clauses, c)) duplicate.push_back(c);
  std::vector<UOp> x_ranges = Ranges(x);
  std::vector<UOp> x_slice = x.toposort();
  for (const UOp& c : c1_clauses) {
    if (Contains(duplicate, c)) continue;
    std::vector<UOp> c_ranges = Ranges(c);
    bool in_ranges = std::all_of(c_ranges.begin(), c_ranges.end(),
                                 [&](const UOp& r) { return Contains(x_ranges, r); });
    // also no data dependent loads!
    std::vector<UOp> c_slice = c.toposort();
    bool loads_ok = std::all_of(c_slice.begin(), c_slice.end(), [&](const UOp& u) {
      return u.op() != Ops::INDEX || Contains(x_slice, u);
    });
    if (in_ranges && loads_ok) moved.push_back(c);
  }
  std::vector<UOp> removed = moved;
  removed.insert(removed.end(), duplicate.begin(), duplicate.end());
  if (removed.empty()) return {};
  // additionally the clause on the where can be dropped if it already exists in the load
  std::vector<UOp> remaining{UOp::Const(dtypes::bool_, true)};
  for (const UOp& c : c1_clauses)
    if (!Contains(removed, c)) remaining.push_back(c);
  UOp new_valid = c2;
  for (const UOp& c : moved) new_valid = new_valid & c;
  UOp index = buf.index(std::vector<UOp>{Valid(GetIdx(x), new_valid)});
  return UOpProd(remaining).where(index, index.const_like(0));
}

}  // namespace

UOp UOpGivenValid(const UOp& valid, const UOp& u, bool try_simplex) {
  // first, parse valid into {expr: [lower bound, upper bound]}
  struct ExprBounds {
    UOp expr;
    std::optional<ConstValue> lower, upper;
  };
  std::vector<ExprBounds> bounds;  // insertion-ordered, like tinygrad's defaultdict
  for (const UOp& stmt : SplitUOp(valid, Ops::AND)) {
    std::optional<Bound> res = ParseValid(stmt);
    if (!res) continue;
    auto it = std::find_if(bounds.begin(), bounds.end(),
                           [&](const ExprBounds& b) { return b.expr == res->expr; });
    if (it == bounds.end())
      it = bounds.insert(bounds.end(), ExprBounds{res->expr, std::nullopt, std::nullopt});
    (res->is_upper ? it->upper : it->lower) = res->c;
  }

  // simplify uop given that valid is True
  UOp uop = u;
  std::vector<std::pair<UOp, UOp>> all_candidates;
  for (size_t i = 0; i < bounds.size(); ++i) {
    const UOp& expr = bounds[i].expr;
    ConstValue v0 = bounds[i].lower.value_or(expr.vmin());
    ConstValue v1 = bounds[i].upper.value_or(expr.vmax());
    std::string name = "fake" + std::to_string(i);
    // try checking the whole clause
    all_candidates.emplace_back(expr, UOp::Variable(name, v0, v1, expr.dtype()));
    if (!try_simplex) continue;
    // every candidate is a set of constrained UOps based on valid; if every item in a set
    // simplifies the uop into the same output, we rewrite the uop
    std::vector<std::vector<std::pair<UOp, UOp>>> candidates{{all_candidates.back()}};
    std::vector<UOp> terms = SplitUOp(expr, Ops::ADD);
    if (expr.op() == Ops::ADD && PyEq(v0, 1) &&
        std::all_of(terms.begin(), terms.end(),
                    [](const UOp& t) { return GroupOp::Irreducible.contains(t.op()); })) {
      // a simplex X0 + X1 + ... > 0: check whether all Xi > 0 simplify to the same output
      std::vector<std::pair<UOp, UOp>> simplex;
      for (const UOp& xi : terms)
        simplex.emplace_back(xi, UOp::Variable(name, 1, xi.vmax(), xi.dtype()));
      candidates.push_back(std::move(simplex));
    }
    for (const auto& candidate : candidates) uop = TryCandidates(uop, candidate);
  }

  // try all the valids together (but only the whole expressions)
  SubstMap sub_dict, back;
  for (const auto& [big_x, new_x] : all_candidates) {
    sub_dict.emplace(big_x, new_x);
    back.emplace(new_x, big_x);
  }
  UOp s_uop = Substitute(uop, sub_dict);
  if (s_uop != uop) uop = Simplify(Substitute(Simplify(s_uop), back));
  return uop;
}

UOp SimplifyValid(const UOp& valid) {
  // this should only be for indexing: skip if there's an INDEX
  if (OpInBackwardSliceWithSelf(valid, OpSet{Ops::INDEX})) return {};
  std::vector<UOp> valids = SplitUOp(valid, Ops::AND);
  std::vector<std::pair<int, UOp>> keyed;
  for (const UOp& v : valids) keyed.emplace_back(ValidPriority(v, valids), v);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < valids.size(); ++i) valids[i] = keyed[i].second;
  std::vector<UOp> ret;
  for (UOp stmt : Dedup(valids)) {
    if (!ret.empty()) stmt = UOpGivenValid(UOpProd(ret), stmt);
    ret.push_back(stmt);
  }
  return ret != valids ? UOpProd(ret) : UOp();
}

const PatternMatcher& PmSimplifyValid() {
  static const auto* const kRules = [] {
    UPat invalid_gate = UPat::Var("cond").where(
        UPat::Var("x"), UPat(Ops::CONST).arg(ConstValue::Invalid()).named("i"));
    return new PatternMatcher({
        // simplify valid: an AND of clauses, each given the others
        Rule(UPat(Ops::AND).named("valid"), SimplifyValidRule),
        // where(cond, x, Invalid) -> where(cond, x given cond, Invalid)
        Rule(invalid_gate, GatedGivenValid),
    });
  }();
  return *kRules;
}

const PatternMatcher& PmDropAndClauses() {
  static const auto* const kRules = [] {
    UPat invalid_gate = UPat::Var("cond").where(
        UPat::Var("x"), UPat(Ops::CONST).arg(ConstValue::Invalid()).named("i"));
    return new PatternMatcher({
        // where(a & b, x, Invalid) -> where(a, x, Invalid) when b uses none of x's ranges
        Rule(invalid_gate, DropAndClauses),
    });
  }();
  return *kRules;
}

const PatternMatcher& PmMoveWhereOnLoad() {
  static const auto* const kRules = [] {
    UPat c1 = UPat::Var("c1"), idx = UPat::Var("buf").index(UPat::Var("x"));
    return new PatternMatcher({
        // where(c1, buf[x], 0) -> buf[x.valid(c1)] (the clauses that can move)
        Rule(c1.where(idx, idx.const_like(0)),
         [](const Match& m) { return WhereOnLoad(m["c1"], m["buf"], m["x"]); }),
        // where(c1, 0, buf[x]) -> buf[x.valid(!c1)]
        Rule(c1.where(idx.const_like(0), idx),
         [](const Match& m) { return WhereOnLoad(m["c1"].logical_not(), m["buf"], m["x"]); }),
    });
  }();
  return *kRules;
}

}  // namespace tg
