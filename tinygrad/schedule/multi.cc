// File: tinygrad/schedule/multi.cc
// Port of tinygrad/schedule/multi.py: handle_allreduce, replace_allreduce, the multi functions
// (alu_multi, reduce_multi, reshape_multi, ...) and multi_pm, get_multi_map.
#include "tinygrad/schedule/multi.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

struct MultiCtx {
  const ScheduleOptions* options;
  std::string error;  // the first op the split does not allow
};

// Records why the graph cannot be split; the rule then leaves the node as it is.
UOp Fail(const Match& m, std::string why) {
  MultiCtx& ctx = m.ctx<MultiCtx>();
  if (ctx.error.empty()) ctx.error = std::move(why);
  return {};
}

// ** all-reduce **

UOp HandleAllreduce(const Match& m) {
  UOp buf = m["buf"];
  const UOp& red = m["red"];
  const Arg& devices = buf.device();
  if (!devices.is_tuple()) return {};
  const Shape& shape = *buf.shape();
  if (!AllInt(shape))
    return Fail(m, absl::StrCat("allreduce does not support symbolic shape ", ShapeRepr(shape)));
  const ScheduleOptions& o = *m.ctx<MultiCtx>().options;
  const int64_t n = static_cast<int64_t>(devices.size());
  const int64_t numel = Prod(shape).value();
  const Ops op = red.arg().ops();
  // ring (or all-to-all) only pays on more than two devices and big tensors (the reference's
  // measured threshold): otherwise every device sums copies of every shard, in fewer kernels
  const bool big = n > 2 && numel > o.ring_allreduce_threshold;
  const bool all2all = o.all2all >= 2 || (big && o.all2all >= 1);
  const bool ring = !all2all && (o.ring >= 2 || (big && o.ring >= 1));
  buf = buf.contiguous();
  auto combine = [op](const std::vector<UOp>& xs) {
    UOp acc = xs[0];
    for (size_t i = 1; i < xs.size(); ++i) acc = acc.alu(op, {xs[i]});
    return acc;
  };
  if (!ring && !all2all) {
    std::vector<UOp> copies;
    for (int64_t i = 0; i < n; ++i)
      copies.push_back(UOp::Make(Ops::COPY, buf.dtype(), {Mselect(buf, i), red.src(1)}));
    return combine(copies);
  }
  // n chunks of the flattened tensor, multiples of `factor` elements, the first `left` bigger
  int64_t factor = 1;
  for (int64_t f : {32, 16, 8, 4, 2})
    if (numel % f == 0) {
      factor = f;
      break;
    }
  const int64_t base = (numel / factor) / n, left = (numel / factor) % n;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  for (int64_t i = 0, at = 0; i < n; ++i) {
    const int64_t size = (i < left ? base + 1 : base) * factor;
    chunks.emplace_back(at, at + size);
    at += size;
  }
  const UOp flat = buf.reshape({SInt(numel)});
  auto piece = [](const UOp& u, std::pair<int64_t, int64_t> c) {
    return u.shrink({{SInt(c.first), SInt(c.second)}});
  };
  // reduce-scatter: device i ends with the sum of chunk i
  std::vector<UOp> reduced_chunks;
  for (int64_t i = 0; i < n; ++i) {
    if (all2all) {
      std::vector<UOp> on_i;
      for (int64_t j = 0; j < n; ++j)
        on_i.push_back(
            CopyToDevice(piece(Mselect(buf, j).reshape({SInt(numel)}), chunks[i]), devices[i]));
      reduced_chunks.push_back(combine(on_i));
      continue;
    }
    const UOp chunk = piece(flat, chunks[i]);
    UOp reduced = chunk;
    for (int64_t step = 0; step < n - 1; ++step) {
      const int64_t src = (i + step) % n, dest = (i + step + 1) % n;
      UOp cp =
          CopyToDevice(reduced, devices[dest],
                       reduced.device().is_tuple() ? std::optional<int64_t>(src) : std::nullopt);
      reduced = cp.alu(op, {CopyToDevice(chunk, devices[dest], dest)});
    }
    reduced_chunks.push_back(reduced);
  }
  // all-gather: every device gets every summed chunk
  std::vector<UOp> gathered;
  for (int64_t i = 0; i < n; ++i) {
    UOp rc = reduced_chunks[i];
    std::vector<UOp> this_chunk(n);
    if (all2all) {
      for (int64_t j = 0; j < n; ++j) this_chunk[j] = CopyToDevice(rc, devices[j]);
    } else {
      this_chunk[(i + n - 1) % n] = rc;
      for (int64_t step = 0; step < n - 1; ++step)
        this_chunk[(i + step) % n] = rc = CopyToDevice(rc, devices[(i + step) % n]);
    }
    gathered.push_back(Mstack(buf.dtype(), std::move(this_chunk)));
  }
  // reassemble: each chunk padded to the whole, summed
  UOp whole;
  for (int64_t i = 0; i < n; ++i) {
    UOp padded = gathered[i].pad({{SInt(chunks[i].first), SInt(numel - chunks[i].second)}});
    whole = i == 0 ? padded : whole.alu(Ops::ADD, {padded});
  }
  return whole.reshape(shape);
}

