// File: tinygrad/uop/movement/movement.cc
// Port of tinygrad/schedule/indexing.py: apply_movement_op and _apply_reshape; and pm_mops from
// tinygrad/schedule/rangeify.py.
#include "tinygrad/uop/movement/movement.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {

MovementArg MovementArg::Of(const UOp& mop) {
  MovementArg a;
  switch (mop.op()) {
    case Ops::RESHAPE:
    case Ops::EXPAND: a.shape = mop.marg_shape(); break;
    case Ops::PAD:
    case Ops::SHRINK: a.pairs = mop.marg_pairs(); break;
    case Ops::PERMUTE:
      for (const Arg& x : mop.arg().tuple()) a.perm.push_back(x.int64());
      break;
    case Ops::FLIP:
      for (const Arg& x : mop.arg().tuple()) a.flip.push_back(x.number().to_bool());
      break;
    default: TG_CHECK(false) << mop.op() << " is not a MovementOp";
  }
  return a;
}

namespace {

const PatternMatcher& ReshapeSimplify() {
  static const auto* const kRules =
      new PatternMatcher(Symbolic() + PmSimplifyValid() + PmDropAndClauses());
  return *kRules;
}

const PatternMatcher& PadSimplify() {
  static const auto* const kRules = new PatternMatcher(Symbolic() + PmSimplifyValid());
  return *kRules;
}

// tinygrad's _apply_reshape: linearize the output indices with the output strides, then split
// the flat index over the input shape. The simplify replaces the old view-merging code.
UOp ApplyReshape(const Shape& in_shape, const Shape& out_shape, const UOp& urngs) {
  TG_CHECK(out_shape.size() == urngs.src().size());
  SInt acc = 1;
  std::vector<UOp> axes_in;
  for (size_t i = out_shape.size(); i-- > 0;) {
    const UOp& src = urngs.src(i);
    axes_in.push_back(acc.is_int() ? ConstValue(acc.value()) * src : acc.uop() * src);
    acc = acc * out_shape[i];
  }
  UOp combined = UOp::Const(dtypes::index, 0);
  for (const UOp& a : axes_in) combined = combined + a;
  std::vector<UOp> axes_out;
  for (size_t i = in_shape.size(); i-- > 0;) {
    UOp s = in_shape[i].ToUOp();
    axes_out.push_back(combined % s);
    combined = combined.idiv(s);
  }
  std::reverse(axes_out.begin(), axes_out.end());
  return GraphRewrite(UOp::Sink(axes_out), ReshapeSimplify(), {.name = "reshape"});
}

// functools.cache of _apply_reshape: reshapes repeat across the graph and the simplify is the
// expensive part of rangeify. Keyed by node identity of the placeholder sink (interned).
struct ReshapeKey {
  std::vector<SInt> in, out;
  UOp urngs;
  friend bool operator==(const ReshapeKey& a, const ReshapeKey& b) {
    return a.in == b.in && a.out == b.out && a.urngs == b.urngs;
  }
  template <typename H>
  friend H AbslHashValue(H h, const ReshapeKey& k) {
    h = H::combine(std::move(h), k.urngs, k.in.size(), k.out.size());
    for (const SInt& s : k.in) h = H::combine(std::move(h), s.is_int() ? s.value() : s.uop().key());
    for (const SInt& s : k.out) h = H::combine(std::move(h), s.is_int() ? s.value() : s.uop().key());
    return h;
  }
};

UOp CachedApplyReshape(const Shape& in_shape, const Shape& out_shape, const UOp& urngs) {
  static absl::Mutex mu;
  static auto* cache = new absl::flat_hash_map<ReshapeKey, UOp>();
  ReshapeKey key{in_shape, out_shape, urngs};
  {
    absl::MutexLock lock(&mu);
    auto it = cache->find(key);
    if (it != cache->end()) return it->second;
  }
  UOp ret = ApplyReshape(in_shape, out_shape, urngs);
  absl::MutexLock lock(&mu);
  cache->emplace(std::move(key), ret);
  return ret;
}

}  // namespace

