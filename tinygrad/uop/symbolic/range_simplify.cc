// File: tinygrad/uop/symbolic/range_simplify.cc
// Port of tinygrad/codegen/simplify.py: pm_flatten_range, pm_simplify_ranges, pm_split_ranges,
// the reduce simplifications (pm_reduce_unparented/collapse/load_collapse/simplify,
// pm_load_collapse) and pm_split_store.
#include "tinygrad/uop/symbolic/range_simplify.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// ** pm_flatten_range **

UOp FlattenRange(const Match& m) {
  const UOp& r = m["r"];
  int off = RangeStart(r.op());
  std::span<const UOp> rngs = r.src().subspan(off);
  if (rngs.empty()) return {};
  std::vector<UOp> src(r.src().begin(), r.src().begin() + off);
  for (const UOp& x : UOp::Sink(rngs).toposort())
    if (x.op() == Ops::RANGE) src.push_back(x);
  return r.replace_src(src);
}

// ** pm_simplify_ranges **

size_t CountDivmod(const UOp& x) {
  size_t n = 0;
  for (const UOp& u : x.toposort()) n += (u.op() == Ops::IDIV || u.op() == Ops::MOD);
  return n;
}

const PatternMatcher& MergeCheckRules() {
  static const auto* const kRules =
      new PatternMatcher(SubstituteRules() + Symbolic() + PmFlattenRange());
  return *kRules;
}

// Tries merging two ranges r0, r1 into RANGE(s0*s1) with r0 -> r//s1, r1 -> r%s1, and keeps the
// merge when it does not add IDIV/MOD nodes.
UOp SimplifyMergeAdjacent(const Match& m) {
  UOp u = m["u"];
  std::vector<std::vector<UOp>> reduce_ranges;
  for (const UOp& x : u.toposort())
    if (x.op() == Ops::REDUCE) reduce_ranges.push_back(Ranges(x));
  std::vector<UOp> ended = u.ended_ranges();
  std::vector<std::pair<UOp, UOp>> pairs;
  if (u.op() == Ops::END) {
    // on END only adjacent ranges merge
    for (size_t i = 0; i + 1 < ended.size(); ++i) pairs.emplace_back(ended[i], ended[i + 1]);
  } else {
    // on REDUCE every ordered pair is tried
    for (size_t i = 0; i < ended.size(); ++i)
      for (size_t j = 0; j < ended.size(); ++j)
        if (i != j) pairs.emplace_back(ended[i], ended[j]);
  }
  for (const auto& [r0, r1] : pairs) {
    if (r0.op() != Ops::RANGE || r1.op() != Ops::RANGE) continue;
    if (RangeAxisType(r0) != RangeAxisType(r1)) continue;
    bool same_reduces = std::all_of(reduce_ranges.begin(), reduce_ranges.end(), [&](const auto& rs) {
      return Contains(rs, r0) == Contains(rs, r1);
    });
    if (!same_reduces) continue;
    const UOp &s0 = r0.src(0), &s1 = r1.src(0);
    UOp new_range = r0.replace_src({s0 * s1});
    SubstituteMap subs{{r0, new_range.idiv(s1)}, {r1, new_range % s1}};
    UOp nidx = GraphRewrite(u, MergeCheckRules(), {.name = "check_merge", .ctx = RewriteCtx::Of(subs)});
    if (CountDivmod(nidx) <= CountDivmod(u)) u = nidx;
  }
  return u;
}

// ** pm_split_ranges **

bool Marked(const SplitRangesContext& ctx, const UOp& r) {
  return std::any_of(ctx.marks.begin(), ctx.marks.end(), [&](const auto& kv) { return kv.first == r; });
}

UOp MarkRangeMod(const Match& m) {
  auto& ctx = m.ctx<SplitRangesContext>();
  const UOp &r = m["r"], &c = m["c"];
  if (Marked(ctx, r) || r.src(0).op() != Ops::CONST || c.op() != Ops::CONST) return {};
  if (!ConstArg(c).is_int() || ConstArg(c).to_int() == 0) return {};
  if (Divides(r.src(0), ConstArg(c).to_int())) ctx.marks.emplace_back(r, c);
  return {};
}

