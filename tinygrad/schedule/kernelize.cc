// File: tinygrad/schedule/kernelize.cc
// Port of tinygrad/schedule/rangeify.py: to_define_global (debuf, unbind_kernel, handle_after,
// renumber_range), split_store/split_kernels, pm_remove_tags, the assign WAR fix and
// get_rangeify_map.
#include "tinygrad/schedule/kernelize.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/schedule/indexing.h"
#include "tinygrad/schedule/local_buffers.h"
#include "tinygrad/schedule/rangeify.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/range_simplify.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {

const UOp& KernelAst(const UOp& k) {
  if (const CustomKernelAst* ck = k.arg().opaque_as<CustomKernelAst>()) return ck->ast();
  return k.src(0);
}

namespace {

// BufUop's walk; nullopt where it finds no buffer (an AFTER of a computed value).
std::optional<UOp> FindBufUop(const UOp& u) {
  if (u.op() == Ops::BUFFER) return u;
  // one device's buffer of a multi-device one, and several devices' buffers as one
  if (u.op() == Ops::MSELECT) {
    std::optional<UOp> b = FindBufUop(u.src(0));
    if (!b) return std::nullopt;
    return UOp::Make(Ops::MSELECT, u.dtype(), {*b}, u.arg());
  }
  if (u.op() == Ops::MSTACK) {
    std::vector<UOp> bufs;
    for (const UOp& s : u.src()) {
      std::optional<UOp> b = FindBufUop(s);
      if (!b) return std::nullopt;
      bufs.push_back(*b);
    }
    return UOp::Make(Ops::MSTACK, u.dtype(), bufs);
  }
  UOp b = u.base();
  if (b.op() != Ops::AFTER) return std::nullopt;
  std::optional<UOp> under = FindBufUop(b.src(0));
  if (!under) return std::nullopt;
  return under->base();
}

}  // namespace

bool HasBufUop(const UOp& u) { return FindBufUop(u).has_value(); }

UOp BufUop(const UOp& u) {
  std::optional<UOp> b = FindBufUop(u);
  TG_CHECK(b) << "no buffer under " << OpName(u.op()) << " (an AFTER of a computed value)";
  return *b;
}

namespace {

// tinygrad's LocalAddBufferContext; `map` and `vars` keep insertion order (kernel arg order).
struct KernelCtx {
  int64_t dg = 0;
  std::vector<std::pair<UOp, UOp>> map;  // buffer -> what the kernel depends on
  std::vector<UOp> vars;                 // BINDs
  int64_t range = 0;
  std::string error;

