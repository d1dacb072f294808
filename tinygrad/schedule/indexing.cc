// File: tinygrad/schedule/indexing.cc
// Port of tinygrad/schedule/indexing.py: run_rangeify (the movement index math is
// tinygrad/uop/movement).
#include "tinygrad/schedule/indexing.h"

#include <algorithm>
#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/movement/movement.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {

// ** run_rangeify **

bool AlwaysContiguous(Ops op) {
  static constexpr OpSet kOps{Ops::CONTIGUOUS,    Ops::ASSIGN,       Ops::COPY,       Ops::BUFFER,
                              Ops::BUFFER_VIEW,   Ops::CONST,        Ops::BIND,       Ops::DEVICE,
                              Ops::MSELECT,       Ops::MSTACK,       Ops::DEFINE_GLOBAL,
                              Ops::DEFINE_LOCAL,  Ops::DEFINE_REG,   Ops::LOAD,       Ops::KERNEL,
                              Ops::ENCDEC};
  return kOps.contains(op);
}

UOp IndexingContext::NewRange(const SInt& s, AxisType type) {
  if (!s.is_int() && s.uop().op() == Ops::RANGE) return s.uop();
  // a range of size 1 is the same as index 0
  bool not_one = s.is_int() ? s.value() != 1 : Resolve(s.uop().ne(ConstValue(1)), true);
  if (!not_one) return UOp::Const(dtypes::index, 0);
  return UOp::Range(s.ToUOp(), range_idx++, type);
}