UOp DoSubstitute(const Match& m) {
  auto& ctx = m.ctx<SplitRangesContext>();
  SubstituteMap subs;
  for (const auto& [k, v] : ctx.marks) {
    if (!v) continue;
    std::vector<Arg> ids = RangeIds(k);
    AxisType type = RangeAxisType(k);
    std::vector<Arg> hi_arg = ids, lo_arg = ids;
    hi_arg.insert(hi_arg.end(), {Arg(0), Arg(type)});
    lo_arg.insert(lo_arg.end(), {Arg(1), Arg(type)});
    UOp hi = UOp::Make(Ops::RANGE, k.dtype(), {k.src(0).idiv(v)}, Arg::Tuple(hi_arg));
    UOp lo = UOp::Make(Ops::RANGE, k.dtype(), {v}, Arg::Tuple(lo_arg));
    subs[k] = hi * v + lo;
  }
  if (subs.empty()) return {};
  UOp ret = Simplify(Substitute(m["x"], subs));
  ctx.marks.clear();
  return ret;
}

// ** reduce simplification **

bool NoRange(const UOp& u) { return !OpInBackwardSliceWithSelf(u, OpSet{Ops::RANGE}); }
bool NoLoad(const UOp& u) { return !OpInBackwardSliceWithSelf(u, OpSet{Ops::INDEX}); }

UOp ReduceUnparented(const Match& m) {
  const UOp& red = m["red"];
  Ops op = red.arg().ops();
  if (op != Ops::ADD && op != Ops::MAX && op != Ops::MUL) return {};
  std::vector<UOp> src_ranges = Ranges(red.src(0));
  std::vector<UOp> parented, unparented;
  for (const UOp& x : red.src().subspan(1)) {
    TG_CHECK(x.op() == Ops::RANGE) << "some reduce srcs aren't ranges";
    (Contains(src_ranges, x) ? parented : unparented).push_back(x);
  }
  if (unparented.empty()) return {};
  UOp ret = red.src(0);
  if (!parented.empty() || red.dtype() != red.src(0).dtype()) {
    std::vector<UOp> src{red.src(0)};
    src.insert(src.end(), parented.begin(), parented.end());
    ret = red.replace_src(src);
  }
  int count = ret.dtype().count();
  for (const UOp& r : unparented) {
    UOp n = r.src(0).cast(ret.dtype().scalar()).broadcast(count);
    if (op == Ops::ADD) ret = ret * n;
    if (op == Ops::MUL) ret = ret.pow(n);
  }
  return ret;
}

UPat ZeroPat() { return UPat::Const(std::vector<DType>{}, 0); }

const PatternMatcher& ReduceCollapseRules() {
  static const auto* const kRules = new PatternMatcher({
      // lift x+y out of reduce on lt
      Rule((UPat::Var("x") + UPat::Var("y")).or_casted().lt(UPat::Var("c")),
           [](const Match& m) {
             const UOp &x = m["x"], &y = m["y"], &c = m["c"];
             if (!NoRange(y) || !NoRange(c)) return UOp();
             return x.lt(c.cast(y.dtype()) - y);
           }),
      // lift x*y out of reduce
      Rule((UPat::Var("x") * UPat::Var("y")).lt(UPat::Var("c")),
           [](const Match& m) {
             const UOp &x = m["x"], &y = m["y"], &c = m["c"];
             if (!NoRange(y) || !NoRange(c) || !dtypes::is_int(y.dtype()) || !PyGt(y.vmin(), ConstValue(0)))
               return UOp();
             return x.lt((c + y - 1).idiv(y));
           }),
      // fold the range, bound from below: sum_{r} (r<cut ? 0 : val)
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({
               UPat(Ops::RANGE).named("r").lt(UPat::Var("cut")).where(ZeroPat(), UPat::Var("val")),
               UPat::Var("r")}),
           [](const Match& m) {
             const UOp &r = m["r"], &cut = m["cut"], &val = m["val"];
             if (!NoRange(val)) return UOp();
             return (r.src(0) - cut).maximum(0).minimum(r.src(0)).cast(val.dtype()) * val;
           }),
      // bound from two sides: sum_{r} (!(r<lower) & (r<upper) ? val : 0)
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({
               (UPat::Var("r").lt(UPat::Var("lower")).logical_not() &
                UPat(Ops::RANGE).named("r").lt(UPat::Var("upper")))
                   .where(UPat::Var("val"), ZeroPat()),
               UPat::Var("r")}),
           [](const Match& m) {
             const UOp &r = m["r"], &lower = m["lower"], &upper = m["upper"], &val = m["val"];
             if (!NoRange(val)) return UOp();
             return (upper.minimum(r.src(0)) - lower.maximum(0)).maximum(0).minimum(r.src(0))
                        .cast(val.dtype()) * val;
           }),
      // bound from above: sum_{r} (r<cut ? val : 0)
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({
               UPat(Ops::RANGE).named("r").lt(UPat::Var("cut")).where(UPat::Var("val"), ZeroPat()),
               UPat::Var("r")}),
           [](const Match& m) {
             const UOp &r = m["r"], &cut = m["cut"], &val = m["val"];
             if (!NoRange(val)) return UOp();
             return cut.maximum(0).minimum(r.src(0)).cast(val.dtype()) * val;
           }),
      // REDUCE on ADD: sum(x+y) -> sum(x)+sum(y)
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({UPat::Var("x") + UPat::Var("y")}).allow_any_len().named("r"),
           [](const Match& m) {
             std::span<const UOp> rngs = m["r"].src().subspan(1);
             return Reduce(m["x"], rngs, Ops::ADD) + Reduce(m["y"], rngs, Ops::ADD);
           }),
      // AND on WHERE: sum((x & y) ? c : 0) -> sum(y ? c : 0) * x
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({
               (UPat(Ops::DEFINE_VAR).named("x") & UPat::Var("y")).where(UPat::Var("c"), ZeroPat())})
               .allow_any_len().named("r"),
           [](const Match& m) {
             const UOp &x = m["x"], &y = m["y"], &c = m["c"];
             return Reduce(y.where(c, 0), m["r"].src().subspan(1), Ops::ADD) * x.cast(c.dtype());
           }),
      // MUL casted bool: x * gate.cast() -> gate ? x : 0
      Rule(UPat::Var("x") * UPat::Var("gate", {dtypes::bool_}).cast(),
           [](const Match& m) { return m["gate"].where(m["x"], 0); }),
  });
  return *kRules;
}