  bool HasBuf(const UOp& b) const {
    return std::any_of(map.begin(), map.end(), [&](const auto& kv) { return kv.first == b; });
  }
};

// tinygrad's as_buf: follow src[0] to the BUFFER/BUFFERIZE/MSTACK; of an MSELECT or MSTACK,
// the same of its buffers
UOp AsBuf(const UOp& x) {
  if (x.op() == Ops::MSELECT) return UOp::Make(Ops::MSELECT, x.dtype(), {AsBuf(x.src(0))}, x.arg());
  if (x.op() == Ops::MSTACK) {
    std::vector<UOp> bufs;
    for (const UOp& s : x.src()) bufs.push_back(AsBuf(s));
    return UOp::Make(Ops::MSTACK, x.dtype(), bufs);
  }
  UOp s = x;
  while (!s.src().empty() && s.op() != Ops::BUFFER && s.op() != Ops::BUFFERIZE && s.op() != Ops::MSTACK)
    s = s.src(0);
  return s;
}

// a kernel must not index one buffer both directly and through its AFTER
UOp FindBufs(const Match& m) {
  std::vector<std::pair<UOp, Ops>> read_from;
  for (const UOp& idx : Toposort(m["x"], [](const UOp& u) { return u.op() != Ops::AFTER; })) {
    if (idx.op() != Ops::INDEX) continue;
    UOp buf = AsBuf(idx);
    if (buf.op() != Ops::BUFFER) continue;
    auto it = std::find_if(read_from.begin(), read_from.end(), [&](const auto& p) { return p.first == buf; });
    if (it == read_from.end()) {
      read_from.emplace_back(buf, idx.src(0).op());
    } else if (it->second != idx.src(0).op()) {
      KernelCtx& ctx = m.ctx<KernelCtx>();
      if (ctx.error.empty()) ctx.error = "cycle detected while indexing a buffer";
    }
  }
  return {};
}

UOp Debuf(const Match& m) {
  KernelCtx& ctx = m.ctx<KernelCtx>();
  const UOp& buf = m["buf"];
  UOp ret = UOp::Make(Ops::DEFINE_GLOBAL, buf.dtype().ptr(buf.arg().int64()), {}, ctx.dg);
  if (!ctx.HasBuf(buf)) ctx.map.emplace_back(buf, buf);
  ctx.dg++;
  return ret;
}

UOp UnbindKernel(const Match& m) {
  KernelCtx& ctx = m.ctx<KernelCtx>();
  const UOp& b = m["b"];
  if (std::find(ctx.vars.begin(), ctx.vars.end(), b) == ctx.vars.end()) ctx.vars.push_back(b);
  return b.src(0);
}

UOp HandleAfter(const Match& m) {
  KernelCtx& ctx = m.ctx<KernelCtx>();
  const UOp& after = m["after"];
  if (after.dtype().is_ptr() && after.dtype().addrspace() == AddrSpace::LOCAL) return {};
  UOp buf = AsBuf(after);
  // put the buffer in the map instead of MSTACK/MSELECT
  if (buf.op() == Ops::MSTACK || buf.op() == Ops::MSELECT)
    buf = UOp(buf.src(0));  // a copy: buf holds src
  TG_CHECK(!ctx.HasBuf(buf)) << "buffer indexed twice through AFTER";
  ctx.map.emplace_back(buf, after);
  return buf;
}

UOp RenumberRange(const Match& m) {
  KernelCtx& ctx = m.ctx<KernelCtx>();
  const UOp& r = m["r"];
  if (!(r.tag().is_tuple() && r.tag().size() == 0)) return {};
  if (RangeAxisType(r) == AxisType::OUTER) {
    // an outer range becomes a bound variable
    std::string name = "range_";
    for (const Arg& a : RangeIds(r)) name += (name.size() > 6 ? "_" : "") + a.repr();
    return UOp::Make(Ops::BIND, dtypes::index,
                     {UOp::Variable(name, r.vmin(), r.vmax()), r.replace_tag(Arg())});
  }
  std::vector<Arg> arg{ctx.range};
  std::span<const Arg> old = r.arg().tuple();
  arg.insert(arg.end(), old.begin() + 1, old.end());
  ctx.range++;
  return UOp::Make(Ops::RANGE, r.dtype(), r.src(), Arg::Tuple(arg));
}

const PatternMatcher& ToDefineGlobal() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(Ops::STORE).named("x"), FindBufs),
      Rule(UPat(Ops::BUFFER).named("buf"), Debuf),
      Rule(UPat(Ops::BIND).named("b"), UnbindKernel),
      Rule(UPat(OpSet{Ops::MSTACK, Ops::MSELECT, Ops::AFTER}).named("after"), HandleAfter),
      // HACK in case any CONSTs were replaced
      Rule(UPat(OpSet{Ops::CONST, Ops::DEFINE_VAR}).named("c"),
           [](const Match& m) {
             const UOp& c = m["c"];
             return c.src().empty() ? UOp() : c.replace_src(std::span<const UOp>{});
           }),
      // remove RANGE with 0 size
      Rule(UPat(Ops::RANGE).named("r"),
           [](const Match& m) {
             return m["r"].vmax() == ConstValue(0) ? UOp::Const(dtypes::index, 0) : UOp();
           }),
      // renumber the ranges starting with 0 so that kernel deduping works
      Rule(UPat(Ops::RANGE).named("r"), RenumberRange),
  });
  return *kRules;
}

// pm_remove_tags: metadata tags are dropped (metadata is not carried in this port)
const PatternMatcher& PmRemoveTags() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(GroupOp::All).named("x"),
           [](const Match& m) {
             const UOp& x = m["x"];
             if (x.tag().is_none() || (x.tag().is_tuple() && x.tag().size() == 0)) return UOp();
             return x.replace_tag(Arg());
           }),
  });
  return *kRules;
}

const PatternMatcher& KernelSplitRules() {
  static const auto* const kRules = new PatternMatcher(ToDefineGlobal() + PmFlattenRange() +
                                                       RangeifyCodegen() + PmRemoveTags());
  return *kRules;
}

// The STORE under an END chain targets a DEFINE_*: this is already a kernel AST.
bool IsKernelAst(const UOp& x) {
  UOp s = x;
  while (s.op() == Ops::END) s = s.src(0);
  if (s.op() != Ops::STORE) return false;
  UOp t = s.src(0);
  while (!t.src().empty() && (t.op() == Ops::INDEX || t.op() == Ops::CAST || t.op() == Ops::AFTER))
    t = t.src(0);
  return GroupOp::Defines.contains(t.op());
}