// `s` shrunk by `shrink`'s arg with _device_num = i (device i's part of an MSTACK).
UOp ShrinkForDevice(const UOp& s, const UOp& shrink, int64_t i) {
  PadArg arg = shrink.marg_pairs();
  auto fix = [i](SInt& v) {
    if (v.is_int()) return;
    absl::flat_hash_map<UOp, UOp> subs;
    for (const UOp& x : v.uop().toposort())
      if (x.op() == Ops::DEFINE_VAR && x.arg()[0].str() == kDeviceNumVar)
        subs[x] = UOp::Const(x.dtype(), i);
    if (!subs.empty()) v = SInt(Simplify(Substitute(v.uop(), subs)));
  };
  for (auto& [b, e] : arg) {
    fix(b);
    fix(e);
  }
  return s.shrink(arg);
}

UOp MstackEarlyShrink(const Match& m) {
  const UOp& ms = m["ms"];
  const UOp& shrink = m["shrink"];
  std::vector<UOp> out;
  for (size_t i = 0; i < ms.src().size(); ++i) {
    const UOp& x = ms.src(i);
    if (x.op() == Ops::COPY) {
      out.push_back(CopyToDevice(ShrinkForDevice(x.src(0), shrink, i), x.device()));
    } else {
      out.push_back(ShrinkForDevice(x, shrink, i).contiguous());
    }
  }
  return ms.replace_src(out);
}

const PatternMatcher& ReplaceAllreduce() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(Ops::ALLREDUCE).src({UPat::Var("buf"), UPat()}).named("red"), HandleAllreduce),
      // BROADCAST: a copy of one device's value to several is a copy to each
      Rule(UPat(Ops::COPY).src({UPat().named("x"), UPat(Ops::DEVICE)}).named("c"),
           [](const Match& m) {
             const UOp& c = m["c"];
             const UOp& x = m["x"];
             if (x.op() == Ops::CONST || !c.device().is_tuple() || !x.device().is_string())
               return UOp();
             std::vector<UOp> copies;
             for (const Arg& d : c.device().tuple()) copies.push_back(CopyToDevice(x, d));
             return Mstack(c.dtype(), std::move(copies));
           }),
      // COPY_TO_ONE: a multi-device value copied to one device is the first device's copy
      Rule(UPat(Ops::COPY).src({UPat().named("x"), UPat(Ops::DEVICE)}).named("c"),
           [](const Match& m) {
             const UOp& c = m["c"];
             const UOp& x = m["x"];
             if (x.op() == Ops::CONST || !c.device().is_string() || !x.device().is_tuple())
               return UOp();
             return CopyToDevice(Mselect(x, 0), c.device());
           }),
      // MSELECT of an MSTACK is its source
      Rule(UPat(Ops::MSELECT).src({UPat(Ops::MSTACK).named("mstack")}).named("ms"),
           [](const Match& m) { return m["mstack"].src(m["ms"].arg().int64()); }),
      // a shrink of an MSTACK moves into each device's source
      Rule(UPat(Ops::SHRINK).src({UPat(Ops::MSTACK).named("ms")}).allow_any_len().named("shrink"),
           MstackEarlyShrink),
      // MSELECT moves before movement ops
      Rule(UPat(Ops::MSELECT)
               .src({UPat(GroupOp::Movement).src({UPat::Var("s")}).allow_any_len().named("v")})
               .named("ms"),
           [](const Match& m) {
             const UOp& v = m["v"];
             std::vector<UOp> srcs(v.src().begin(), v.src().end());
             srcs[0] = Mselect(m["s"], m["ms"].arg().int64());
             return v.replace_src(srcs);
           }),
  });
  return *kRules;
}

