// File: tinygrad/schedule/bufferize.cc
// Port of tinygrad/schedule/rangeify.py, steps 3.5-4: cleanup_dead_axes, remove_noop_bufferize,
// remove_bufferize (the cost model), pm_const_buffer_folding, pm_remove_bufferize,
// pm_limit_bufs and pm_add_buffers. Declared in rangeify.h.
#include <algorithm>
#include <functional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/base/check.h"
#include "tinygrad/schedule/indexing.h"
#include "tinygrad/schedule/local_buffers.h"
#include "tinygrad/schedule/rangeify.h"
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


namespace {

// Ops::NOOP is a COPY to the device the tensor is already on; treated like COPY
bool AlwaysRun(Ops op) {
  return op == Ops::CONTIGUOUS || op == Ops::COPY || op == Ops::ASSIGN || op == Ops::ENCDEC ||
         op == Ops::NOOP;
}

Shape BufferizeShape(const UOp& b) {
  if (const Shape* s = b.shape()) return *s;
  Shape s;
  for (const UOp& r : b.src().subspan(1)) s.push_back(SInt(r.vmax().to_int64() + 1));
  return s;
}

// you don't know in the first pass if axes are going to die (an EXPAND to the left)
UOp CleanupDeadAxes(const Match& m) {
  const UOp& b = m["b"];
  if (AlwaysRun(b.src(0).op())) return {};
  Shape shape = BufferizeShape(b);
  std::vector<UOp> new_src{b.src(0)};
  Shape reshape;
  bool hit = false;
  for (size_t i = 0; i + 1 < b.src().size(); ++i) {
    const UOp& rng = b.src(i + 1);
    // skip for symbolic
    if (rng.op() == Ops::RANGE && rng.src(0).op() != Ops::CONST) return {};
    // CONSTs are already dead axes
    if (rng.op() == Ops::CONST || (rng.op() == Ops::RANGE && !b.src(0).has_range(rng))) {
      reshape.push_back(1);
      hit = true;
    } else {
      reshape.push_back(shape[i]);
      new_src.push_back(rng);
    }
  }
  if (!hit) return {};
  // the tag moves to the expand
  UOp nb = UOp::Make(Ops::BUFFERIZE, b.dtype(), new_src, b.arg());
  return nb.reshape(reshape).expand(shape).replace_tag(b.tag());
}

Arg ConcatTags(const Arg& a, const Arg& b) {
  std::vector<Arg> out;
  if (a.is_tuple()) out.insert(out.end(), a.tuple().begin(), a.tuple().end());
  if (b.is_tuple()) out.insert(out.end(), b.tuple().begin(), b.tuple().end());
  return out.empty() ? Arg() : Arg::Tuple(out);
}

// remove noop buffers: BUFFERIZE(INDEX(x, r...), r...) is x
UOp RemoveNoopBufferize(const Match& m) {
  const UOp &idx = m["idx"], &b2 = m["b2"];
  if (idx.src().size() != b2.src().size() || idx.src(0).op() == Ops::BUFFER_VIEW) return {};
  for (size_t i = 1; i < idx.src().size(); ++i)
    if (idx.src(i) != b2.src(i)) return {};
  UOp ret = idx.src(0).replace_tag(ConcatTags(idx.src(0).tag(), b2.tag()));
  Shape shape = BufferizeShape(b2);
  if (shape.empty()) return ret;
  PadArg sh;
  for (const SInt& s : shape) sh.emplace_back(SInt(0), s);
  return ret.shrink(sh);
}

// tinygrad's substitute with pm_gate_substitute: only nodes inside the replaced ranges are
// rebuilt (a nested BUFFERIZE that closes them is left alone).
UOp GatedSubstitute(const UOp& root, const absl::flat_hash_map<UOp, UOp>& subs) {
  if (subs.empty()) return root;
  absl::flat_hash_map<UOp, UOp> memo;
  std::function<UOp(const UOp&)> go = [&](const UOp& u) -> UOp {
    if (auto it = memo.find(u); it != memo.end()) return it->second;
    UOp ret = u;
    if (auto it = subs.find(u); it != subs.end()) {
      ret = it->second;
    } else {
      bool inside = false;
      for (const auto& [k, v] : subs) inside |= u.has_range(k);
      if (inside) {
        std::vector<UOp> src;
        bool changed = false;
        for (const UOp& s : u.src()) {
          src.push_back(go(s));
          changed |= src.back() != s;
        }
        if (changed) ret = u.replace_src(src);
      }
    }
    memo[u] = ret;
    return ret;
  };
  return go(root);
}

// if a buffer is being stored just for permutes or something, remove it: re-express the
// consumer's index in terms of the bufferized value
UOp RemoveBufferize(const Match& m) {
  const UOp &src = m["src"], &buf = m["buf"], &idx = m["idx"];
  TG_CHECK(buf.src().size() == idx.src().size()) << "index on wrong bufferize";
  for (const UOp& x : buf.src().subspan(1))
    TG_CHECK(x.op() == Ops::RANGE || x.op() == Ops::CONST) << "bufferize over " << OpName(x.op());
  // user contiguous is never removed
  if (AlwaysRun(src.op()) || !BufferizeOpts::FromArg(buf.arg()).removable) return {};
  // threefry is never bufferized (not all platforms support long)
  if (src.op() != Ops::THREEFRY) {
    // *** the cost: None keeps the bufferize ***
    std::vector<UOp> accessed, reduces;
    Toposort(src, [&](const UOp& x) {
      if (x.op() == Ops::BUFFERIZE && BufferizeOpts::FromArg(x.arg()).addrspace == AddrSpace::GLOBAL) {
        accessed.push_back(x);
        return false;
      }
      if (x.op() == Ops::BUFFER) accessed.push_back(x);
      if (x.op() == Ops::REDUCE) reduces.push_back(x);
      return true;
    });
    accessed = Dedup(accessed);
    // generated from many buffers: keep it
    if (accessed.size() > 3 && !(m.ctx<IndexingContext>().options.pcontig > 2)) return {};
    // a reduce reading a buffer: keep it
    bool buffer_in_reduce = false;
    std::vector<UOp> rsrc;
    for (const UOp& r : reduces) rsrc.push_back(r.src(0));
    Toposort(UOp::Sink(rsrc), [&](const UOp& x) {
      if (x.op() == Ops::BUFFER || x.op() == Ops::BUFFERIZE) buffer_in_reduce = true;
      return !buffer_in_reduce;
    });
    // TODO(parity): PCONTIG>2 partial-local bufferize
    if (buffer_in_reduce) return {};
  }
  // the bufferize is removed: its ranges are replaced by the consumer's index
  absl::flat_hash_map<UOp, UOp> subs;
  for (size_t i = 1; i < buf.src().size(); ++i)
    if (buf.src(i).op() != Ops::CONST) subs[buf.src(i)] = idx.src(i);
  return GatedSubstitute(src, subs);
}

UOp ConstBufferize(const Match& m) {
  const UOp &c = m["c"], &b = m["b"];
  UOp ret = UOp::Const(b.dtype(), c.arg().number());
  BufferizeOpts o = BufferizeOpts::FromArg(b.arg());
  if (!o.device.is_none())
    ret = UOp::ConstOn(b.dtype(), c.arg().number(), DeviceNameOf(o.device), b.shape());
  return ret.replace_tag(b.tag());
}

const PatternMatcher& PmConstBufferFolding() {
  static const auto* const kRules = [] {
    UPat r = UPat().dtype(dtypes::index);
    UPat arange = UPat::Any({r.cast().named("src"), r.ne(UPat()).logical_not().named("src")});
    return new PatternMatcher(
        PmMops() +
        PatternMatcher({
            Rule(UPat(Ops::BUFFERIZE).named("b"), CleanupDeadAxes),
            // TODO(parity): ImageDType rules (no images in this port)
            // remove noop buffers
            Rule(UPat(Ops::BUFFERIZE)
                     .src({UPat(Ops::INDEX).named("idx")})
                     .allow_any_len()
                     .named("b2"),
                 RemoveNoopBufferize),
            // dont bufferize an arange
            Rule(UPat(Ops::INDEX)
                     .src({UPat(Ops::BUFFERIZE).src({arange}).allow_any_len().named("buf")})
                     .allow_any_len()
                     .named("idx"),
                 RemoveBufferize),
            // no buffers for const
            Rule(UPat(Ops::BUFFERIZE).src({UPat(Ops::CONST).named("c")}).allow_any_len().named("b"),
                 ConstBufferize),
            // indexing a const is a const
            Rule(UPat(Ops::INDEX).src({UPat(Ops::CONST).named("c")}),
                 [](const Match& m) { return m["c"]; }),
            // copy on CONST is CONST
            Rule(UPat(Ops::COPY).src({UPat::CVar("x"), UPat()}).named("copy"),
                 [](const Match& m) { return TensorConstLike(m["copy"], m["x"].arg().number()); }),
            // hack if a noop turned to a const
            Rule(UPat(Ops::BUFFERIZE)
                     .src({UPat(Ops::NOOP).src({UPat::CVar("c")})})
                     .allow_any_len()
                     .named("buf"),
                 [](const Match& m) {
                   const UOp& buf = m["buf"];
                   std::vector<UOp> src(buf.src().begin(), buf.src().end());
                   src[0] = m["c"];
                   return buf.replace_src(src);
                 }),
            // indexing an MSTACK of constants is the constant (each device's is the same)
            Rule(UPat(Ops::INDEX)
                     .src({UPat(Ops::MSTACK).src({UPat::Var("s")}).allow_any_len()})
                     .allow_any_len(),
                 [](const Match& m) {
                   UOp c = m["s"].base();
                   return c.op() == Ops::CONST ? UOp::Const(c.dtype(), c.arg().number()) : UOp();
                 }),
        }));
  }();
  return *kRules;
}

}  // namespace

