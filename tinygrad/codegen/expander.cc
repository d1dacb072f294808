// File: tinygrad/codegen/expander.cc
// Port of tinygrad/codegen/late/expander.py: do_expand, do_contract, end_unrolls, the
// expander rules, pm_pre_expander (fix_reduce_unroll, fix_store_unroll) and
// pm_group_for_reduce (fix_group_for_reduce).
#include "tinygrad/codegen/expander.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

// An UNROLL/CONTRACT arg: ((axis, size), ...).
using AxisArgs = std::vector<std::pair<int64_t, int64_t>>;
// One choice of a lane per axis (tinygrad's rpk dict), small enough for a linear search.
using Choice = std::vector<std::pair<int64_t, int64_t>>;

AxisArgs ToAxisArgs(const Arg& a) {
  AxisArgs out;
  for (const Arg& x : a.tuple()) out.emplace_back(x[0].int64(), x[1].int64());
  return out;
}
Arg FromAxisArgs(const AxisArgs& a) {
  std::vector<Arg> items;
  for (const auto& [axis, sz] : a) items.push_back(Arg::Tuple({axis, sz}));
  return Arg::Tuple(std::move(items));
}

int64_t Lookup(const Choice& rpk, int64_t axis) {
  // later entries win, as in {**a, **b}
  for (auto it = rpk.rbegin(); it != rpk.rend(); ++it)
    if (it->first == axis) return it->second;
  TG_CHECK(false) << "expander: no lane for axis " << axis;
  return 0;
}

int64_t ExpandArgToIdx(const AxisArgs& args, const Choice& rpk) {
  int64_t idx = 0, mul = 1;
  for (auto it = args.rbegin(); it != args.rend(); ++it) {
    idx += Lookup(rpk, it->first) * mul;
    mul *= it->second;
  }
  return idx;
}

// itertools.product over the axes' lanes: the last axis varies fastest.
std::vector<Choice> ChoicesFromArgs(const AxisArgs& args) {
  std::vector<Choice> out{Choice{}};
  for (const auto& [axis, m] : args) {
    std::vector<Choice> next;
    for (const Choice& c : out)
      for (int64_t i = 0; i < m; ++i) {
        Choice n = c;
        n.emplace_back(axis, i);
        next.push_back(std::move(n));
      }
    out = std::move(next);
  }
  return out;
}

// `exclude` axes read lane 0 (a WMMA's upcast/reduce axes).
std::vector<int> SwizzleArgs(const AxisArgs& cargs, const AxisArgs& eargs, const std::vector<int64_t>& exclude) {
  std::vector<int> out;
  for (Choice rpk : ChoicesFromArgs(cargs)) {
    for (int64_t x : exclude) rpk.emplace_back(x, 0);
    out.push_back(static_cast<int>(ExpandArgToIdx(eargs, rpk)));
  }
  return out;
}