// x.ranges, not looking into KERNELs: a kernel closes its ranges (tinygrad's KERNEL keeps its
// AST in the arg and its `ranges` cached, so this stays linear in the graph).
std::vector<UOp> OpenRanges(const UOp& x) {
  absl::flat_hash_map<const void*, std::vector<UOp>> ranges;
  static const std::vector<UOp> kNone;
  // KERNELs are gated out of the toposort (not listed): they have no open ranges
  auto of = [&](const UOp& u) -> const std::vector<UOp>& {
    auto it = ranges.find(u.id());
    return it == ranges.end() ? kNone : it->second;
  };
  for (const UOp& u : Toposort(x, [](const UOp& u) { return u.op() != Ops::KERNEL; })) {
    std::vector<UOp> ret;
    for (const UOp& s : u.src())
      for (const UOp& r : of(s))
        if (!Contains(ret, r)) ret.push_back(r);
    for (const UOp& er : u.ended_ranges()) {
      std::vector<UOp> gone = er.op() == Ops::RANGE ? std::vector<UOp>{er} : of(er);
      for (const UOp& g : gone) ret.erase(std::remove(ret.begin(), ret.end(), g), ret.end());
    }
    if (u.op() == Ops::RANGE && !Contains(ret, u)) ret.insert(ret.begin(), u);
    ranges[u.id()] = std::move(ret);
  }
  return of(x);
}

// The opts of the CONTIGUOUS inside this kernel (tinygrad's get_contiguous): the walk stops at
// other kernels' outputs, as the bottom-up kernel rewrite does.
std::optional<Arg> KernelOpts(const UOp& x) {
  std::optional<Arg> out;
  for (const UOp& u : Toposort(x, [](const UOp& u) { return u.op() != Ops::AFTER; })) {
    if (u.op() != Ops::CONTIGUOUS || !u.arg().is_tuple()) continue;
    std::span<const Arg> items = u.arg().tuple();
    if (std::all_of(items.begin(), items.end(), [](const Arg& a) {
          return a.is_tuple() && a.size() == 3 && a[0].is_string();
        }))
      out = u.arg();
  }
  return out;
}

UOp SplitStore(const Match& m) {
  const UOp& x = m["x"];
  // if we have any outer ranges open here, we don't split
  for (const UOp& r : OpenRanges(x))
    if (RangeAxisType(r) != AxisType::OUTER) return {};
  // ends of outer range don't go in kernels
  if (x.op() == Ops::END && x.src(1).op() == Ops::RANGE && RangeAxisType(x.src(1)) == AxisType::OUTER)
    return {};
  if (IsKernelAst(x)) return {};

  KernelCtx lctx;
  std::optional<Arg> opts = KernelOpts(x);
  UOp ret = GraphRewrite(x, KernelSplitRules(),
                         {.name = "kernel split", .bottom_up = true, .ctx = RewriteCtx::Of(lctx)});
  TG_CHECK(lctx.error.empty()) << lctx.error;
  // the hack for COPY is here
  UOp ast;
  for (const UOp& u : ret.toposort()) {
    if (u.op() == Ops::COPY || u.op() == Ops::BUFFER_VIEW || u.op() == Ops::ENCDEC) {
      ast = u;
      break;
    }
  }
  if (!ast) {
    Arg arg;
    if (opts) {
      KernelInfo ki;
      ki.opts_to_apply = std::vector<Arg>(opts->tuple().begin(), opts->tuple().end());
      arg = ki.ToArg();
    }
    ast = UOp::Make(Ops::SINK, dtypes::void_, {ret}, arg);
  }
  std::vector<UOp> src{ast};
  for (const auto& [b, dep] : lctx.map) src.push_back(dep);
  src.insert(src.end(), lctx.vars.begin(), lctx.vars.end());
  UOp kernel = UOp::Make(Ops::KERNEL, dtypes::void_, src);
  if (ast.op() == Ops::SINK) {
    std::optional<Arg> dev;
    for (const UOp& s : KernelInputs(kernel)) {
      if (s.op() == Ops::BIND) continue;
      if (!dev) dev = s.device();
      TG_CHECK(*dev == s.device()) << "all buffers must be on the same device: " << dev->repr()
                                   << " != " << s.device().repr();
    }
  }
  return kernel;
}

}  // namespace

const PatternMatcher& SplitKernels() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(OpSet{Ops::STORE, Ops::END}).named("x"), SplitStore),
  });
  return *kRules;
}