std::vector<UOp> ApplyMovementOp(Ops op, const Shape& in_shape, const MovementArg& arg,
                                 std::span<const UOp> rngs) {
  std::vector<UOp> out;
  switch (op) {
    case Ops::SHRINK:
      TG_CHECK(arg.pairs.size() == rngs.size());
      for (size_t i = 0; i < rngs.size(); ++i) {
        const SInt& ss = arg.pairs[i].first;
        out.push_back(ss == SInt(0) ? rngs[i] : rngs[i] + ss.ToUOp());
      }
      break;
    case Ops::PERMUTE: {
      // rngs[p] for p in argsort(arg)
      std::vector<size_t> idx(arg.perm.size());
      std::iota(idx.begin(), idx.end(), 0);
      std::stable_sort(idx.begin(), idx.end(),
                       [&](size_t a, size_t b) { return arg.perm[a] < arg.perm[b]; });
      for (size_t p : idx) out.push_back(rngs[p]);
      break;
    }
    case Ops::FLIP:
      for (size_t i = 0; i < rngs.size(); ++i) {
        if (!arg.flip[i]) {
          out.push_back(rngs[i]);
        } else {
          SInt sm1 = in_shape[i] - SInt(1);
          out.push_back(sm1.is_int() ? ConstValue(sm1.value()) - rngs[i] : sm1.uop() - rngs[i]);
        }
      }
      break;
    case Ops::EXPAND:
      for (size_t i = 0; i < rngs.size(); ++i)
        out.push_back(in_shape[i] == arg.shape[i] ? rngs[i] : rngs[i].const_like(0));
      break;
    case Ops::PAD:
      for (size_t i = 0; i < rngs.size(); ++i) {
        const UOp& r = rngs[i];
        const auto& [s, e] = arg.pairs[i];
        if (s == SInt(0) && e == SInt(0)) {
          out.push_back(r);
          continue;
        }
        UOp su = s.ToUOp();
        UOp cond = r.ge(su) & r.lt((in_shape[i] + s).ToUOp());
        cond = GraphRewrite(cond, PadSimplify(), {.name = "pad"});
        out.push_back(cond.where(s.is_int() ? r - ConstValue(s.value()) : r - su, UOp::Invalid()));
      }
      break;
    case Ops::RESHAPE: {
      // ranges become PLACEHOLDER ranges for the (cached) reshape math, then are put back
      UOp sink = UOp::Sink(rngs);
      std::vector<UOp> rs = Ranges(sink);
      absl::flat_hash_map<UOp, UOp> to_ph, from_ph;
      for (size_t i = 0; i < rs.size(); ++i) {
        UOp ph = UOp::Range(rs[i].src(0), static_cast<int64_t>(i), AxisType::PLACEHOLDER);
        to_ph[rs[i]] = ph;
        from_ph[ph] = rs[i];
      }
      UOp ret = CachedApplyReshape(in_shape, arg.shape, Substitute(sink, to_ph));
      ret = Substitute(ret, from_ph);
      out.assign(ret.src().begin(), ret.src().end());
      break;
    }
    default: TG_CHECK(false) << op << " is not a MovementOp";
  }
  return out;
}

std::vector<UOp> ApplyMovementOp(const UOp& mop, std::span<const UOp> rngs) {
  const Shape* in = mop.src(0).shape();
  TG_CHECK(in) << "movement op on a node without shape";
  return ApplyMovementOp(mop.op(), *in, MovementArg::Of(mop), rngs);
}

// ** pm_mops **

namespace {

// INDEX(mop(x), idx...) -> INDEX(x, apply_movement_op(idx...))
UOp IndexThroughMop(const Match& m) {
  const UOp& r = m["r"];
  const UOp& idx = m["idx"];
  std::vector<UOp> src{r.src(0)};
  for (const UOp& i : ApplyMovementOp(r, idx.src().subspan(1))) src.push_back(i);
  return UOp::Make(Ops::INDEX, idx.dtype(), src, idx.arg());
}

// AFTER(mop(x), deps...) -> mop(AFTER(x, deps...)), the tag moves to the movement op
UOp MopAfterAfter(const Match& m) {
  const UOp& r = m["r"];
  const UOp& a = m["a"];
  std::vector<UOp> asrc(a.src().begin(), a.src().end());
  asrc[0] = r.src(0);
  UOp na = UOp::Make(a.op(), a.dtype(), asrc, a.arg());
  std::vector<UOp> rsrc(r.src().begin(), r.src().end());
  rsrc[0] = na;
  return UOp::Make(r.op(), r.dtype(), rsrc, r.arg(), a.tag());
}

// END(mop(x), ranges...) -> END(x, ranges...)
UOp MopOutOfEnd(const Match& m) {
  const UOp& a = m["a"];
  std::vector<UOp> asrc(a.src().begin(), a.src().end());
  asrc[0] = m["r"].src(0);
  return a.replace_src(asrc);
}

}  // namespace

const PatternMatcher& PmMops() {
  static const auto* const kRules = [] {
    UPat r = UPat(GroupOp::Movement).named("r");
    return new PatternMatcher({
        Rule(UPat(Ops::INDEX).src({r}).allow_any_len().named("idx"), IndexThroughMop),
        Rule(UPat(Ops::AFTER).src({r}).allow_any_len().named("a"), MopAfterAfter),
        Rule(UPat(Ops::END).src({r}).allow_any_len().named("a"), MopOutOfEnd),
    });
  }();
  return *kRules;
}

}  // namespace tg
