// File: tinygrad/schedule/local_buffers.cc
// Port of tinygrad/schedule/rangeify.py: late_buffer_view/to_bufferview, bufferize_to_store,
// flatten_bufferize, pm_add_buffers_local and rangeify_codegen.
#include "tinygrad/schedule/local_buffers.h"

#include <algorithm>
#include <string>
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/movement/movement.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// BUFFERIZE's shape: the sizes of the ranges it closes.
Shape BufferizeShape(const UOp& x) {
  Shape s;
  for (const UOp& r : x.src().subspan(1)) s.push_back(SInt(r.vmax().to_int64() + 1));
  return s;
}

int64_t IntProd(const Shape& s) {
  int64_t p = 1;
  for (const SInt& d : s) p *= d.value();
  return p;
}

bool IsDiskDevice(const Arg& device) {
  if (!device.is_string()) return false;
  const std::string& d = device.str();
  return d.rfind("DISK", 0) == 0 || d.rfind("TINYFS", 0) == 0;
}

// A movement op with the arg of `mop`, applied to `x` (tinygrad's _mop).
UOp ApplyMop(const UOp& x, const UOp& mop) {
  MovementArg a = MovementArg::Of(mop);
  switch (mop.op()) {
    case Ops::RESHAPE: return x.reshape(a.shape);
    case Ops::EXPAND: return x.expand(a.shape);
    case Ops::PAD: return x.pad(a.pairs);
    case Ops::SHRINK: return x.shrink(a.pairs);
    case Ops::PERMUTE: return x.permute(a.perm);
    case Ops::FLIP: return x.flip(a.flip);
    default: TG_CHECK(false) << "not a movement op: " << OpName(mop.op()); return x;
  }
}

UOp Barrier(const UOp& x) { return UOp::Make(Ops::BARRIER, dtypes::void_, {x}); }

UOp LateBufferView(const Match& m) {
  const UOp &t = m["t"], &b = m["b"];
  if (!IsDiskDevice(b.device())) return {};
  const Shape* shape = b.shape();
  TG_CHECK(shape != nullptr) << "buffer view of a BUFFERIZE without a shape";
  int64_t size = IntProd(*shape);
  // walk up for the INDEX
  UOp x = t;
  auto has_index = [](const UOp& u) {
    return std::any_of(u.src().begin(), u.src().end(), [](const UOp& s) { return s.op() == Ops::INDEX; });
  };
  while (!has_index(x)) {
    TG_CHECK(!GroupOp::Elementwise.contains(x.op())) << "can't buffer view elementwise";
    x = x.src(0);
  }
  x = *std::find_if(x.src().begin(), x.src().end(), [](const UOp& s) { return s.op() == Ops::INDEX; });
  int64_t offset = 0;
  if (shape->empty()) {
    offset = x.src(1).arg().int64();
  } else {
    ConstValue sum(0);
    for (const UOp& idx : x.src().subspan(1)) sum = sum + idx.vmin();
    offset = std::max<int64_t>(sum.to_int64(), 0);
  }
  UOp view = UOp::Make(Ops::BUFFER_VIEW, t.dtype(), {x.base()}, Arg::Tuple({size, offset}), t.tag());
  std::vector<UOp> src{view};
  src.insert(src.end(), b.src().begin() + 1, b.src().end());
  return b.replace_src(src);
}

UOp FlattenBufferize(const Match& m) {
  const UOp& x = m["x"];
  if (x.tag().is_none() && x.src().size() == 2) return {};
  Shape shape = BufferizeShape(x);
  Shape flat{SInt(IntProd(shape))};
  MovementArg reshape{.shape = shape};
  std::vector<UOp> idx = ApplyMovementOp(Ops::RESHAPE, flat, reshape, x.src().subspan(1));
  TG_CHECK(idx.size() == 1) << "a flattened BUFFERIZE has one index";
  UOp ret = x.replace_src({x.src(0), idx[0]}).replace_tag(Arg());
  ret = ret.forced_reshape(shape);
  bool symbolic = false;
  for (const UOp& r : x.src().subspan(1)) symbolic |= (r.op() == Ops::RANGE && r.src(0).op() != Ops::CONST);
  if (symbolic) {
    PadArg shrink;
    for (const UOp& r : x.src().subspan(1))
      shrink.emplace_back(SInt(0), r.op() != Ops::CONST ? SInt(r.src(0)) : SInt(1));
    ret = ret.shrink(shrink);
  }
  return ret.replace_tag(x.tag());
}

