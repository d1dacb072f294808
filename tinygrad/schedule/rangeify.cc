// File: tinygrad/schedule/rangeify.cc
// Port of tinygrad/schedule/rangeify.py: add_tags, earliest_rewrites (+ mop_cleanup,
// split_reduceop, find_permutes, replace_contiguous), cleanup_dead_axes, remove_bufferize,
// pm_const_buffer_folding, pm_remove_bufferize, pm_limit_bufs, pm_add_buffers.
#include "tinygrad/schedule/rangeify.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>

#include "tinygrad/base/check.h"
#include "tinygrad/schedule/indexing.h"
#include "tinygrad/schedule/local_buffers.h"
#include "tinygrad/uop/custom_kernel.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/movement/movement.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/range_simplify.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {

UOp TensorConstLike(const UOp& x, ConstValue v) {
  const Arg& dev = x.device();
  if (dev.is_none()) return UOp::Const(x.dtype(), v);
  // a device tuple too: a constant of a value computed on every device of the tuple
  return UOp::ConstOn(x.dtype(), v, DeviceNameOf(dev), x.shape());
}

namespace {

bool Tagged(const UOp& x) { return !x.tag().is_none(); }

// ** add_tags **

UOp TagUop(const Match& m) {
  const UOp& x = m["x"];
  if (Tagged(x) || x.dtype().scalar() == dtypes::index) return {};
  auto& list = m.ctx<std::vector<UOp>>();
  list.push_back(x);
  return x.replace_tag(Arg::Tuple({static_cast<int64_t>(list.size() - 1)}));
}

// ** earliest_rewrites **

int64_t IntSize(const UOp& x) {
  const Shape* s = x.shape();
  TG_CHECK(s) << "size of " << OpName(x.op()) << " without shape";
  SInt p = Prod(*s);
  return p.is_int() ? p.value() : -1;  // -1: symbolic, never 0
}

// merge adjacent RESHAPEs, safe because they are not tagged
UOp MergeReshapes(const Match& m) {
  const UOp &x = m["x"], &x2 = m["x2"];
  if (Tagged(x) || Tagged(x2)) return {};
  std::vector<UOp> src(x.src().begin(), x.src().end());
  src[0] = x2.src(0);
  return x.replace_src(src);
}

// tinygrad's split_reduceop: a reduce much larger than its output is split in two kernels
UOp SplitReduceop(const Match& m) {
  const UOp &reduce = m["reduce"], &x = m["x"];
  const ScheduleOptions& cfg = m.ctx<EarliestContext>().options;
  int64_t out_size = IntSize(reduce);
  if (out_size == 0) return {};
  const Shape& xs = *x.shape();
  if (!cfg.split_reduceop || !AllInt(xs) || out_size < 0 ||
      IntSize(x) / out_size < cfg.reduceop_split_threshold)
    return {};
  // which axes are expanded: their range disappears when indexing through the movement ops
  std::vector<UOp> rngs;
  for (size_t i = 0; i < xs.size(); ++i)
    rngs.push_back(xs[i].value() > 1 ? UOp::Range(xs[i].value(), static_cast<int64_t>(i))
                                     : UOp::Const(dtypes::index, 0));
  std::vector<UOp> isrc{x};
  isrc.insert(isrc.end(), rngs.begin(), rngs.end());
  UOp indexed = UOp::Make(Ops::INDEX, x.dtype(), isrc);
  SubstituteMap sub{{x.base(), UOp::Make(Ops::NOOP)}};
  static const auto* const kSub = new PatternMatcher(PmMops() + SubstituteRules());
  UOp pushed = GraphRewrite(indexed, *kSub, {.name = "split_reduceop", .bottom_up = true,
                                              .ctx = RewriteCtx::Of(sub)});
  std::vector<int64_t> range_nums;
  for (const UOp& r : Ranges(pushed)) range_nums.push_back(r.arg()[0].int64());
  auto is_expanded = [&](int64_t i) {
    return std::find(range_nums.begin(), range_nums.end(), i) == range_nums.end();
  };
  std::vector<int64_t> axes;
  for (const Arg& a : reduce.arg()[1].tuple()) axes.push_back(a.int64());
  int64_t hi = std::min<int64_t>(256, (int64_t{1} << cfg.reduceop_split_size) / out_size);
  int64_t dim = -1, divisor = 0;
  for (int64_t i : axes) {
    for (int64_t d = hi; d >= 8; --d) {
      if (xs[i].value() % d == 0 && !is_expanded(i)) {
        dim = i;
        divisor = d;
        break;
      }
    }
    if (dim >= 0) break;
  }
  if (dim < 0) return {};
  Shape split;
  for (int64_t i = 0; i < static_cast<int64_t>(xs.size()); ++i) {
    if (i == dim) {
      split.push_back(divisor);
      split.push_back(xs[i].value() / divisor);
    } else {
      split.push_back(xs[i]);
    }
  }
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < static_cast<int64_t>(split.size()); ++d)
    if (d != dim) perm.push_back(d);
  perm.push_back(dim);
  UOp splitted = x.reshape(split).permute(perm);
  // reduce the original axes, then the split
  Ops op = reduce.arg()[0].ops();
  UOp first = splitted.r(op, axes);
  UOp contig = UOp::Make(Ops::CONTIGUOUS, first.dtype(), {first});
  std::vector<int64_t> last{static_cast<int64_t>(reduce.shape()->size())};
  return contig.r(op, last).reshape(*reduce.shape()).replace_tag(reduce.tag());
}