absl::StatusOr<absl::flat_hash_map<UOp, UOp>> GetRangeifyMap(const UOp& sink, const ScheduleOptions& options) {
  int64_t lunique_start = 0;
  for (const UOp& x : sink.toposort())
    if (x.op() == Ops::LUNIQUE) lunique_start = std::max(lunique_start, x.arg().int64() + 1);
  std::vector<UOp> uop_list;
  UOp tsink = GraphRewrite(sink, AddTags(),
                           {.name = "number the uops", .bottom_up = true, .ctx = RewriteCtx::Of(uop_list)});
  EarliestContext earliest{.options = options};
  tsink = GraphRewrite(tsink, EarliestRewrites(), {.name = "earliest rewrites", .ctx = RewriteCtx::Of(earliest)});
  if (!earliest.error.empty()) return absl::InvalidArgumentError(earliest.error);

  // convert movement ops to ranges
  IndexingContext rctx{.options = options};
  tsink = RunRangeify(tsink, rctx);
  tsink = GraphRewrite(tsink, PmBufferizeCleanup(),
                       {.name = "symbolic+reduce_collapse+debuf", .ctx = RewriteCtx::Of(rctx)});
  tsink = GraphRewrite(tsink, PmLimitBufs(), {.name = "limit buffers", .ctx = RewriteCtx::Of(rctx)});

  // the tagged BUFFERIZEs (and buffers/consts) are what ends up in the tensor graph
  std::vector<UOp> kept;
  for (const UOp& x : tsink.backward_slice()) {
    Ops bop = x.base().op();
    if ((bop == Ops::BUFFERIZE || bop == Ops::MSTACK || bop == Ops::CONST || bop == Ops::BUFFER ||
         bop == Ops::AFTER) &&
        x.tag().is_tuple() && x.tag().size() > 0)
      kept.push_back(x);
  }
  tsink = UOp::Sink(kept);

  // bufferize -> store. New buffers are numbered after every LUNIQUE of the input graph; the
  // reference counts only those still in tsink, but an input the simplifier dropped (a % 1
  // reads nothing) keeps its number in the schedule cache's input map, and a new buffer reusing
  // it is mapped back onto that input: the kernel overwrites the caller's data (a fix, not a port).
  int64_t lunique = lunique_start;
  tsink = GraphRewrite(tsink, PmAddBuffers(),
                       {.name = "bufferize to store", .bottom_up = true, .ctx = RewriteCtx::Of(lunique)});
  tsink = GraphRewrite(tsink, SplitKernels(), {.name = "split kernels"});

  // a kernel reading B, then a later assign to B: the assign depends on the reading kernel
  absl::flat_hash_map<UOp, UOp> kernel_assign, assign_rep;
  for (const UOp& u : tsink.toposort()) {
    if (u.op() != Ops::AFTER) continue;
    // a custom kernel's output is the buffer it writes; a computed value has none (the
    // reference asserts here)
    if (!HasBufUop(u)) {
      UOp value = u.src(0).base();
      if (value.op() == Ops::CONTIGUOUS) value = value.src(0).base();
      return absl::InvalidArgumentError(absl::StrCat(
          "a custom kernel's source is used after the kernel, but it is a computed value (",
          std::string(OpName(value.op())),
          "), not a buffer; give the kernel an empty or realized tensor to write"));
    }
    UOp ub = BufUop(u);
    kernel_assign[ub] = u;
    if (u.src(1).op() != Ops::KERNEL) continue;
    for (const UOp& s : KernelInputs(u.src(1))) {
      if (s.op() != Ops::BUFFER || s == ub) continue;
      auto a = kernel_assign.find(s);
      if (a == kernel_assign.end()) continue;
      for (const UOp& x : u.toposort())
        if (x.op() == Ops::AFTER && BufUop(x) == s)
          return absl::InvalidArgumentError("cycle detected in graph, kernel must either depend on AFTER or BUFFER");
      std::vector<UOp> src(a->second.src().begin(), a->second.src().end());
      src.push_back(u);
      UOp na = a->second.replace_src(src);
      assign_rep[a->second] = na;
      a->second = na;
    }
  }
  if (!assign_rep.empty()) tsink = Substitute(tsink, assign_rep);

  std::vector<Arg> sink_tags;
  for (const UOp& s : tsink.src()) sink_tags.push_back(s.tag());
  static const auto* const kRemoveAllTags = new PatternMatcher({
      Rule(UPat(GroupOp::All).named("x"),
           [](const Match& m) { return m["x"].tag().is_none() ? UOp() : m["x"].replace_tag(Arg()); }),
  });
  tsink = GraphRewrite(tsink, *kRemoveAllTags, {.name = "remove all tags"});

  absl::flat_hash_map<UOp, UOp> becomes_map;
  for (size_t i = 0; i < sink_tags.size(); ++i) {
    TG_CHECK(sink_tags[i].is_tuple()) << "untagged sink source";
    for (const Arg& a : sink_tags[i].tuple()) {
      if (a.is_none()) continue;
      becomes_map[uop_list[a.int64()]] = tsink.src(i);
    }
  }
  return becomes_map;
}

}  // namespace tg