const PatternMatcher& PmBufferizeCleanup() {
  static const auto* const kRules = new PatternMatcher(
      Symbolic() + PmReduceSimplify() + PmConstBufferFolding() +
      PatternMatcher({
          // pm_remove_bufferize: remove reindexing with the cost function
          Rule(UPat(Ops::INDEX)
                   .src({UPat(Ops::BUFFERIZE).src({UPat::Var("src")}).allow_any_len().named("buf")})
                   .allow_any_len()
                   .named("idx"),
               RemoveBufferize),
      }));
  return *kRules;
}

namespace {

int MaxBufs(const UOp& root, const ScheduleOptions& options) {
  const Arg& dev = root.device();
  if (dev.is_none()) return 0;  // index related calculations
  std::string d = dev.is_string() ? dev.str() : dev[0].str();
  d = d.substr(0, d.find(':'));
  if (int cfg = options.max_kernel_buffers) return cfg;
  if (d == "METAL") return 31;
  if (d == "WEBGPU") return 8;
  return 0;
}

UOp LimitBufs(const Match& m) {
  const UOp& root = m["root"];
  int max_bufs = MaxBufs(root, m.ctx<IndexingContext>().options);
  if (max_bufs == 0) return {};
  std::vector<UOp> bufs;
  Toposort(root, [&](const UOp& u) {
    static constexpr OpSet kLoads{Ops::BUFFERIZE, Ops::AFTER, Ops::BUFFER, Ops::MSELECT, Ops::MSTACK,
                                  Ops::DEFINE_VAR};
    bool is_load = kLoads.contains(u.op());
    if (is_load && !Contains(bufs, u)) bufs.push_back(u);
    return !is_load;
  });
  // -1 for the output buffer
  if (static_cast<int>(bufs.size()) <= max_bufs - 1) return {};
  IndexingContext& ctx = m.ctx<IndexingContext>();
  std::vector<UOp> srcs;
  for (UOp s : root.src()) {
    if (GroupOp::Elementwise.contains(s.op())) {
      // bufferize: every range before it becomes a LOOP range
      std::vector<UOp> orig = Ranges(s), ends;
      absl::flat_hash_map<UOp, UOp> sub;
      for (const UOp& x : orig) {
        UOp e = x.op() == Ops::RANGE
                    ? x.replace_arg(Arg::Tuple({ctx.range_idx++, AxisType::LOOP}))
                    : x;
        ends.push_back(e);
        sub[x] = e;
      }
      std::vector<UOp> bsrc{Substitute(s, sub)};
      bsrc.insert(bsrc.end(), ends.begin(), ends.end());
      BufferizeOpts opts{s.device(), AddrSpace::GLOBAL, true};
      UOp b = UOp::Make(Ops::BUFFERIZE, s.dtype(), bsrc, opts.ToArg());
      std::vector<UOp> isrc{b};
      isrc.insert(isrc.end(), orig.begin(), orig.end());
      s = UOp::Make(Ops::INDEX, s.dtype(), isrc);
    }
    srcs.push_back(s);
  }
  return root.replace_src(srcs);
}

}  // namespace