// reduce of size 0 is the identity element
UOp ReduceSizeZero(const Match& m) {
  const UOp &reduce = m["reduce"], &x = m["x"];
  if (IntSize(x) != 0 || IntSize(reduce) == 0) return {};
  return TensorConstLike(reduce, IdentityElement(reduce.arg()[0].ops(), reduce.dtype()));
}

// size 0 anything is const 0
UOp SizeZero(const Match& m) {
  const UOp& x = m["x"];
  if (x.shape() == nullptr || IntSize(x) != 0) return {};
  UOp c = TensorConstLike(x, 0);
  return c.replace_tag(x.tag());
}

// early fixup const copy
UOp CopyOfConst(const Match& m) {
  UOp ss = m["s"].base();
  if (ss.op() != Ops::CONST) return {};
  return TensorConstLike(m["c"], ss.arg().number());
}

// COPY and source size need to match
UOp CopyContiguousView(const Match& m) {
  const UOp &c = m["c"], &r = m["r"];
  // Deliberate difference: the reference copies a same-size view as its base's bytes, so a
  // permuted or flipped tensor arrives unpermuted (at 35900290,
  // Tensor([[1,2,3],[4,5,6]]).realize().permute(1,0).to("CPU:1").tolist() is
  // [[1,2],[3,4],[5,6]]). Only RESHAPEs keep the base's element order.
  bool only_reshapes = true;
  for (UOp u = r; u != u.base() && only_reshapes; u = u.src(0)) only_reshapes = u.op() == Ops::RESHAPE;
  if (IntSize(r) == IntSize(r.base()) && only_reshapes) return {};
  return c.replace_src({UOp::Make(Ops::CONTIGUOUS, r.dtype(), {r}), m["d"]});
}

// copy only to a different device
UOp CopySameDevice(const Match& m) {
  const UOp &x = m["x"], &copy = m["copy"];
  if (x.device() != copy.device()) return {};
  return UOp::Make(Ops::NOOP, x.dtype(), {x}, Arg(), copy.tag());
}

// assign only to buffer, otherwise make it a CONTIGUOUS
UOp AssignToNonBuffer(const Match& m) {
  UOp t = m["target"].base();
  if (t.op() == Ops::BUFFER) return {};
  if (t.op() == Ops::MSTACK &&
      std::all_of(t.src().begin(), t.src().end(), [](const UOp& s) { return s.op() == Ops::BUFFER; }))
    return {};
  const UOp& x = m["x"];
  return UOp::Make(Ops::CONTIGUOUS, x.dtype(), {x}, Arg(), m["assign"].tag());
}

// realize before assign if the value reads the target through a permute/flip
UOp FindPermutes(const Match& m) {
  const UOp &a = m["a"], &b = m["b"], &assign = m["assign"];
  std::vector<UOp> permutes;
  for (const UOp& s : Toposort(b, [](const UOp& s) { return !AlwaysContiguous(s.op()); }))
    if (s.op() == Ops::PERMUTE || s.op() == Ops::FLIP) permutes.push_back(s);
  if (permutes.empty()) return {};
  UOp target = a.base();
  for (const UOp& p : permutes) {
    auto gate = [](const UOp& s) { return s.op() == Ops::BUFFER || !AlwaysContiguous(s.op()); };
    for (const UOp& s : Toposort(p, gate))
      if (s == target)
        return assign.replace_src({a, UOp::Make(Ops::CONTIGUOUS, b.dtype(), {b})});
  }
  return {};
}

// replace_contiguous: remember CONTIGUOUS(permute/reshape chain of x) for x's other users
UOp FoundContiguous(const Match& m) {
  UOp contig = m["contig"];
  const UOp& src = m["src"];
  for (UOp x = src; x != src.base(); x = x.src(0)) {
    if (x.op() == Ops::PERMUTE) {
      std::vector<int64_t> perm;
      for (const Arg& p : x.arg().tuple()) perm.push_back(p.int64());
      std::vector<int64_t> inv(perm.size());
      std::iota(inv.begin(), inv.end(), 0);
      std::stable_sort(inv.begin(), inv.end(), [&](int64_t i, int64_t j) { return perm[i] < perm[j]; });
      contig = contig.permute(inv);
    } else if (x.op() == Ops::RESHAPE) {
      contig = contig.reshape(*x.src(0).shape());
    } else {
      return {};
    }
  }
  m.ctx<EarliestContext>().contiguous[src.base()] = contig;
  return {};
}