// The axes a WMMA expands over as one: its reduce axes (arg[-1]) and those of its upcast axes
// (arg[-2]), deduplicated in order.
std::vector<int64_t> WmmaExcludeArgs(const UOp& root) {
  std::vector<int64_t> out;
  auto add = [&](int64_t a) {
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  const Arg& arg = root.arg();
  for (const Arg& a : arg[arg.size() - 1].tuple()) add(a.int64());
  for (const Arg& part : arg[arg.size() - 2].tuple())
    for (const Arg& y : part.tuple()) add(y[0].int64());
  return out;
}

int64_t ProdSizes(const AxisArgs& a) {
  int64_t p = 1;
  for (const auto& x : a) p *= x.second;
  return p;
}

UOp DoExpand(const Match& m) {
  const UOp& root = m["root"];
  std::vector<UOp> expands;
  for (const UOp& s : root.src())
    if (s.op() == Ops::UNROLL) expands.push_back(s);
  if (expands.empty()) return {};
  // NOTE: we 0 out the reduce axis for WMMA. in theory they should all be the same
  std::vector<int64_t> exclude_args = root.op() == Ops::WMMA ? WmmaExcludeArgs(root) : std::vector<int64_t>{};
  bool all_same = std::all_of(expands.begin(), expands.end(),
                              [&](const UOp& x) { return x.arg() == expands[0].arg(); });
  AxisArgs expand_args;
  if (all_same && exclude_args.empty()) {
    // one shared expand arg can be used as is
    expand_args = ToAxisArgs(expands[0].arg());
  } else {
    // otherwise sort them and GEP
    for (const UOp& e : expands)
      for (const auto& x : ToAxisArgs(e.arg()))
        if (std::find(expand_args.begin(), expand_args.end(), x) == expand_args.end()) expand_args.push_back(x);
    std::sort(expand_args.begin(), expand_args.end());
    std::erase_if(expand_args, [&](const std::pair<int64_t, int64_t>& x) {
      return std::find(exclude_args.begin(), exclude_args.end(), x.first) != exclude_args.end();
    });
  }
  Arg expand_arg = FromAxisArgs(expand_args);
  int expand_sz = static_cast<int>(ProdSizes(expand_args));
  int range_start = RangeStart(root.op());
  std::vector<UOp> new_srcs;
  for (size_t i = 0; i < root.src().size(); ++i) {
    const UOp& src = root.src(i);
    if (src.op() == Ops::UNROLL) {
      if (src.arg() == expand_arg) {
        new_srcs.push_back(src.src(0));  // just remove the expand
      } else {
        std::vector<int> lst = SwizzleArgs(expand_args, ToAxisArgs(src.arg()), exclude_args);
        int cnt = src.dtype().count();
        if (cnt > 1) {  // a vector base dtype keeps its lanes together at the end
          std::vector<int> wide;
          for (int l : lst)
            for (int j = 0; j < cnt; ++j) wide.push_back(l * cnt + j);
          lst = std::move(wide);
        }
        new_srcs.push_back(src.src(0).gep(lst));
      }
    } else if (range_start >= 0 && static_cast<int>(i) >= range_start) {
      new_srcs.push_back(src);  // range srcs of STORE/REDUCE/END pass through
    } else if (root.op() == Ops::INDEX && i >= 1 && !root.dtype().is_ptr()) {
      new_srcs.push_back(src);  // index srcs of a value INDEX pass through
    } else if (src.dtype().count() > 1) {
      // vector inputs are repeated as a whole
      std::vector<UOp> rep(expand_sz, src);
      new_srcs.push_back(UOp::Make(Ops::CAT, src.dtype().scalar().vec(expand_sz * src.dtype().count()), rep));
    } else {
      new_srcs.push_back(src.broadcast(expand_sz));  // scalars are broadcast
    }
  }
  Arg new_arg = root.arg();
  if (root.op() == Ops::GEP) {
    TG_CHECK(root.dtype().count() == 1) << "GEP expand of a vector GEP";
    int n = new_srcs[0].dtype().count();
    std::vector<Arg> lanes;
    for (int l = static_cast<int>(root.arg()[0].int64()); l < n; l += n / expand_sz) lanes.emplace_back(l);
    new_arg = Arg::Tuple(std::move(lanes));
  }
  UOp nsrc = UOp::Make(root.op(), root.dtype().scalar().vec(root.dtype().count() * expand_sz), new_srcs,
                       new_arg);
  return UOp::Make(Ops::UNROLL, root.dtype(), {nsrc}, expand_arg);
}

UOp DoContract(const Match& m) {
  const UOp& con = m["con"];
  const UOp& ex = con.src(0);
  // CONTRACT without UNROLL repeats the element VECTORIZED
  if (ex.op() != Ops::UNROLL) {
    std::vector<UOp> rep(con.dtype().count(), ex);
    return UOp::Make(Ops::VECTORIZE, con.dtype(), rep);
  }
  // CONTRACT may remove several axes from UNROLL
  AxisArgs ex_args = ToAxisArgs(ex.arg()), con_args = ToAxisArgs(con.arg());
  TG_CHECK(con.dtype() == dtypes::void_ || con.dtype().count() == ProdSizes(con_args)) << "dtype is wrong";
  AxisArgs new_ex_args;
  for (const auto& x : ex_args)
    if (std::find(con_args.begin(), con_args.end(), x) == con_args.end()) new_ex_args.push_back(x);
  std::vector<int> idxs;
  for (const Choice& rpk : ChoicesFromArgs(new_ex_args))
    for (const Choice& lrpk : ChoicesFromArgs(con_args)) {
      Choice both = rpk;
      both.insert(both.end(), lrpk.begin(), lrpk.end());
      idxs.push_back(static_cast<int>(ExpandArgToIdx(ex_args, both)));
    }
  return UOp::Make(Ops::UNROLL, con.dtype(), {ex.src(0).gep(idxs)}, FromAxisArgs(new_ex_args));
}

UOp EndUnrolls(const Match& m) {
  const UOp& u = m["u"];
  std::vector<Arg> axes;
  std::vector<UOp> rest;
  bool any = false;
  for (const UOp& s : u.src().subspan(1)) {
    if (s.op() == Ops::UNROLL) {
      any = true;
      for (const Arg& a : s.arg().tuple()) axes.push_back(a);
    } else {
      rest.push_back(s);
    }
  }
  if (!any) return {};
  std::vector<UOp> src{UOp::Make(Ops::CONTRACT, dtypes::void_, {u.src(0)}, Arg::Tuple(axes))};
  src.insert(src.end(), rest.begin(), rest.end());
  return u.replace_src(src);
}

UOp FixReduceUnroll(const Match& m) {
  const UOp& x = m["x"];
  std::vector<UOp> reduce_range, reduce_expand;
  for (const UOp& y : x.src().subspan(1)) (y.op() == Ops::RANGE ? reduce_range : reduce_expand).push_back(y);
  if (reduce_expand.empty()) return {};
  std::vector<Arg> contract_axis;
  for (const UOp& e : reduce_expand) {
    if (e.op() == Ops::CONST) continue;
    TG_CHECK(e.op() == Ops::UNROLL) << "not all UNROLLS in a REDUCE: " << OpName(e.op());
    for (const Arg& a : e.arg().tuple()) contract_axis.push_back(a);
  }
  UOp ret = x.src(0);
  if (!contract_axis.empty()) {
    int64_t sz = 1;
    for (const Arg& a : contract_axis) sz *= a[1].int64();
    ret = UOp::Make(Ops::CONTRACT, x.dtype().vec(static_cast<int>(sz)), {ret}, Arg::Tuple(contract_axis), Arg(1));
  }
  // REDUCE does both the horizontal reduction (the CONTRACT's lanes) and the range reduction
  std::vector<UOp> src{ret};
  src.insert(src.end(), reduce_range.begin(), reduce_range.end());
  return x.replace_src(src);
}

UOp FixStoreUnroll(const Match& m) {
  const UOp& x = m["x"];
  std::vector<Arg> axes;
  std::vector<UOp> src(x.src().begin(), x.src().begin() + 2);
  bool any = false;
  for (const UOp& y : x.src().subspan(2)) {
    if (y.op() == Ops::UNROLL) {
      any = true;
      for (const Arg& a : y.arg().tuple()) axes.push_back(a);
    } else {
      src.push_back(y);
    }
  }
  if (!any) return {};
  return UOp::Make(Ops::CONTRACT, dtypes::void_, {x.replace_src(src)}, Arg::Tuple(axes), Arg(1));
}

bool IsAxisType(const UOp& u, AxisType t) { return u.op() == Ops::RANGE && RangeAxisType(u) == t; }

UOp FixGroupForReduce(const Match& m) {
  const UOp& x = m["x"];
  std::vector<UOp> reduce_gfr, reduce_r;
  for (const UOp& u : x.src().subspan(1)) (IsAxisType(u, AxisType::GROUP_REDUCE) ? reduce_gfr : reduce_r).push_back(u);
  if (reduce_gfr.empty()) return {};
  // other locals upstream need to be in the buffer too
  std::vector<UOp> upstream_locals;
  for (const UOp& u : x.toposort())
    if (IsAxisType(u, AxisType::LOCAL)) upstream_locals.push_back(u);
  // do only the non grouped reduces early
  std::vector<UOp> src{x.src(0)};
  src.insert(src.end(), reduce_r.begin(), reduce_r.end());
  UOp ret = x.replace_src(src);
  std::vector<UOp> reduce_loop;
  for (const UOp& r : reduce_gfr)
    reduce_loop.push_back(r.replace_arg(Arg::Tuple({r.arg()[0].int64() + 100, AxisType::REDUCE})));
  std::vector<UOp> buf_src{ret};
  buf_src.insert(buf_src.end(), upstream_locals.begin(), upstream_locals.end());
  buf_src.insert(buf_src.end(), reduce_gfr.begin(), reduce_gfr.end());
  BufferizeOpts opts{.device = reduce_gfr[0].arg()[0], .addrspace = AddrSpace::LOCAL};
  UOp buf = UOp::Make(Ops::BUFFERIZE, ret.dtype(), buf_src, opts.ToArg());
  std::vector<UOp> idx = upstream_locals;
  idx.insert(idx.end(), reduce_loop.begin(), reduce_loop.end());
  // the final reduce (if/barrier are added in the gpudims step)
  return Reduce(buf.index(idx), reduce_loop, x.arg().ops());
}

}  // namespace