const PatternMatcher& PmLimitBufs() {
  static const auto* const kRules =
      new PatternMatcher({Rule(UPat(GroupOp::Binary | GroupOp::Ternary).named("root"), LimitBufs)});
  return *kRules;
}

const PatternMatcher& PmAddBuffers() {
  static const auto* const kRules = new PatternMatcher(
      PmMops() + PmFlattenBufferize() + ToBufferview() +
      PatternMatcher({
          Rule(UPat(Ops::BUFFERIZE).src({UPat(), UPat().named("idx")}).named("x"),
               [](const Match& m) {
                 return BufferizeToStore(m.ctx<int64_t>(), m["x"], m["idx"], /*allow_locals=*/false);
               }),
          // move RESHAPEs through MSELECT/MSTACK
          Rule(UPat(OpSet{Ops::MSELECT, Ops::MSTACK}).src_repeat(UPat(Ops::RESHAPE)).named("m"),
               [](const Match& m) {
                 const UOp& x = m["m"];
                 std::vector<UOp> src;
                 for (const UOp& s : x.src()) src.push_back(s.src(0).base());
                 return x.replace_src(src).replace_tag(Arg()).reshape(*x.shape()).replace_tag(x.tag());
               }),
          // remove any RESHAPEs on KERNEL (the kernels here are custom kernels', whose AST is
          // in the arg: every source is an input)
          Rule(UPat(Ops::KERNEL).named("k"),
               [](const Match& m) {
                 const UOp& k = m["k"];
                 std::vector<UOp> src;
                 bool changed = false;
                 for (const UOp& x : k.src()) {
                   src.push_back(x.op() == Ops::RESHAPE ? x.src(0) : x);
                   changed |= x.op() == Ops::RESHAPE;
                 }
                 return changed ? k.replace_src(src) : UOp();
               }),
          // pm_add_range_tags
          Rule(UPat(Ops::RANGE).named("x"),
               [](const Match& m) { return m["x"].replace_tag(Arg::Tuple({})); }),
      }));
  return *kRules;
}

}  // namespace tg