// ** the multi functions **

UOp AluMulti(const Match& m) {
  const UOp& root = m["root"];
  bool any_multi = false;
  for (const UOp& s : root.src()) any_multi |= s.op() == Ops::MULTI;
  if (!any_multi) return {};
  for (const UOp& s : root.src())
    if (s.device() != root.src(0).device())
      return Fail(
          m, absl::StrCat("all buffers must have the same device: ",
                          DeviceNameOf(root.src(0).device()), " != ", DeviceNameOf(s.device())));
  const int64_t axis = *MultiAxis(root);
  std::vector<UOp> srcs;
  for (const UOp& mlb : root.src()) {
    std::optional<int64_t> a = MultiAxis(mlb);
    if (a == axis) {
      srcs.push_back(mlb.src(0));  // same axis: the shard as it is
    } else if (!a.has_value()) {
      absl::StatusOr<UOp> s = ShardSlice(mlb, axis);  // whole on every device: this device's part
      if (!s.ok()) return Fail(m, std::string(s.status().message()));
      srcs.push_back(*s);
    } else {
      // split along another axis: gathered on every device, then split along this one
      absl::StatusOr<UOp> s =
          ShardSlice(Allreduce(UnshardPad(mlb.src(0), *a), Ops::ADD, mlb.device()), axis);
      if (!s.ok()) return Fail(m, std::string(s.status().message()));
      srcs.push_back(*s);
    }
  }
  return Multi(UOp::Make(root.op(), root.dtype(), srcs, root.arg()), axis);
}

UOp ReduceMulti(const Match& m) {
  const UOp& root = m["root"];
  const UOp& multi = m["multi"];
  const Ops op = root.arg()[0].ops();
  std::vector<int64_t> axes;
  for (const Arg& a : root.arg()[1].tuple()) axes.push_back(a.int64());
  const int64_t axis = multi.arg().int64();
  UOp reduced = multi.src(0).r(op, axes);
  if (std::find(axes.begin(), axes.end(), axis) != axes.end())
    return Allreduce(reduced, op, multi.device());  // over the split axis: summed across devices
  return Multi(reduced, axis);
}

UOp ReshapeMulti(const Match& m) {
  const UOp& root = m["root"];
  const UOp& multi = m["multi"];
  const Shape arg = root.marg_shape();
  const std::optional<int64_t> new_axis = MultiAxis(root);
  const Shape& shard = *multi.src(0).shape();
  // the shard's elements from its split axis on must be whole rows of the new shape's
  const SInt after_axis = Prod(std::span<const SInt>(shard).subspan(multi.arg().int64()));
  const SInt rest = new_axis ? Prod(std::span<const SInt>(arg).subspan(*new_axis + 1)) : SInt(0);
  if (!new_axis || !after_axis.is_int() || !rest.is_int() || rest.value() == 0 ||
      after_axis.value() % rest.value() != 0)
    return Fail(m, absl::StrCat("reshape cannot move items between shards ",
                                ShapeRepr(*multi.shape()), " -> ", ShapeRepr(arg)));
  Shape out = arg;
  out[*new_axis] = SInt(after_axis.value() / rest.value());
  return Multi(multi.src(0).reshape(out), *new_axis);
}