UOp AddLocalBuffer(const Match& m) {
  return BufferizeToStore(m.ctx<int64_t>(), m["x"], m["idx"], /*allow_locals=*/true);
}

bool IsOptTuple(const Arg& a) {
  return a.is_tuple() && a.size() == 3 && a[0].is_string();
}

// A value INDEX through a (broadcast or GEP'd) local buffer becomes a LOAD.
UOp LocalIndexToLoad(const Match& m) {
  const UOp &dg = m["dg"], &idx = m["idx"];
  if (idx.dtype().is_ptr()) return {};
  UOp pidx = UOp::Make(Ops::INDEX, dg.dtype(), idx.src(), Arg());
  return UOp::Make(Ops::LOAD, dg.dtype().base().scalar().vec(dg.dtype().vcount()), {pidx});
}

}  // namespace

UOp BufferizeToStore(int64_t& counter, const UOp& x, const UOp& idx, bool allow_locals) {
  Shape shape = x.shape() != nullptr ? *x.shape() : BufferizeShape(x);
  TG_CHECK(AllInt(shape)) << "no symbolic sized buffers";
  int64_t size = IntProd(shape);
  TG_CHECK(size > 0) << "no zero sized buffers";
  std::vector<UOp> rngs = Ranges(idx);
  std::stable_sort(rngs.begin(), rngs.end(), [](const UOp& a, const UOp& b) { return RangeArgLess(a.arg(), b.arg()); });
  BufferizeOpts opts = BufferizeOpts::FromArg(x.arg());
  DType sdtype = x.dtype().ptr(size, opts.addrspace);
  const UOp& val = x.src(0);

  if (val.op() == Ops::ASSIGN) {
    const UOp &assign_target = val.src(0), &assign_src = val.src(1), &assign_mops = val.src(2);
    TG_CHECK(assign_target.op() == Ops::INDEX) << OpName(assign_target.op()) << " is not index";
    // in assign, this is the buffer size, not the bufferize size
    UOp st = UOp::Make(Ops::STORE, dtypes::void_, {assign_target.replace_dtype(sdtype), assign_src}, Arg(), x.tag());
    UOp ret = After(assign_target.src(0), std::vector<UOp>{End(st, rngs)});
    std::vector<UOp> mops;
    for (UOp walk = assign_mops; walk != assign_mops.base(); walk = walk.src(0)) mops.push_back(walk);
    for (auto it = mops.rbegin(); it != mops.rend(); ++it) ret = ApplyMop(ret, *it);
    return ret;
  }

  auto new_buffer = [&]() {
    UOp lunique = UOp::Make(Ops::LUNIQUE, dtypes::void_, {}, Arg(counter++));
    UOp device = UOp::Make(Ops::DEVICE, dtypes::void_, {}, opts.device);
    return UOp::Make(Ops::BUFFER, x.dtype(), {lunique, device}, Arg(size));
  };

  // lower an outer-world reduce here
  if (val.op() == Ops::REDUCE && val.src().size() == 2 && val.src(1).op() == Ops::RANGE &&
      RangeAxisType(val.src(1)) == AxisType::OUTER) {
    TG_CHECK(sdtype.addrspace() == AddrSpace::GLOBAL) << "outer reduce into a non-global buffer";
    const UOp& outer_range = val.src(1);
    UOp buf = new_buffer();
    // NOTE: the zero range has the same number as the outer range
    std::vector<Arg> zarg = RangeIds(outer_range);
    zarg.emplace_back(AxisType::LOOP);
    UOp zero_range = outer_range.replace_src({UOp::Const(dtypes::index, size)}).replace_arg(Arg::Tuple(zarg));
    UOp zero_store = buf.index(std::vector<UOp>{zero_range}).store(UOp::Const(x.dtype(), 0));
    buf = After(buf, std::vector<UOp>{End(zero_store, std::vector<UOp>{zero_range})});
    UOp bufi = UOp::Make(Ops::INDEX, sdtype, {buf, idx});
    UOp st = UOp::Make(Ops::STORE, dtypes::void_, {bufi, bufi.load() + val.src(0)}, Arg(), x.tag());
    return After(buf, std::vector<UOp>{End(End(st, rngs), std::vector<UOp>{outer_range})});
  }

  if (sdtype.addrspace() == AddrSpace::GLOBAL) {
    UOp buf = new_buffer();
    UOp st = UOp::Make(Ops::STORE, dtypes::void_, {UOp::Make(Ops::INDEX, sdtype, {buf, idx}), val}, Arg(), x.tag());
    return After(buf, std::vector<UOp>{End(st, rngs)});
  }

  if (!allow_locals) return {};
  // handle locals
  UOp buf = UOp::Make(Ops::DEFINE_LOCAL, sdtype, {}, Arg(counter++));
  UOp bidx = UOp::Make(Ops::INDEX, sdtype, {buf.broadcast(x.src(1).dtype().count()), idx});
  UOp st = End(bidx.store(val), rngs);
  return After(buf, std::vector<UOp>{Barrier(st)});
}