const PatternMatcher& PmPreExpander() {
  static const auto* const kRules = new PatternMatcher({
      // an UPCAST/UNROLL range becomes UNROLL(VCONST(0..s-1))
      Rule(UPat(Ops::RANGE).named("r"),
           [](const Match& m) {
             const UOp& r = m["r"];
             AxisType t = RangeAxisType(r);
             if (t != AxisType::UNROLL && t != AxisType::UPCAST) return UOp();
             int s = static_cast<int>(r.vmax().to_int()) + 1;
             std::vector<ConstValue> lanes;
             for (int i = 0; i < s; ++i) lanes.emplace_back(i);
             UOp vc = UOp::VConst(r.dtype().vec(s), lanes);
             return UOp::Make(Ops::UNROLL, r.dtype(), {vc}, Arg::Tuple({Arg::Tuple({r.arg()[0], s})}));
           }),
      // fix REDUCEs with UNROLLs
      Rule(UPat(Ops::REDUCE).named("x"), FixReduceUnroll),
      Rule(UPat(Ops::STORE).named("x"), FixStoreUnroll),
  });
  return *kRules;
}

const PatternMatcher& PmGroupForReduce() {
  static const auto* const kRules = new PatternMatcher({
      // fix group for reduce
      Rule(UPat(Ops::REDUCE).named("x"), FixGroupForReduce),
  });
  return *kRules;
}