namespace {

using RealizeMap = absl::flat_hash_map<UOp, std::optional<std::vector<int>>>;

bool HasAxis(const std::vector<int>& axes, size_t i) {
  return std::find(axes.begin(), axes.end(), static_cast<int>(i)) != axes.end();
}

bool HasOuterRange(const UOp& r) {
  for (const UOp& s : r.src().subspan(1))
    if (s.op() == Ops::RANGE && s.arg()[s.arg().size() - 1].axis_type() == AxisType::OUTER)
      return true;
  return false;
}

// tinygrad's pm_generate_realize_map: every rule only records, so all matching rules run.
void GenerateRealizeMap(const std::vector<UOp>& topo, RealizeMap& rm) {
  auto mark = [&](const UOp& u) { rm.try_emplace(u, std::nullopt); };
  for (const UOp& u : topo) {
    Ops op = u.op();
    // always realize SINK srcs
    if (op == Ops::SINK)
      for (const UOp& x : u.src())
        if (!AlwaysContiguous(x.base().op())) mark(x.base());
    // always realize COPY/BUFFER_VIEW/CONTIGUOUS/STORE/ENCDEC
    if (op == Ops::COPY || op == Ops::BUFFER_VIEW || op == Ops::CONTIGUOUS || op == Ops::STORE ||
        op == Ops::ENCDEC)
      mark(u);
    // always realize REDUCE on outer ranges
    if (op == Ops::REDUCE && HasOuterRange(u)) mark(u);
    // realize srcs of COPY, MSELECT, MSTACK, ENCDEC
    if (op == Ops::COPY || op == Ops::MSELECT || op == Ops::MSTACK || op == Ops::ENCDEC)
      for (const UOp& s : u.src())
        if (!AlwaysContiguous(s.base().op())) mark(s);
    // realize ASSIGN and the input to assign (might be optimized out); not a KERNEL value
    if (op == Ops::ASSIGN) {
      if (!AlwaysContiguous(u.src(1).op())) mark(u.src(1));
      if (u.src(1).op() != Ops::KERNEL) mark(u);
    }
  }
}

UOp IndexOf(const UOp& x, std::span<const UOp> idx) {
  std::vector<UOp> src{x};
  src.insert(src.end(), idx.begin(), idx.end());
  return UOp::Make(Ops::INDEX, x.dtype(), src);
}

UOp OrAll(std::span<const UOp> vs, bool start) {
  UOp acc = UOp::Const(dtypes::bool_, start);
  for (const UOp& v : vs) acc = start ? (acc & v) : (acc | v);
  return acc;
}

// ** pm_apply_rangeify **

// range_map[to] = rngs, a copy of another entry's ranges (taken by value on purpose). Never
// `map[to] = it->second`: inserting `to` can rehash, and the assignment then copies from the
// moved-away slot (empty ranges: a buffer read lost its index and a reduce over it folded away,
// depending on the map's size).
void SetRanges(IndexingContext& ctx, const UOp& to, std::pair<std::vector<UOp>, std::vector<UOp>> rngs) {
  ctx.range_map.insert_or_assign(to, std::move(rngs));
}

// REDUCE_AXIS -> REDUCE(src, *reduce ranges)
UOp ConvertReduceAxis(const Match& m) {
  IndexingContext& ctx = m.ctx<IndexingContext>();
  const UOp& x = m["x"];
  auto it = ctx.range_map.find(x);
  if (it == ctx.range_map.end()) return {};
  std::vector<UOp> src{x.src(0)};
  for (const Arg& a : x.arg()[1].tuple()) src.push_back(it->second.first[a.int64()]);
  UOp ret = UOp::Make(Ops::REDUCE, x.dtype(), src, x.arg()[0], x.tag());
  SetRanges(ctx, ret, it->second);
  return ret;
}

// PAD -> WHERE(valid of its input ranges, src, 0)
UOp ConvertPadToWhere(const Match& m) {
  IndexingContext& ctx = m.ctx<IndexingContext>();
  const UOp& x = m["x"];
  auto it = ctx.range_map.find(x);
  if (it == ctx.range_map.end()) return {};
  std::vector<UOp> valids;
  for (const UOp& r : it->second.first) valids.push_back(GetValid(r));
  UOp ret = OrAll(valids, true).where(x.src(0), UOp::Const(x.dtype(), 0));
  SetRanges(ctx, ret, it->second);
  return ret;
}

// ASSIGN gets a third src: the target's movement ops (tagged), for pm_add_buffers
UOp AddThirdOpToAssign(const Match& m) {
  IndexingContext& ctx = m.ctx<IndexingContext>();
  const UOp& assign = m["assign"];
  if (assign.src(1).op() == Ops::KERNEL) return {};
  static const auto* const kTagMops = new PatternMatcher({
      Rule(UPat(GroupOp::Movement).named("x"),
           [](const Match& mm) { return mm["x"].replace_tag(Arg::Tuple({})); }),
  });
  UOp to_mop = GraphRewrite(assign.src(0), *kTagMops, {.name = "tag mops"});
  UOp ret = assign.replace_src({assign.src(0), assign.src(1), to_mop});
  auto it = ctx.range_map.find(assign);
  TG_CHECK(it != ctx.range_map.end()) << "ASSIGN without ranges";
  SetRanges(ctx, ret, it->second);
  return ret;
}

UOp CreateBufferizeAndIndex(const Match& m) {
  IndexingContext& ctx = m.ctx<IndexingContext>();
  const UOp& x = m["x"];
  if (x.op() == Ops::BUFFERIZE || x.op() == Ops::INDEX || x.op() == Ops::AFTER) return {};
  auto xr = ctx.range_map.find(x);
  bool x_has = xr != ctx.range_map.end();
  std::vector<UOp> new_srcs;
  bool changed = false;
  for (const UOp& s : x.src()) {
    UOp ns = s;
    Ops sop = s.op();
    if (sop == Ops::BUFFER || sop == Ops::BUFFER_VIEW || sop == Ops::MSTACK ||
        sop == Ops::MSELECT || sop == Ops::AFTER) {
      if (x_has) ns = IndexOf(ns, xr->second.first);
    } else if (auto rz = ctx.realize_map.find(s); rz != ctx.realize_map.end()) {
      TG_CHECK(rz->second.has_value()) << "realize map must contain range list";
      std::vector<int> realized = *rz->second;
      auto sr = ctx.range_map.find(s);
      TG_CHECK(sr != ctx.range_map.end()) << "realized " << OpName(s.op()) << " without ranges";
      const std::vector<UOp>& s_out = sr->second.second;
      std::vector<UOp> closed;
      for (size_t i = 0; i < s_out.size(); ++i)
        if (HasAxis(realized, i)) closed.push_back(s_out[i]);
      if (sop == Ops::STORE) {
        // a realized store ends its ranges instead of being bufferized
        std::vector<UOp> ends;
        for (const UOp& r : closed)
          if (r.op() == Ops::RANGE) ends.push_back(r);
        ns = s.end(ends);
        ctx.realize_map.erase(s);
      } else {
        // the BUFFERIZE before a COPY is not removable
        bool removable = x.op() != Ops::COPY && !AlwaysContiguous(sop);
        bool global = s_out.size() == realized.size();
        BufferizeOpts opts = global ? BufferizeOpts{s.device(), AddrSpace::GLOBAL, removable}
                                    : BufferizeOpts{Arg(), AddrSpace::LOCAL, removable};
        std::vector<UOp> bsrc{ns};
        bsrc.insert(bsrc.end(), closed.begin(), closed.end());
        ns = UOp::Make(Ops::BUFFERIZE, s.dtype(), bsrc, opts.ToArg(), global ? s.tag() : Arg());
        if (x_has) {
          std::vector<UOp> idx;
          const std::vector<UOp>& xin = xr->second.first;
          for (size_t i = 0; i < xin.size(); ++i)
            if (HasAxis(realized, i)) idx.push_back(xin[i]);
          ns = IndexOf(ns, idx);
        }
      }
    }
    changed |= ns != s;
    new_srcs.push_back(ns);
  }
  return changed ? x.replace_src(new_srcs) : UOp();
}

UOp RemoveMovementOp(const Match& m) {
  IndexingContext& ctx = m.ctx<IndexingContext>();
  const UOp& x = m["x"];
  if (ctx.range_map.contains(x) || x.src(0).op() == Ops::INDEX) return x.src(0);
  return {};
}

// const/define_var lose their DEVICE src
UOp StripConstSrc(const Match& m) {
  IndexingContext& ctx = m.ctx<IndexingContext>();
  const UOp& c = m["c"];
  if (!ctx.range_map.contains(c) || c.src().empty()) return {};
  return c.replace_src(std::span<const UOp>{});
}

const PatternMatcher& PmApplyRangeify() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(Ops::REDUCE_AXIS).named("x"), ConvertReduceAxis),
      Rule(UPat(Ops::PAD).named("x"), ConvertPadToWhere),
      Rule(UPat(Ops::ASSIGN).src({UPat(), UPat()}).named("assign"), AddThirdOpToAssign),
      Rule(UPat(GroupOp::All).named("x"), CreateBufferizeAndIndex),
      Rule(UPat(GroupOp::Movement).named("x"), RemoveMovementOp),
      Rule(UPat(OpSet{Ops::CONST, Ops::DEFINE_VAR}).named("c"), StripConstSrc),
  });
  return *kRules;
}

}  // namespace