const PatternMatcher& PmFlattenBufferize() {
  static const auto* const kRules = new PatternMatcher({
      // collapse any BUFFERIZE to a single-index BUFFERIZE; the tag moves to a reshape
      Rule(UPat(Ops::BUFFERIZE).named("x"), FlattenBufferize),
  });
  return *kRules;
}

const PatternMatcher& ToBufferview() {
  static const auto* const kRules = new PatternMatcher({
      // BITCAST/CONTIGUOUS of a disk buffer is a view of it
      Rule(UPat(Ops::BUFFERIZE).src({UPat(OpSet{Ops::BITCAST, Ops::CONTIGUOUS}).named("t")}).allow_any_len().named("b"),
           LateBufferView),
      // a view of a BITCAST/CONTIGUOUS views its source
      Rule(UPat(Ops::BUFFER_VIEW).src({UPat(OpSet{Ops::BITCAST, Ops::CONTIGUOUS})}).named("b"),
           [](const Match& m) {
             const UOp& b = m["b"];
             return b.replace_src(b.src(0).src());
           }),
  });
  return *kRules;
}

const PatternMatcher& PmAddBuffersLocal() {
  static const auto* const kRules = new PatternMatcher(
      PmMops() + PmFlattenBufferize() + ToBufferview() +
      PatternMatcher({
          // BUFFERIZE(value, flat index) -> buffer + store
          Rule(UPat(Ops::BUFFERIZE).src({UPat(), UPat().named("idx")}).named("x"), AddLocalBuffer),
      }));
  return *kRules;
}

const PatternMatcher& RangeifyCodegen() {
  static const auto* const kRules = new PatternMatcher({
      // CONTIGUOUS is gone in the kernel graph (its opts: ContiguousOpts)
      Rule(UPat(Ops::CONTIGUOUS).named("x"), [](const Match& m) { return m["x"].src(0); }),
      // no NOOP in the kernel graph
      Rule(UPat(Ops::NOOP).named("x"), [](const Match& m) { return m["x"].src(0); }),
      // strip the arg from store
      Rule(UPat(Ops::STORE).named("x"),
           [](const Match& m) {
             const UOp& x = m["x"];
             return x.arg().is_none() ? UOp() : x.replace_arg(Arg());
           }),
      // fix broadcast dtype
      Rule(UPat(Ops::AFTER).named("a").broadcast().named("b"),
           [](const Match& m) { return m["a"].broadcast(static_cast<int>(m["b"].src().size())); }),
      // a value INDEX of a broadcast local buffer is a LOAD
      Rule(UPat(Ops::INDEX).src({UPat(Ops::AFTER).src({UPat(Ops::DEFINE_LOCAL)}).allow_any_len().broadcast().named("dg")})
               .allow_any_len().named("idx"),
           LocalIndexToLoad),
      // GEP of AFTER keeps the AFTER's dtype
      Rule(UPat(Ops::AFTER).named("a").gep().named("b"),
           [](const Match& m) {
             const Arg& lanes = m["b"].arg();
             std::vector<int> l;
             for (const Arg& x : lanes.tuple()) l.push_back(static_cast<int>(x.int64()));
             return m["a"].gep(l);
           }),
      // a value INDEX of a GEP'd local buffer is a LOAD
      Rule(UPat(Ops::INDEX).src({UPat(Ops::AFTER).src({UPat(Ops::DEFINE_LOCAL)}).allow_any_len().gep().named("dg")})
               .allow_any_len().named("idx"),
           LocalIndexToLoad),
  });
  return *kRules;
}

std::optional<Arg> ContiguousOpts(const UOp& root) {
  std::optional<Arg> out;
  for (const UOp& x : root.toposort()) {
    if (x.op() != Ops::CONTIGUOUS || !x.arg().is_tuple()) continue;
    std::span<const Arg> items = x.arg().tuple();
    if (std::all_of(items.begin(), items.end(), IsOptTuple)) out = x.arg();
  }
  return out;
}

}  // namespace tg