UOp ExpandMulti(const Match& m) {
  const UOp& multi = m["multi"];
  const int64_t axis = multi.arg().int64();
  Shape arg = m["root"].marg_shape();
  if (arg[axis] != (*multi.shape())[axis])
    return Fail(m, absl::StrCat("expand not supported on sharded axis ", ShapeRepr(arg)));
  arg[axis] = (*multi.src(0).shape())[axis];
  return Multi(multi.src(0).expand(arg), axis);
}

UOp PadMulti(const Match& m) {
  const UOp& multi = m["multi"];
  const int64_t axis = multi.arg().int64();
  const PadArg arg = m["root"].marg_pairs();
  if (arg[axis].first != SInt(0) || arg[axis].second != SInt(0))
    return Fail(m, "padding not supported on the sharded axis");
  return Multi(multi.src(0).pad(arg), axis);
}

UOp ShrinkMulti(const Match& m) {
  const UOp& multi = m["multi"];
  const int64_t axis = multi.arg().int64();
  const PadArg arg = m["root"].marg_pairs();
  const Shape& shape = *multi.shape();
  const std::pair<SInt, SInt> whole{SInt(0), shape[axis]};
  std::optional<int64_t> bound;
  const auto bounds = MultiBounds(multi);
  for (size_t i = 0; i < bounds.size(); ++i)
    if (arg[axis] == std::pair<SInt, SInt>{SInt(bounds[i].first), SInt(bounds[i].second)})
      bound = static_cast<int64_t>(i);
  if (arg[axis] != whole && !bound.has_value())
    return Fail(m, "shrinking not supported on the sharded axis, except to one shard");
  if (arg[axis] != whole) {
    for (size_t i = 0; i < arg.size(); ++i)
      if (static_cast<int64_t>(i) != axis && arg[i] != std::pair<SInt, SInt>{SInt(0), shape[i]})
        return Fail(m, "cannot shrink sharded and non-sharded axis at the same time");
    // one shard: copied to every device (not split any more)
    return CopyToDevice(multi.src(0), multi.device(), *bound);
  }
  PadArg out = arg;
  out[axis] = {SInt(0), (*multi.src(0).shape())[axis]};
  return Multi(multi.src(0).shrink(out), axis);
}

UOp PermuteMulti(const Match& m) {
  const UOp& root = m["root"];
  std::vector<int64_t> order;
  for (const Arg& a : root.arg().tuple()) order.push_back(a.int64());
  return Multi(m["multi"].src(0).permute(order), *MultiAxis(root));
}

UOp FlipMulti(const Match& m) {
  const UOp& multi = m["multi"];
  const int64_t axis = multi.arg().int64();
  std::vector<bool> flips;
  for (const Arg& a : m["root"].arg().tuple()) flips.push_back(a.number().to_bool());
  if (flips[axis]) return Fail(m, "flipping not supported on the sharded axis");
  return Multi(multi.src(0).flip(flips), axis);
}

UOp AssignMulti(const Match& m) {
  const UOp& dest = m["dest"];
  const UOp& src = m["src"];
  if (dest.arg() != src.arg())
    return Fail(
        m, absl::StrCat("axis must match in assign ", dest.arg().repr(), " != ", src.arg().repr()));
  return Multi(UOp::Make(Ops::ASSIGN, dest.dtype(), {dest.src(0), src.src(0)}), src.arg().int64());
}

