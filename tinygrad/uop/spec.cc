// Port of tinygrad/uop/spec.py: shared_spec, tensor_spec, kernel_spec, program_spec, full_spec,
// type_verify; and tinygrad/uop/validate.py: validate_index.
//
// Rule bodies follow tinygrad's lambdas. Where a lambda would raise in Python (indexing a short
// arg, `len` of a non-tuple, vec() of a vector), type_verify fails; here the rule says invalid.
#include "tinygrad/uop/spec.h"

#include <atomic>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/base/check.h"

namespace tg {
namespace {

constexpr Verdict kValid = Verdict::kValid;
constexpr Verdict kInvalid = Verdict::kInvalid;
constexpr Verdict kNoOpinion = Verdict::kNoOpinion;

Verdict V(bool ok) { return ok ? kValid : kInvalid; }
Verdict Pass(const Match&) { return kValid; }
Verdict Fail(const Match&) { return kInvalid; }

// Python's isinstance(a, int): bools are ints too.
bool IsPyInt(const Arg& a) {
  return a.is_number() && (a.number().is_int() || a.number().is_bool());
}

bool SrcsFrom(const UOp& u, size_t first, bool (*pred)(const UOp&)) {
  for (size_t i = first; i < u.src().size(); ++i)
    if (!pred(u.src(i))) return false;
  return true;
}
bool IsIndexDtype(const UOp& u) { return u.dtype() == dtypes::index; }

// tinygrad's (dtypes.int, dtypes.index) and dtypes.floats.
std::vector<DType> IntOrIndex() { return {dtypes::int32, dtypes::index}; }
std::vector<DType> Floats() {
  return {dtypes::fp8e4m3,  dtypes::fp8e5m2, dtypes::float16,
          dtypes::bfloat16, dtypes::float32, dtypes::float64};
}

// ** tinygrad's UOp._device, for the MSELECT/MSTACK rules **

// A device name (a string), a tuple of them, or none.
using Device = std::optional<Arg>;

// _device of every node of `root`'s graph (a recursive property in tinygrad). Where tinygrad's
// property would raise, the node has no device, so a rule that needs one fails.
absl::flat_hash_map<UOp, Device> Devices(const UOp& root) {
  absl::flat_hash_map<UOp, Device> dev;
  for (const UOp& u : root.toposort()) {
    std::span<const UOp> src = u.src();
    Device d;
    switch (u.op()) {
      case Ops::DEVICE:
        d = u.arg();
        break;
      case Ops::BUFFERIZE:
        break;  // TODO(parity): BUFFERIZE's device is in its BufferizeOpts arg, not ported yet
      case Ops::AFTER:
        if (!src.empty()) d = dev.at(src[0]);
        break;
      case Ops::MSELECT:
        if (!src.empty() && IsPyInt(u.arg())) {
          const Device& s = dev.at(src[0]);
          int64_t n = s && s->is_tuple() ? static_cast<int64_t>(s->size()) : 0;
          i128 i = u.arg().number().to_int();
          if (i < 0) i += n;  // Python indexing
          if (i >= 0 && i < n) d = (*s)[static_cast<size_t>(i)];
        }
        break;
      case Ops::MSTACK: {
        std::vector<Arg> items;
        for (const UOp& x : src) {
          if (!dev.at(x)) break;
          items.push_back(*dev.at(x));
        }
        if (items.size() == src.size()) d = Arg::Tuple(std::move(items));
        break;
      }
      case Ops::COPY:
      case Ops::BUFFER:
      case Ops::ALLREDUCE:
        if (src.size() >= 2) d = dev.at(src[1]);
        break;
      default:
        for (const UOp& x : src) {
          if (const Device& xd = dev.at(x)) {
            d = xd;
            break;
          }
        }
    }
    dev.emplace(u, std::move(d));
  }
  return dev;
}

// ** rule bodies longer than a line **

// type(x.arg) is type(dtypes.as_const(x.arg, x.dtype))
Verdict ConstArgHasDtypeKind(const Match& m) {
  const UOp& x = m["x"];
  const Arg& a = x.arg();
  DType d = x.dtype();
  if (a.is_tuple()) {  // as_const maps a tuple lane by lane and asserts its length
    if (static_cast<int>(a.size()) != d.count()) return kInvalid;
    for (const Arg& lane : a.tuple())
      if (!lane.is_number()) return kInvalid;
    return kValid;
  }
  if (!a.is_number()) return kInvalid;
  const ConstValue& v = a.number();
  if (v.is_invalid()) return kValid;
  // as_const: int() for ints and index, float() for floats, bool() otherwise (pointers too).
  ConstValue::Kind want = ConstValue::Kind::kBool;
  if (!d.is_ptr() && dtypes::is_int(d)) want = ConstValue::Kind::kInt;
  if (!d.is_ptr() && dtypes::is_float(d)) want = ConstValue::Kind::kFloat;
  return V(v.kind() == want);
}

// isinstance(arg[1], int) and isinstance(arg[2], int)
Verdict DefineVarBoundsAreInts(const Match& m) {
  const Arg& a = m["x"].arg();
  return V(a.is_tuple() && a.size() >= 3 && IsPyInt(a[1]) && IsPyInt(a[2]));
}

// rng.dtype == x.dtype, arg = (int..., AxisType) with at least one int
Verdict RangeArg(const Match& m) {
  const UOp& rng = m["rng"];
  const Arg& a = rng.arg();
  if (rng.dtype() != m["x"].dtype() || !a.is_tuple() || a.size() < 2) return kInvalid;
  for (size_t i = 0; i + 1 < a.size(); ++i)
    if (!IsPyInt(a[i])) return kInvalid;
  return V(a[a.size() - 1].is_axis_type());
}

// all sources share the node's base dtype
Verdict AluSrcsMatch(const Match& m) {
  const UOp& x = m["x"];
  for (const UOp& y : x.src())
    if (y.dtype().base() != x.dtype().base()) return kInvalid;
  return kValid;
}

// VECTORIZE: n > 1 sources, each of dtype d, and the node is d.vec(n)
Verdict VectorizeDtype(const Match& m) {
  const UOp& x = m["x"];
  int n = static_cast<int>(x.src().size());
  if (n <= 1 || n != x.dtype().vcount()) return kInvalid;
  for (const UOp& y : x.src()) {
    // vec() of a vector (or of a vector pointer) raises; void.vec(n) is void, never the node's.
    if (y.dtype().vcount() != 1 || y.dtype() == dtypes::void_) return kInvalid;
    if (x.dtype() != y.dtype().vec(n)) return kInvalid;
  }
  return kValid;
}

// prod(y[1] for y in arg), for UNROLL/CONTRACT's ((axis, size), ...); none when arg isn't that.
std::optional<i128> AxisSizeProduct(const Arg& a) {
  if (!a.is_tuple()) return std::nullopt;
  i128 p = 1;
  for (const Arg& y : a.tuple()) {
    if (!y.is_tuple() || y.size() < 2 || !IsPyInt(y[1])) return std::nullopt;
    p *= y[1].number().to_int();
    if (p > (i128{1} << 64) || p < -(i128{1} << 64)) return std::nullopt;  // no dtype count
  }
  return p;
}

Verdict ContractCount(const Match& m) {
  const UOp& x = m["x"];
  std::optional<i128> p = AxisSizeProduct(x.arg());
  return V(p && *p == x.dtype().count());
}

Verdict UnrollCount(const Match& m) {
  const UOp& x = m["x"];
  std::optional<i128> p = AxisSizeProduct(x.arg());
  return V(!x.src().empty() && p && *p == x.src(0).dtype().count());
}

// tinygrad's validate_index(buf, idx[, gate]). An Invalid index is always fine, and so is every
// index under IGNORE_OOB, which is tinygrad's default (1).
// TODO(parity): with IGNORE_OOB=0 tinygrad proves 0 <= idx < buf.ptrdtype.size under the gate
// (vmin/vmax first, then z3). We have no z3 and no IGNORE_OOB setting yet, so bounds are
// never checked.
Verdict ValidateIndex(const Match&) { return kValid; }

// VCONST in a program: arg is a tuple of len == vcount > 1, with no Invalid lane
Verdict ProgramVConst(const Match& m) {
  const UOp& x = m["x"];
  const Arg& a = x.arg();
  if (!a.is_tuple()) return kInvalid;
  for (const Arg& v : a.tuple())
    if (!v.is_number() || v.number().is_invalid()) return kInvalid;
  int n = static_cast<int>(a.size());
  return V(n == x.dtype().vcount() && n > 1 && n == x.dtype().count());
}

// ** the rule sets **

SpecMatcher MakeSharedSpec() {
  return SpecMatcher({
      // NOTE: for testing, we let sinks be anything
      {UPat(Ops::SINK).dtype(dtypes::void_), Pass},

      // CONST/DEFINE_VAR are everywhere
      {UPat(Ops::CONST).src({}).named("x"), ConstArgHasDtypeKind},
      {UPat(Ops::DEFINE_VAR).named("x"), DefineVarBoundsAreInts},

      // ALUs: most ALUs have all matching dtypes, except CMPLT, CMPNE, and WHERE
      // WHERE(bool c, x, y): w, x and y share one dtype
      {UPat(Ops::WHERE)
           .named("w")
           .src({UPat().dtype(dtypes::bool_), UPat::Var("x"), UPat::Var("y")}),
       [](const Match& m) {
         return V(m["w"].dtype() == m["x"].dtype() && m["x"].dtype() == m["y"].dtype());
       }},
      // bool comparisons of two same-dtype sources
      {UPat(OpSet{Ops::CMPLT, Ops::CMPNE, Ops::CMPEQ})
           .dtype(dtypes::bool_)
           .src({UPat::Var("x"), UPat::Var("y")}),
       [](const Match& m) { return V(m["x"].dtype().base() == m["y"].dtype().base()); }},
      // and SHL/SHR, the shift distance can be an int
      {UPat(OpSet{Ops::SHL, Ops::SHR}).named("a").src({UPat::Var("x"), UPat::Var("y")}),
       [](const Match& m) {
         DType x = m["x"].dtype(), y = m["y"].dtype();
         return V(m["a"].dtype() == x && (y == x || y == dtypes::uint32));
       }},
      // IDIV/MOD only on ints (then the ALU rule decides)
      {UPat(OpSet{Ops::IDIV, Ops::MOD}).named("x"),
       [](const Match& m) {
         DType d = m["x"].dtype();
         return !d.is_ptr() && dtypes::is_int(d) ? kNoOpinion : kInvalid;
       }},
      {UPat(GroupOp::ALU).named("x"), AluSrcsMatch},

      // CAST
      {UPat(OpSet{Ops::BITCAST, Ops::CAST}).src({UPat()}).named("x"),
       [](const Match& m) { return V(m["x"].arg().is_none()); }},

      // RANGE can be in the big graph now
      {UPat(Ops::RANGE).src({UPat::Var("x")}).allow_any_len().named("rng"), RangeArg},
      // INDEX by index-dtype sources, or no opinion
      {UPat(Ops::INDEX).src({UPat()}).allow_any_len().named("x"),
       [](const Match& m) { return SrcsFrom(m["x"], 1, IsIndexDtype) ? kValid : kNoOpinion; }},

      // RANGE/SPECIAL define loops, END closes them
      {UPat(Ops::END).src({UPat(), UPat(Ops::RANGE)}), Pass},
  });
}

SpecMatcher MakeMovementOps() {
  const UPat idx = UPat().dtype(dtypes::index);
  return SpecMatcher({
      {UPat(OpSet{Ops::RESHAPE, Ops::EXPAND}).src({UPat::Var("x"), idx}), Pass},
      {UPat(OpSet{Ops::PAD, Ops::SHRINK}).src({UPat::Var("x"), idx, idx}), Pass},
      {UPat(OpSet{Ops::PERMUTE, Ops::FLIP}).named("mv").src({UPat::Var("x")}),
       [](const Match& m) { return V(m["mv"].arg().is_tuple()); }},

      // inputs to movement ops
      {UPat(OpSet{Ops::VECTORIZE, Ops::VCONST}).dtype(dtypes::index), Pass},
      {UPat(OpSet{Ops::ADD, Ops::MUL, Ops::IDIV}).dtype(dtypes::index), Pass},

      // AFTER on Movement Op
      {UPat(Ops::AFTER)
           .src({UPat(GroupOp::Movement | OpSet{Ops::MULTI, Ops::CONTIGUOUS})})
           .allow_any_len(),
       Pass},

      // custom kernels allowed here
      {UPat(Ops::CUSTOM_KERNEL), Pass},
  });
}

// tinygrad's _tensor_spec (tensor_spec without the tag rule).
SpecMatcher MakeTensorSpecRules() {
  return SpecMatcher({
      // buffer spec
      {UPat(Ops::UNIQUE).dtype(dtypes::void_).src({}), Pass},
      {UPat(Ops::LUNIQUE).dtype(dtypes::void_).src({}), Pass},
      {UPat(Ops::DEVICE).dtype(dtypes::void_).src({}).named("d"),
       [](const Match& m) {
         const Arg& a = m["d"].arg();
         if (a.is_string()) return kValid;
         if (!a.is_tuple()) return kInvalid;
         for (const Arg& s : a.tuple())
           if (!s.is_string()) return kInvalid;
         return kValid;
       }},
      // TODO(parity): tinygrad also accepts an ImageDType buffer; we have no image dtypes.
      {UPat(Ops::BUFFER)
           .src({UPat(OpSet{Ops::LUNIQUE, Ops::UNIQUE}), UPat(Ops::DEVICE)})
           .allow_any_len()
           .named("buf"),
       [](const Match& m) { return V(IsPyInt(m["buf"].arg())); }},
      // (offset, size)
      // TODO(parity): tinygrad allows symbolic (UOp) entries; our Arg can't hold a UOp.
      {UPat(Ops::BUFFER_VIEW).src({UPat(Ops::BUFFER)}).named("buf_view"),
       [](const Match& m) {
         const Arg& a = m["buf_view"].arg();
         return V(a.is_tuple() && a.size() == 2 && IsPyInt(a[0]) && IsPyInt(a[1]));
       }},
      {UPat(Ops::BUFFER_VIEW).src({UPat(Ops::MSTACK).src_repeat(UPat(Ops::BUFFER))}), Pass},

      // KERNEL can attach to an AFTER to describe the compute required to realize a BUFFER
      {UPat(Ops::KERNEL)
           .src_repeat(UPat(OpSet{Ops::BUFFER, Ops::BUFFER_VIEW, Ops::AFTER, Ops::MSELECT,
                                  Ops::MSTACK, Ops::BIND, Ops::CONTIGUOUS})),
       Pass},

      // ASSIGN has a target and a value. It can also optionally depend on other assigns
      {UPat(Ops::ASSIGN).named("x"),
       [](const Match& m) {
         const UOp& x = m["x"];
         return V(x.src().size() >= 2 &&
                  SrcsFrom(x, 2, [](const UOp& s) { return s.op() == Ops::ASSIGN; }));
       }},

      // MSELECT chooses one of the multi buffers
      {UPat(Ops::MSELECT).named("x"),
       [](const Match& m) {
         const UOp& x = m["x"];
         if (x.src().empty() || !IsPyInt(x.arg())) return kInvalid;
         Device d = Devices(x.src(0)).at(x.src(0));
         return V(d && d->is_tuple() && x.arg().number().to_int() < static_cast<i128>(d->size()));
       }},

      // MSTACK combines buffers into multi
      {UPat(Ops::MSTACK).named("x"),
       [](const Match& m) {
         const UOp& x = m["x"];
         absl::flat_hash_map<UOp, Device> dev = Devices(x);
         for (const UOp& s : x.src())
           if (!dev.at(s) || !dev.at(s)->is_string()) return kInvalid;
         return kValid;
       }},

      // Tensor variable bindings
      {UPat(Ops::BIND)
           .dtype(IntOrIndex())
           .src({UPat(Ops::DEFINE_VAR), UPat::CVar("", IntOrIndex())}),
       Pass},
      // single-src BIND used for schedule cache key normalization
      {UPat(Ops::BIND).dtype(IntOrIndex()).src({UPat(Ops::DEFINE_VAR)}), Pass},

      // device or unique
      {UPat(Ops::CONST).src({UPat(Ops::DEVICE)}), Pass},
      {UPat(Ops::CONST).src({UPat(Ops::DEVICE), UPat(OpSet{Ops::LUNIQUE, Ops::UNIQUE})}), Pass},

      // DETACH and CONTIGUOUS change how we interpret the source UOp
      // CONTIGUOUS ensures the source UOp realizes
      {UPat(OpSet{Ops::DETACH, Ops::CONTIGUOUS, Ops::CONTIGUOUS_BACKWARD})
           .named("root")
           .src({UPat::Var("x")}),
       [](const Match& m) { return V(m["root"].dtype() == m["x"].dtype()); }},

      // CONTIGUOUS with a range
      {UPat(Ops::CONTIGUOUS).named("root").src({UPat::Var("x")}).allow_any_len(),
       [](const Match& m) {
         const UOp& root = m["root"];
         return V(root.dtype() == m["x"].dtype() &&
                  SrcsFrom(root, 1, [](const UOp& s) { return s.op() == Ops::RANGE; }));
       }},

      // COPY/ALLREDUCE/MULTI/ENCDEC
      {UPat(Ops::COPY).named("copy").src({UPat::Var("x"), UPat(Ops::DEVICE)}),
       [](const Match& m) { return V(m["copy"].dtype() == m["x"].dtype()); }},
      {UPat(Ops::ALLREDUCE).named("red").src({UPat::Var("x"), UPat(Ops::DEVICE)}),
       [](const Match& m) {
         return V(m["red"].dtype() == m["x"].dtype() && m["red"].arg().is_ops());
       }},
      {UPat(Ops::MULTI).named("multi"),
       [](const Match& m) {
         const UOp& multi = m["multi"];
         for (const UOp& x : multi.src())
           if (x.dtype() != multi.dtype()) return kInvalid;
         return V(IsPyInt(multi.arg()));
       }},
      // state + inbuffer
      {UPat(Ops::ENCDEC).named("x"), [](const Match& m) { return V(m["x"].src().size() >= 2); }},

      // REDUCE_AXIS is the reduce in the tensor graph: arg (op, axes...)
      {UPat(Ops::REDUCE_AXIS).named("x"),
       [](const Match& m) {
         const Arg& a = m["x"].arg();
         if (!a.is_tuple() || a.size() < 2 || !a[0].is_ops()) return kInvalid;
         Ops op = a[0].ops();
         return V(op == Ops::ADD || op == Ops::MUL || op == Ops::MAX);
       }},

      // REDUCE with an outerworld range
      {UPat(Ops::REDUCE).src({UPat()}).allow_any_len().named("x"),
       [](const Match& m) { return V(SrcsFrom(m["x"], 1, IsIndexDtype)); }},

      // AFTER if things were kernelized
      {UPat(Ops::AFTER).src({UPat(OpSet{Ops::BUFFER, Ops::AFTER})}).allow_any_len(), Pass},

      // Tensor range bind / store
      {UPat(Ops::BIND).dtype(IntOrIndex()).src({UPat(Ops::DEFINE_VAR), UPat(Ops::RANGE)}), Pass},
      {UPat(Ops::STORE).src({UPat(), UPat()}), Pass},
  });
}

SpecMatcher MakeSharedCodegenSpec() {
  const OpSet defines_or_after = GroupOp::Defines | OpSet{Ops::AFTER};
  return SpecMatcher({
      // DEFINEs
      // TODO(parity): tinygrad also accepts an ImageDType global; we have no image dtypes.
      {UPat(Ops::DEFINE_GLOBAL).named("x"),
       [](const Match& m) {
         DType d = m["x"].dtype();
         return V(d.is_ptr() && d.addrspace() == AddrSpace::GLOBAL);
       }},
      {UPat(Ops::DEFINE_LOCAL).named("x"),
       [](const Match& m) {
         DType d = m["x"].dtype();
         return V(d.is_ptr() && d.addrspace() == AddrSpace::LOCAL);
       }},
      {UPat(Ops::DEFINE_REG).src({}).named("x"),
       [](const Match& m) { return V(IsPyInt(m["x"].arg())); }},

      // allow AFTER on buffers, GROUP anywhere
      {UPat(Ops::AFTER).src({UPat(defines_or_after)}).allow_any_len(), Pass},
      {UPat(Ops::GROUP).dtype(dtypes::void_), Pass},

      // WMMA has a <a, b, acc>
      // TODO(parity): only the arg's length is checked, as tinygrad does; its fields (dtypes,
      // upcast axes) are not representable in our Arg yet.
      {UPat(Ops::WMMA).src({UPat(), UPat(), UPat()}).named("x"),
       [](const Match& m) { return V(m["x"].arg().is_tuple() && m["x"].arg().size() == 8); }},

      // VECTORIZE/GEP
      {UPat(Ops::VECTORIZE).named("x"), VectorizeDtype},
      {UPat(Ops::GEP).src({UPat::Var("src")}).named("gep"),
       [](const Match& m) { return V(m["gep"].dtype() == m["src"].dtype().scalar()); }},

      // LOAD(idx) / STORE(idx, val) / LOAD with alt value only exists in program_spec
      {UPat().index(UPat()).or_casted().load(), Pass},
      {UPat(Ops::INDEX).or_casted().store({UPat()}), Pass},

      // CUSTOM (inline and non inline)
      {UPat(OpSet{Ops::CUSTOMI, Ops::CUSTOM}), Pass},

      // INDEX
      {UPat(defines_or_after).named("buf").index(UPat::Var("idx")), ValidateIndex},

      // SPECIAL
      {UPat(Ops::SPECIAL).src({UPat::Var("x", {dtypes::index, dtypes::int32})}).named("s"),
       [](const Match& m) {
         return V(m["s"].dtype() == m["x"].dtype() && m["s"].arg().is_string());
       }},

      // BARRIER (on any length)
      {UPat(Ops::BARRIER).dtype(dtypes::void_), Pass},
  });
}

SpecMatcher MakeKernelSpecRules() {
  return SpecMatcher({
      // index is allowed here
      {UPat(GroupOp::Elementwise | OpSet{Ops::CONST, Ops::RANGE, Ops::DEFINE_VAR})
           .dtype(dtypes::index),
       Pass},

      // UNROLL/CONTRACT is used here for WMMA
      {UPat(Ops::CONTRACT).named("x"), ContractCount},
      {UPat(Ops::UNROLL).named("x"), UnrollCount},

      // END can end multiple axes here
      {UPat(Ops::END).src({UPat(), UPat()}).allow_any_len(), Pass},

      // bufferize can be on anything
      {UPat(Ops::BUFFERIZE).src({UPat()}).allow_any_len(), Pass},

      // reduce must be on ranges
      {UPat(Ops::REDUCE).src({UPat()}).allow_any_len().named("x"),
       [](const Match& m) { return V(SrcsFrom(m["x"], 1, IsIndexDtype)); }},
  });
}

SpecMatcher MakeProgramSpecRules() {
  const OpSet defines_or_after = GroupOp::Defines | OpSet{Ops::AFTER};
  return SpecMatcher({
      // INDEX with a gate as third src
      {UPat(Ops::INDEX)
           .src({UPat(defines_or_after).named("buf"), UPat::Var("idx"),
                 UPat::Var("gate", {dtypes::bool_})}),
       ValidateIndex},

      // LOAD (idx, alt_value), LOAD can have an alt value, but only if the index has a gate
      {UPat().index(UPat(), UPat().dtype(dtypes::bool_)).or_casted().load({UPat()}), Pass},

      // END closes ranges
      {UPat(Ops::END).src({UPat(), UPat(Ops::RANGE)}).dtype(dtypes::void_), Pass},

      // make sure all index dtypes have been lowered
      {UPat(GroupOp::All).dtype(dtypes::index), Fail},
      {UPat(Ops::CONST).arg(ConstValue::Invalid()), Fail},
      {UPat(Ops::VCONST).named("x"), ProgramVConst},

      // if has a <gate, index_for_dedup>
      {UPat(Ops::IF)
           .dtype(dtypes::void_)
           .src({UPat().dtype(dtypes::bool_), UPat(OpSet{Ops::CAST, Ops::INDEX})}),
       Pass},
      {UPat(Ops::ENDIF).dtype(dtypes::void_).src({UPat(Ops::IF)}), Pass},
  });
}

SpecMatcher MakeFullSpecRules() {
  const UPat program = UPat(Ops::PROGRAM).dtype(dtypes::void_);
  return SpecMatcher({
      // NOOP in the full spec
      {UPat(Ops::NOOP), Pass},

      // all rewrite error are okay
      {UPat(Ops::REWRITE_ERROR), Pass},

      // rangeify: buffer view with index or load is okay
      {UPat(Ops::BUFFER_VIEW).src({UPat(OpSet{Ops::INDEX, Ops::LOAD})}), Pass},
      // assign on index. the third op is the shape
      {UPat(Ops::ASSIGN).src({UPat(), UPat(), UPat()}), Pass},

      // expander: unroll/contract/gep/ptrcat/cat
      {UPat(OpSet{Ops::UNROLL, Ops::CONTRACT}).src({UPat()}), Pass},
      // GEP multi is supported here
      {UPat(Ops::GEP).named("gep"),
       [](const Match& m) {
         const UOp& gep = m["gep"];
         if (gep.dtype() == dtypes::void_) return kValid;
         return V(gep.arg().is_tuple() &&
                  static_cast<int>(gep.arg().size()) == gep.dtype().vcount());
       }},
      // PTRCAT is like VECTORIZE, but it functions on ptrs
      {UPat(Ops::PTRCAT).named("x"),
       [](const Match& m) {
         int sum = 0;
         for (const UOp& y : m["x"].src()) sum += y.dtype().base().count();
         return V(m["x"].dtype().vcount() == sum);
       }},
      // CAT is like VECTORIZE, but the srcs can be vectors
      {UPat(Ops::CAT).named("x"),
       [](const Match& m) {
         int sum = 0;
         for (const UOp& y : m["x"].src()) sum += y.dtype().vcount();
         return V(m["x"].dtype().vcount() == sum);
       }},
      // vectorized index
      {UPat(Ops::INDEX).src({UPat(OpSet{Ops::VECTORIZE, Ops::CAST}), UPat()}), Pass},

      // linearizer: outputs + intermediate KERNELs
      {UPat(Ops::KERNEL).dtype(dtypes::void_), Pass},

      // Invalid must have type Index
      {UPat(Ops::CONST).arg(ConstValue::Invalid()).named("x"),
       [](const Match& m) { return V(m["x"].dtype().scalar() == dtypes::index); }},
      // where on index in rhs position is fine
      {UPat(Ops::WHERE)
           .dtype(dtypes::index)
           .src({UPat().dtype(dtypes::bool_), UPat(), UPat().dtype(dtypes::index)}),
       Pass},
      // allow index dtype on a restricted set of UOps
      {UPat(OpSet{Ops::ADD, Ops::MUL, Ops::MOD, Ops::IDIV, Ops::MAX, Ops::SPECIAL, Ops::CAST,
                  Ops::RANGE, Ops::VCONST, Ops::VECTORIZE})
           .dtype(dtypes::index),
       Pass},

      // while BIND is being casted
      {UPat(Ops::BIND).dtype(IntOrIndex()).src({UPat(), UPat()}), Pass},

      // in progress MSTACK may lose device
      {UPat(OpSet{Ops::MSELECT, Ops::MSTACK}), Pass},

      // codegen: PROGRAM with progressive sources through the pipeline (SINK, DEVICE, LINEAR?,
      // SOURCE?, BINARY?)
      {program.src({UPat(Ops::SINK), UPat(Ops::DEVICE)}), Pass},
      {program.src({UPat(Ops::SINK), UPat(Ops::DEVICE), UPat(Ops::LINEAR)}), Pass},
      {program.src({UPat(Ops::SINK), UPat(Ops::DEVICE), UPat(Ops::LINEAR), UPat(Ops::SOURCE)}),
       Pass},
      {program.src({UPat(Ops::SINK), UPat(Ops::DEVICE), UPat(Ops::LINEAR), UPat(Ops::SOURCE),
                    UPat(Ops::BINARY)}),
       Pass},
      // codegen: standalone LINEAR/SOURCE/BINARY
      {UPat(Ops::LINEAR).dtype(dtypes::void_), Pass},
      {UPat(Ops::SOURCE).dtype(dtypes::void_).src({}), Pass},
      {UPat(Ops::BINARY).dtype(dtypes::void_).src({}), Pass},

      // temp VECTORIZE/INDEX during rewrite have the wrong dtype
      {UPat(Ops::VECTORIZE), Pass},
      {UPat(Ops::INDEX), Pass},

      // all loads/stores
      {UPat(OpSet{Ops::LOAD, Ops::STORE}), Pass},
      // DEFINE_VAR to deal with the floats used in reduce collapse
      {UPat(Ops::DEFINE_VAR).dtype(Floats()), Pass},
      // allow any AFTER
      {UPat(Ops::AFTER).src({UPat()}).allow_any_len(), Pass},
  });
}

// tinygrad's _tensor_spec: the tensor rules, movement ops and shared rules.
const SpecMatcher& TensorSpecNoTagRule() {
  static const auto* const kSpec =
      new SpecMatcher(MakeTensorSpecRules() + MakeMovementOps() + SharedSpec());
  return *kSpec;
}

std::atomic<int> g_spec_check_level{0};

std::string Truncated(const std::string& s, size_t max_lines, size_t max_chars) {
  size_t lines = 0, end = 0;
  while (end < s.size() && end < max_chars) {
    if (s[end] == '\n' && ++lines == max_lines) break;
    ++end;
  }
  if (end >= s.size()) return s;
  size_t more = 1;
  for (size_t i = end; i < s.size(); ++i) more += s[i] == '\n';
  return s.substr(0, end) + "\n  ... (" + std::to_string(s.size() - end) + " more chars, " +
         std::to_string(more) + " lines)";
}

std::string DescribeViolation(const SpecViolation& v, SpecKind kind, size_t num_nodes) {
  constexpr size_t kMaxSrcs = 8;
  const UOp& u = v.node;
  std::ostringstream os;
  os << SpecName(kind) << ": UOp verification failed at " << v.index << " of " << num_nodes
     << " on " << u.op() << " " << u.dtype() << " arg=" << u.arg();
  if (!u.tag().is_none()) os << " tag=" << u.tag();
  os << ", " << u.src().size() << " srcs [";
  for (size_t i = 0; i < u.src().size() && i < kMaxSrcs; ++i) {
    const UOp& s = u.src(i);
    os << (i ? ", " : "") << "(" << s.op() << ", " << s.dtype() << ", " << s.arg() << ")";
  }
  if (u.src().size() > kMaxSrcs) os << ", ...";
  os << "]: ";
  if (v.rule != nullptr) {
    os << "rule at " << v.rule->location() << " " << v.rule->pat.repr() << " says invalid";
  } else {
    os << "no rule matches it";
  }
  os << "\n" << Truncated(PrettyPrint(u), 24, 2000);
  return os.str();
}

}  // namespace

// ** SpecRule / SpecMatcher **

SpecRule::SpecRule(UPat pattern, SpecCheckFn fn, std::source_location loc)
    : pat(std::move(pattern)), check(fn), where(loc) {
  TG_CHECK(check != nullptr) << "spec rule at " << location() << " has no check";
  TG_CHECK(!pat.ops().empty()) << "spec rule at " << location() << " must fix its root op";
}

std::string SpecRule::location() const {
  std::string_view file = where.file_name();
  size_t slash = file.find_last_of('/');
  if (slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return std::string(file) + ":" + std::to_string(where.line());
}

SpecMatcher::SpecMatcher(std::vector<SpecRule> rules) : rules_(std::move(rules)) {
  for (uint32_t i = 0; i < rules_.size(); ++i)
    rules_[i].pat.ops().ForEach([&](Ops op) { by_op_[static_cast<int>(op)].push_back(i); });
}

SpecMatcher SpecMatcher::operator+(const SpecMatcher& more) const {
  std::vector<SpecRule> all = rules_;
  all.insert(all.end(), more.rules_.begin(), more.rules_.end());
  return SpecMatcher(std::move(all));
}

Verdict SpecMatcher::Check(const UOp& u, const SpecRule** decided) const {
  if (decided != nullptr) *decided = nullptr;
  const OpSet child_ops = u.src_ops();
  for (uint32_t i : by_op_[static_cast<int>(u.op())]) {
    const SpecRule& rule = rules_[i];
    if (!rule.pat.early_reject().IsSubsetOf(child_ops)) continue;
    Verdict v = kNoOpinion;
    Match m(RewriteCtx(), rule.where);
    rule.pat.Match(u, m, [&] {
      v = rule.check(m);
      return v != kNoOpinion;
    });
    if (v != kNoOpinion) {
      if (decided != nullptr) *decided = &rule;
      return v;
    }
  }
  return kInvalid;
}

// ** the public rule sets: tinygrad composes them with +, so earlier sets take priority **

const SpecMatcher& SharedSpec() {
  static const auto* const kSpec = new SpecMatcher(MakeSharedSpec());
  return *kSpec;
}

const SpecMatcher& TensorSpec() {
  static const auto* const kSpec = new SpecMatcher(
      SpecMatcher({
          // no tags allowed in tensor graph
          {UPat(GroupOp::All).named("x"),
           [](const Match& m) { return m["x"].tag().is_none() ? kNoOpinion : kInvalid; }},
      }) +
      TensorSpecNoTagRule());
  return *kSpec;
}

const SpecMatcher& KernelSpec() {
  static const auto* const kSpec = new SpecMatcher(MakeKernelSpecRules() + MakeMovementOps() +
                                                   MakeSharedCodegenSpec() + SharedSpec());
  return *kSpec;
}

const SpecMatcher& ProgramSpecRules() {
  static const auto* const kSpec =
      new SpecMatcher(MakeProgramSpecRules() + MakeSharedCodegenSpec() + SharedSpec());
  return *kSpec;
}

const SpecMatcher& FullSpec() {
  static const auto* const kSpec = new SpecMatcher(MakeFullSpecRules() + TensorSpecNoTagRule() +
                                                   KernelSpec() + ProgramSpecRules() + SharedSpec());
  return *kSpec;
}

std::string_view SpecName(SpecKind kind) {
  switch (kind) {
    case SpecKind::kShared:
      return "shared_spec";
    case SpecKind::kTensor:
      return "tensor_spec";
    case SpecKind::kKernel:
      return "kernel_spec";
    case SpecKind::kProgram:
      return "program_spec";
    case SpecKind::kFull:
      return "full_spec";
  }
  return "?";
}

const SpecMatcher& GetSpec(SpecKind kind) {
  switch (kind) {
    case SpecKind::kShared:
      return SharedSpec();
    case SpecKind::kTensor:
      return TensorSpec();
    case SpecKind::kKernel:
      return KernelSpec();
    case SpecKind::kProgram:
      return ProgramSpecRules();
    case SpecKind::kFull:
      return FullSpec();
  }
  TG_CHECK(false) << "bad SpecKind " << static_cast<int>(kind);
  return FullSpec();
}

// ** type_verify **

std::optional<SpecViolation> FindSpecViolation(std::span<const UOp> nodes, SpecKind kind) {
  const SpecMatcher& spec = GetSpec(kind);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const SpecRule* rule = nullptr;
    if (spec.Check(nodes[i], &rule) != kValid) return SpecViolation{i, nodes[i], rule};
  }
  return std::nullopt;
}

absl::Status VerifySpec(std::span<const UOp> nodes, SpecKind kind) {
  std::optional<SpecViolation> v = FindSpecViolation(nodes, kind);
  if (!v) return absl::OkStatus();
  return absl::InvalidArgumentError(DescribeViolation(*v, kind, nodes.size()));
}

absl::Status VerifySpec(const UOp& sink, SpecKind kind) {
  std::vector<UOp> order = sink.toposort();
  return VerifySpec(std::span<const UOp>(order), kind);
}

void SetSpecCheckLevel(int level) { g_spec_check_level.store(level, std::memory_order_relaxed); }
int SpecCheckLevel() { return g_spec_check_level.load(std::memory_order_relaxed); }

}  // namespace tg