UOp RunRangeify(const UOp& tsink, IndexingContext& ctx) {
  std::vector<UOp> topo = tsink.toposort();
  GenerateRealizeMap(topo, ctx.realize_map);

  // consumer map (deduplicated, toposort order)
  absl::flat_hash_map<UOp, std::vector<UOp>> consumers;
  for (const UOp& u : topo) {
    consumers.try_emplace(u);
    for (const UOp& s : u.src()) {
      std::vector<UOp>& c = consumers[s];
      if (c.empty() || c.back() != u) c.push_back(u);
    }
  }

  absl::flat_hash_map<UOp, std::vector<UOp>> ending_ranges;
  const int pcontig = ctx.options.pcontig;
  for (size_t ti = topo.size(); ti-- > 0;) {
    const UOp& x = topo[ti];
    if (x.op() == Ops::DEVICE || x.op() == Ops::UNIQUE) continue;
    // no ranges on kernels, they are internal
    if (x.op() == Ops::KERNEL) continue;
    if (x.dtype().scalar() == dtypes::index) continue;
    std::vector<UOp>& ending = ending_ranges[x];
    for (const UOp& c : consumers[x]) {
      auto e = ending_ranges.find(c);
      if (e != ending_ranges.end()) ending.insert(ending.end(), e->second.begin(), e->second.end());
    }

    // the output ranges are 1. new if realized, 2. the single consumer's, 3. merged from 2+
    std::vector<const std::vector<UOp>*> consumer_rngs;
    for (const UOp& c : consumers[x]) {
      auto it = ctx.range_map.find(c);
      if (it != ctx.range_map.end()) consumer_rngs.push_back(&it->second.first);
    }
    std::vector<UOp> out_rngs;
    auto rz = ctx.realize_map.find(x);
    const Shape* xshape = x.shape();
    if (rz != ctx.realize_map.end()) {
      TG_CHECK(xshape) << "realizing " << x.op() << " without a shape";
      TG_CHECK(!rz->second.has_value()) << "realized twice: " << x.op();
      for (const SInt& s : *xshape) out_rngs.push_back(ctx.NewRange(s));
      ending.clear();  // all ranges are ended now
      std::vector<int> all(xshape->size());
      std::iota(all.begin(), all.end(), 0);
      rz->second = std::move(all);
    } else if (x.op() == Ops::MSTACK || x.op() == Ops::MSELECT) {
      continue;  // treated like SINK
    } else if (consumer_rngs.empty()) {
      continue;  // no consumer has ranges: neither does this
    } else if (consumer_rngs.size() == 1) {
      out_rngs = *consumer_rngs[0];
    } else {
      // several consumers: dims whose index (without valid) agrees are shared, else realized
      size_t nd = consumer_rngs[0]->size();
      std::vector<std::vector<UOp>> idxs(nd), valids(nd);
      bool all_all_same = true;
      for (size_t d = 0; d < nd; ++d) {
        for (const auto* cr : consumer_rngs) {
          TG_CHECK(cr->size() == nd) << "consumers disagree on rank";
          idxs[d].push_back(GetIdx((*cr)[d]));
          valids[d].push_back(GetValid((*cr)[d]));
        }
        all_all_same &= AllSame(idxs[d]);
      }
      std::vector<int> realize_axis;
      for (size_t d = 0; d < nd; ++d) {
        if (all_all_same || (pcontig && AllSame(idxs[d]))) {
          // the new valid is the OR of all the consumers' valids
          UOp mv = OrAll(valids[d], false);
          out_rngs.push_back(
              GraphRewrite(mv.where(idxs[d][0], UOp::Invalid()), Symbolic(), {.name = "minimum_valid"}));
        } else {
          out_rngs.push_back(ctx.NewRange((*xshape)[d]));
          realize_axis.push_back(static_cast<int>(d));
        }
      }
      if (!realize_axis.empty()) ctx.realize_map[x] = realize_axis;
    }

    // an elementwise op or reduce with ended ranges below it realizes its open dims
    if (!ending.empty() && (GroupOp::Elementwise.contains(x.op()) || x.op() == Ops::REDUCE_AXIS)) {
      std::vector<int> realize_axis;
      auto cur = ctx.realize_map.find(x);
      if (cur != ctx.realize_map.end() && cur->second) realize_axis = *cur->second;
      for (size_t i = 0; i < out_rngs.size(); ++i) {
        if (HasAxis(realize_axis, i)) continue;
        bool newer = false;
        if (pcontig > 1) {
          for (const UOp& rr : Ranges(out_rngs[i]))
            for (const UOp& e : ending)
              newer |= RangeArgLess(e.arg(), rr.arg());
        }
        if (!(pcontig > 1) || newer) realize_axis.push_back(static_cast<int>(i));
      }
      ending.clear();
      if (!realize_axis.empty()) {
        for (size_t i = 0; i < out_rngs.size(); ++i)
          if (HasAxis(realize_axis, i)) out_rngs[i] = ctx.NewRange((*xshape)[i]);
        ctx.realize_map[x] = std::move(realize_axis);
      }
    }

    // the input ranges: swizzled by movement ops, new for reduced axes, else passed through
    std::vector<UOp> rngs = out_rngs;
    if (GroupOp::Movement.contains(x.op())) rngs = ApplyMovementOp(x, rngs);
    // an EXPAND that does not inject a range ends the ranges it stops using
    if (x.op() == Ops::EXPAND) {
      bool injects = false;
      for (const SInt& y : *xshape) injects |= !y.is_int() && y.uop().op() == Ops::RANGE;
      if (!injects) {
        std::vector<UOp> dropped;
        for (size_t i = 0; i < rngs.size(); ++i)
          if (rngs[i] != out_rngs[i]) dropped.push_back(out_rngs[i]);
        for (const UOp& r : Ranges(UOp::Sink(dropped))) ending.push_back(r);
      }
    }
    if (x.op() == Ops::REDUCE_AXIS) {
      const Shape& in_shape = *x.src(0).shape();
      std::vector<int64_t> axes;
      for (const Arg& a : x.arg()[1].tuple()) axes.push_back(a.int64());
      for (size_t i = 0; i < rngs.size(); ++i)
        if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end())
          rngs[i] = ctx.NewRange(in_shape[i], AxisType::REDUCE);
    }
    ctx.range_map[x] = {std::move(rngs), std::move(out_rngs)};
  }

  return GraphRewrite(tsink, PmApplyRangeify(),
                      {.name = "apply rangeify", .bottom_up = true, .ctx = RewriteCtx::Of(ctx)});
}

}  // namespace tg