UOp UseContiguous(const Match& m) {
  const UOp& alu = m["alu"];
  const ContiguousMap& cm = m.ctx<EarliestContext>().contiguous;
  std::vector<UOp> src;
  bool changed = false;
  for (const UOp& s : alu.src()) {
    auto it = cm.find(s);
    src.push_back(it == cm.end() ? s : it->second);
    changed |= src.back() != s;
  }
  return changed ? alu.replace_src(src) : UOp();
}

// A CUSTOM_KERNEL becomes a KERNEL over the same sources holding the AST its function wrote
// (tinygrad's resolve_custom_kernel); a function that fails leaves it, with the error kept.
UOp ResolveCustomKernelRule(const Match& m) {
  absl::StatusOr<UOp> ast = ResolveCustomKernel(m["ck"]);
  if (!ast.ok()) {
    std::string& error = m.ctx<EarliestContext>().error;
    if (error.empty()) error = std::string(ast.status().message());
    return {};
  }
  return UOp::Make(Ops::KERNEL, dtypes::void_, m["ck"].src(),
                   Arg(std::make_shared<const CustomKernelAst>(*std::move(ast))));
}

}  // namespace

const PatternMatcher& AddTags() {
  static const auto* const kRules = [] {
    OpSet skip{Ops::BUFFER, Ops::CONST,  Ops::DEVICE, Ops::UNIQUE, Ops::LUNIQUE, Ops::DEFINE_VAR,
               Ops::BIND,   Ops::KERNEL, Ops::END,    Ops::MSTACK, Ops::MSELECT, Ops::RANGE};
    skip = skip | GroupOp::Movement;
    OpSet tag;
    GroupOp::All.ForEach([&](Ops op) {
      if (!skip.contains(op)) tag.Add(op);
    });
    return new PatternMatcher({
        // don't tag BUFFERs, they are global
        Rule(UPat(tag).named("x"), TagUop),
        Rule(UPat(OpSet{Ops::MSTACK, Ops::MSELECT}).named("x"),
             [](const Match& m) {
               const UOp& x = m["x"];
               for (const UOp& s : x.src())
                 if (s.op() != Ops::BUFFER) return TagUop(m);
               return UOp();
             }),
    });
  }();
  return *kRules;
}

const PatternMatcher& EarliestRewrites() {
  static const auto* const kRules = [] {
    UPat movement(GroupOp::Movement);
    return new PatternMatcher(
        PmMops() +
        PatternMatcher({
            // mop_cleanup: merge adjacent RESHAPEs
            Rule(
                UPat(Ops::RESHAPE).src({UPat(Ops::RESHAPE).named("x2")}).allow_any_len().named("x"),
                MergeReshapes),
            // just removing it works...
            Rule(UPat(OpSet{Ops::DETACH, Ops::CONTIGUOUS_BACKWARD}).named("x"),
                 [](const Match& m) { return m["x"].src(0); }),
            // resolve custom kernels
            Rule(UPat(Ops::CUSTOM_KERNEL).named("ck"), ResolveCustomKernelRule),
            // remove CONTIGUOUS if the BUFFER is already contiguous
            Rule(UPat(Ops::CONTIGUOUS)
                     .src({UPat(Ops::RESHAPE).src({UPat(Ops::BUFFER)}).allow_any_len().named("r")})
                     .named("c"),
                 [](const Match& m) { return m["r"].replace_tag(m["c"].tag()); }),
            // split_reduceop
            Rule(UPat(Ops::REDUCE_AXIS).src({UPat::Var("x")}).named("reduce"), SplitReduceop),
            // reduce of size 0 is the identity element
            Rule(UPat(Ops::REDUCE_AXIS).src({UPat::Var("x")}).named("reduce"), ReduceSizeZero),
            // handle size 0
            Rule(UPat([] {
                   OpSet s;
                   GroupOp::All.ForEach([&](Ops op) {
                     if (op != Ops::SINK) s.Add(op);
                   });
                   return s;
                 }())
                     .named("x"),
                 SizeZero),
            // TODO(parity): the DISK copy rules (contiguous/movement before a disk COPY)
            // ** copy rules **
            Rule(UPat(Ops::COPY).src({UPat::Var("s"), UPat()}).named("c"), CopyOfConst),
            Rule(UPat(Ops::COPY).src({movement.named("r"), UPat().named("d")}).named("c"),
                 CopyContiguousView),
            Rule(UPat(Ops::COPY).src({UPat::Var("x"), UPat()}).named("copy"), CopySameDevice),
            // ** assign rules **
            Rule(UPat(Ops::ASSIGN).src({UPat().named("target"), UPat().named("x")}).named("assign"),
                 AssignToNonBuffer),
            Rule(UPat(Ops::ASSIGN).src({UPat::Var("a"), UPat::Var("b")}).named("assign"),
                 FindPermutes),
            // replace_contiguous
            Rule(UPat(Ops::CONTIGUOUS).src({movement.named("src")}).named("contig"),
                 FoundContiguous),
            Rule(UPat(GroupOp::ALU).named("alu"), UseContiguous),
        }));
  }();
  return *kRules;
}

}  // namespace tg