const PatternMatcher& Expander() {
  static const auto* const kRules = new PatternMatcher({
      // push broadcast through AFTER: AFTER(VECTORIZE(x, x..), ...) -> VECTORIZE(AFTER(x, ...))
      Rule(UPat(Ops::AFTER).src({UPat::Var("x").broadcast().named("b")}).allow_any_len().named("a"),
           [](const Match& m) {
             const UOp& a = m["a"];
             return After(m["x"], a.src().subspan(1)).broadcast(static_cast<int>(m["b"].src().size()));
           }),
      // push broadcast through END
      Rule(UPat(Ops::END).src({UPat::Var("x").broadcast().named("b")}).allow_any_len().named("a"),
           [](const Match& m) {
             const UOp& a = m["a"];
             return End(m["x"], a.src().subspan(1)).broadcast(static_cast<int>(m["b"].src().size()));
           }),
      // END on UNROLL ends the UNROLL
      Rule(UPat(Ops::END).named("u"), EndUnrolls),
      // BUFFERIZE puts UNROLLs for ranges as contract
      Rule(UPat(Ops::BUFFERIZE).src({UPat(Ops::UNROLL), UPat(Ops::UNROLL)}).named("x"),
           [](const Match& m) {
             const UOp& x = m["x"];
             int cnt = x.src(1).src(0).dtype().count();
             std::vector<UOp> src;
             for (const UOp& s : x.src())
               src.push_back(UOp::Make(Ops::CONTRACT, s.dtype().vec(cnt), {s}, x.src(1).arg()));
             return x.replace_src(src);
           }),
      // double expand
      Rule(UPat(Ops::UNROLL).src({UPat(Ops::UNROLL).named("inner")}).named("outer"),
           [](const Match& m) {
             const UOp &outer = m["outer"], &inner = m["inner"];
             std::vector<Arg> args(inner.arg().tuple().begin(), inner.arg().tuple().end());
             args.insert(args.end(), outer.arg().tuple().begin(), outer.arg().tuple().end());
             return UOp::Make(Ops::UNROLL, outer.dtype(), {inner.src(0)}, Arg::Tuple(args));
           }),
      // do expansion
      Rule(UPat(GroupOp::ALU | OpSet{Ops::CAST, Ops::BITCAST, Ops::GEP, Ops::WMMA, Ops::LOAD, Ops::STORE,
                                     Ops::INDEX, Ops::BUFFERIZE, Ops::VECTORIZE, Ops::REDUCE, Ops::END,
                                     Ops::AFTER})
               .named("root"),
           DoExpand),
      Rule(UPat(Ops::CONTRACT).named("con"), DoContract),
      // empty UNROLL is NOOP
      Rule(UPat(Ops::UNROLL).src({UPat::Var("x")}).arg(Arg::Tuple(std::vector<Arg>{})),
           [](const Match& m) { return m["x"]; }),
  });
  return *kRules;
}

}  // namespace tg