const PatternMatcher& LoadCollapseExtraRules() {
  static const auto* const kRules = new PatternMatcher({
      // lift x+y out of reduce on ne
      Rule((UPat::Var("x") + UPat::Var("y")).or_casted().ne(UPat::Var("c")),
           [](const Match& m) {
             const UOp &x = m["x"], &y = m["y"], &c = m["c"];
             if (!NoRange(y) || !NoRange(c)) return UOp();
             return x.ne(c.cast(y.dtype()) - y);
           }),
      // a reduce over a one-hot compare with a loaded index substitutes the range
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({
               UPat::Var("idx").ne(UPat(Ops::RANGE).named("r").or_casted()).where(ZeroPat(), UPat::Var("expr")),
               UPat::Var("r")}),
           [](const Match& m) {
             const UOp &r = m["r"], &idx = m["idx"], &expr = m["expr"];
             // Only an index the range does not feed picks one iteration; substituting an index
             // built from the range into itself never ends (the reference hangs on such a task).
             if (idx.has_range(r)) return UOp();
             UOp ci = idx.cast(r.dtype());
             UOp v = ci.ge(0) & ci.lt(r.src(0));
             SubstituteMap subs{{r, Valid(ci, v)}};
             return v.where(Substitute(expr, subs), 0);
           }),
  });
  return *kRules;
}

UOp ReduceCollapseWith(const Match& m, const PatternMatcher& pm) {
  const UOp& red = m["red"];
  UOp u = m["u"];
  for (const UOp& r : red.src().subspan(1)) {
    std::vector<UOp> included = Toposort(u, [&](const UOp& x) { return x.has_range(r); });
    for (const UOp& x : included)
      if (x.op() == Ops::STORE || x.op() == Ops::REDUCE) return {};
    absl::flat_hash_set<UOp> in_included(included.begin(), included.end());
    SubstituteMap replaces, back;
    constexpr OpSet kKeep{Ops::CONST, Ops::VCONST, Ops::DEFINE_GLOBAL, Ops::DEFINE_LOCAL, Ops::DEFINE_VAR};
    for (const UOp& x : included) {
      for (const UOp& s : x.src()) {
        if (in_included.contains(s) || replaces.contains(s) || kKeep.contains(s.op())) continue;
        UOp var = UOp::Make(Ops::DEFINE_VAR, s.dtype(), {},
                            Arg::Tuple({Arg("in" + std::to_string(replaces.size())), Arg(s.vmin()),
                                        Arg(s.vmax())}));
        replaces[s] = var;
        back[var] = s;
      }
    }
    UOp collapse_fxn = Reduce(Substitute(u, replaces), std::span<const UOp>(&r, 1), Ops::ADD);
    UOp sink = GraphRewrite(collapse_fxn, pm, {.name = "reduce_collapse"});
    if (!NoRange(sink)) return {};
    u = Substitute(sink, back);
  }
  return u;
}

UOp ReduceCollapse(const Match& m) { return ReduceCollapseWith(m, PmReduceCollapse()); }
UOp ReduceLoadCollapse(const Match& m) { return ReduceCollapseWith(m, PmReduceLoadCollapse()); }

// ** pm_split_store **