const PatternMatcher& MultiRules() {
  static const auto* const kRules = new PatternMatcher(
      PatternMatcher({
          Rule(UPat(GroupOp::ALU).named("root"), AluMulti),
          Rule(UPat(Ops::REDUCE_AXIS).src({UPat(Ops::MULTI).named("multi")}).named("root"),
               ReduceMulti),
          Rule(UPat(Ops::RESHAPE).src({UPat(Ops::MULTI).named("multi"), UPat()}).named("root"),
               ReshapeMulti),
          Rule(UPat(Ops::EXPAND).src({UPat(Ops::MULTI).named("multi"), UPat()}).named("root"),
               ExpandMulti),
          Rule(UPat(Ops::PAD).src({UPat(Ops::MULTI).named("multi"), UPat(), UPat()}).named("root"),
               PadMulti),
          Rule(UPat(Ops::SHRINK)
                   .src({UPat(Ops::MULTI).named("multi"), UPat(), UPat()})
                   .named("root"),
               ShrinkMulti),
          Rule(UPat(Ops::PERMUTE).src({UPat(Ops::MULTI).named("multi")}).named("root"),
               PermuteMulti),
          Rule(UPat(Ops::FLIP).src({UPat(Ops::MULTI).named("multi")}).named("root"), FlipMulti),
          Rule(UPat(Ops::ASSIGN)
                   .src({UPat(Ops::MULTI).named("dest"), UPat(Ops::MULTI).named("src")}),
               AssignMulti),
          // from several devices to one: the shards padded to the whole and summed there
          Rule(UPat(Ops::COPY).src(
                   {UPat(Ops::MULTI).named("multi"), UPat(Ops::DEVICE).named("device")}),
               [](const Match& m) {
                 const UOp& multi = m["multi"];
                 return Allreduce(UnshardPad(multi.src(0), multi.arg().int64()), Ops::ADD,
                                  m["device"].arg());
               }),
          Rule(UPat(Ops::ALLREDUCE)
                   .src({UPat(Ops::MULTI).named("multi"), UPat(Ops::DEVICE).named("device")})
                   .named("red"),
               [](const Match& m) {
                 const UOp& multi = m["multi"];
                 return Multi(Allreduce(multi.src(0), m["red"].arg().ops(), m["device"].arg()),
                              multi.arg().int64());
               }),
          // a custom kernel runs on each device's shards: its MULTI sources become their
          // shards, and each output the MULTI of its shard after the kernel
          Rule(UPat(Ops::CUSTOM_KERNEL)
                   .src_repeat(UPat(OpSet{Ops::MULTI, Ops::CONTIGUOUS}))
                   .named("ck"),
               [](const Match& m) {
                 const UOp& ck = m["ck"];
                 std::vector<UOp> src;
                 for (const UOp& x : ck.src()) src.push_back(x.op() == Ops::MULTI ? x.src(0) : x);
                 return ck.replace_src(src);
               }),
          Rule(UPat(Ops::AFTER)
                   .src({UPat(Ops::MULTI).named("multi"), UPat(Ops::CUSTOM_KERNEL)})
                   .named("a"),
               [](const Match& m) {
                 const UOp& a = m["a"];
                 const UOp& multi = m["multi"];
                 std::vector<UOp> src(a.src().begin(), a.src().end());
                 src[0] = multi.src(0);
                 return Multi(a.replace_src(src), multi.arg().int64());
               }),
          Rule(UPat(OpSet{Ops::CAST, Ops::BITCAST, Ops::CONTIGUOUS, Ops::DETACH,
                          Ops::CONTIGUOUS_BACKWARD})
                   .src({UPat(Ops::MULTI).named("multi")})
                   .named("root"),
               [](const Match& m) {
                 const UOp& root = m["root"];
                 const UOp& multi = m["multi"];
                 return Multi(UOp::Make(root.op(), root.dtype(), {multi.src(0)}, root.arg()),
                              multi.arg().int64());
               }),
      }) +
      ReplaceAllreduce());
  return *kRules;
}

}  // namespace

bool HasMultiDevice(const UOp& sink) {
  for (const UOp& u : sink.toposort())
    if (u.device().is_tuple()) return true;
  return false;
}

absl::StatusOr<absl::flat_hash_map<UOp, UOp>> GetMultiMap(const UOp& big_sink,
                                                          const ScheduleOptions& options) {
  MultiCtx ctx{.options = &options, .error = ""};
  absl::flat_hash_map<UOp, UOp> map =
      GraphRewriteMap(big_sink, MultiRules(), {.name = "multi_pm", .ctx = RewriteCtx::Of(ctx)});
  if (!ctx.error.empty()) return absl::InvalidArgumentError(ctx.error);
  return map;
}

}  // namespace tg