UOp CutStoreRange(const Match& m) {
  const UOp &store = m["store"], &r = m["r"];
  // only cut ranges on CPU for now
  if (r.op() != Ops::RANGE || r.src(0).op() != Ops::CONST || m.ctx<const std::string>() != "CPU") return {};
  // Python ints in the reference: a range merged from others may pass int64 (2**66 from two of
  // 2**33, in a kernel from the network), and its cuts with it.
  std::vector<i128> cuts{0};
  bool any = false;
  auto consumers = ConsumerMap(store);
  for (const UOp& c : consumers[r]) {
    if (c.op() == Ops::CMPLT && c.src(0) == r && c.src(1).op() == Ops::CONST) {
      cuts.push_back(c.src(1).arg().number().to_int());
      any = true;
    }
  }
  if (!any) return {};
  cuts.push_back(r.src(0).arg().number().to_int());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Arg> ids = RangeIds(r);
  AxisType type = RangeAxisType(r);
  std::vector<UOp> pieces;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    std::vector<Arg> arg = ids;
    arg.insert(arg.end(), {Arg(static_cast<int64_t>(i)), Arg(type)});
    UOp new_r = RangeWithArg(UOp::Const(dtypes::index, ConstValue(cuts[i + 1] - cuts[i])), Arg::Tuple(arg));
    SubstituteMap subs{{r, new_r + ConstValue(cuts[i])}};
    UOp piece = Substitute(store, subs);
    pieces.push_back(End(piece, std::span<const UOp>(&new_r, 1)));
  }
  return Group(pieces);
}

}  // namespace

const PatternMatcher& PmFlattenRange() {
  static const auto* const kRules = new PatternMatcher({
      // real ranges only
      Rule(UPat(OpSet{Ops::REDUCE, Ops::STORE, Ops::END}).named("r"), FlattenRange),
  });
  return *kRules;
}

const PatternMatcher& PmSimplifyRanges() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(OpSet{Ops::END, Ops::REDUCE}).named("u"), SimplifyMergeAdjacent),
  });
  return *kRules;
}

const PatternMatcher& PmSplitRanges() {
  static const auto* const kRules = new PatternMatcher({
      // r % c: remember r for splitting
      Rule(UPat(Ops::RANGE).named("r") % UPat::CVar("c"), MarkRangeMod),
      // TODO(parity): dont_sub_ranges_for_image (no ImageDType in the port yet)
      // at the SINK: split every marked range
      Rule(UPat(Ops::SINK).named("x"), DoSubstitute),
  });
  return *kRules;
}

const PatternMatcher& PmReduceUnparented() {
  static const auto* const kRules = new PatternMatcher({
      // remove any ranges from a REDUCE that aren't referenced in the reduce source
      Rule(UPat(Ops::REDUCE).named("red"), ReduceUnparented),
  });
  return *kRules;
}

const PatternMatcher& PmReduceCollapse() {
  static const auto* const kRules =
      new PatternMatcher(PmReduceUnparented() + ReduceCollapseRules() + Symbolic());
  return *kRules;
}

const PatternMatcher& PmReduceLoadCollapse() {
  static const auto* const kRules = new PatternMatcher(PmReduceCollapse() + LoadCollapseExtraRules());
  return *kRules;
}

const PatternMatcher& PmReduceSimplify() {
  static const auto* const kRules = new PatternMatcher(PmReduceUnparented() + PatternMatcher({
      // an ADD REDUCE folds in closed form when it can
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({UPat::Var("u")}).allow_any_len().named("red"),
           ReduceCollapse),
  }));
  return *kRules;
}

const PatternMatcher& PmLoadCollapse() {
  static const auto* const kRules = new PatternMatcher({
      // a reduce over a one-hot compare with a loaded index becomes a gather
      Rule(UPat(Ops::REDUCE).arg(Ops::ADD).src({UPat::Var("u"), UPat()}).named("red"), ReduceLoadCollapse),
      // no math on a loaded index (it can overflow): undo the lift of pm_reduce_load_collapse
      Rule((UPat::Var("x", {dtypes::index}) + UPat::Var("y")).lt(UPat::Var("c")),
           [](const Match& m) {
             const UOp &x = m["x"], &y = m["y"], &c = m["c"];
             if (!NoLoad(y) || !NoLoad(c) || NoLoad(x)) return UOp();
             return x.lt(c - y);
           }),
  });
  return *kRules;
}

const PatternMatcher& PmSplitStore() {
  static const auto* const kRules = new PatternMatcher(PmFlattenRange() + PatternMatcher({
      // cut a store's range at its constant comparison points (CPU only)
      Rule(UPat(Ops::END).src({UPat(Ops::STORE).named("store"), UPat::Var("r")}), CutStoreRange),
  }));
  return *kRules;
}

}  // namespace tg
