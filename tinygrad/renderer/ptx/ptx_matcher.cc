// File: tinygrad/renderer/ptx/ptx_matcher.cc
// Port of tinygrad/renderer/ptx.py: ptx_matcher, PTXRenderer's extra_matcher, which shapes the
// graph into what the PTX string rules can spell before linearizing.
#include <vector>

#include "tinygrad/renderer/ptx/ptx.h"
#include "tinygrad/uop/upat.h"

namespace tg {
namespace {

// The asm_for_op ops PTX has no f16 form of (all but the reference's supports_half: EXP2, ADD,
// MUL, MAX, CMPLT, WHERE, TRUNC).
constexpr OpSet kDoesntSupportHalf{Ops::RECIPROCAL, Ops::LOG2,  Ops::SIN,   Ops::SQRT,  Ops::SHR,
                                   Ops::SHL,        Ops::XOR,   Ops::AND,   Ops::OR,    Ops::IDIV,
                                   Ops::MOD,        Ops::CMPEQ, Ops::CMPNE, Ops::MULACC};

// op(half...) -> cast(op(float(src)...), half)
UOp UpcastHalf(const Match& m) {
  const UOp& x = m["x"];
  std::vector<UOp> srcs;
  for (const UOp& s : x.src()) srcs.push_back(s.cast(dtypes::float32));
  return UOp::Make(x.op(), dtypes::float32, srcs, x.arg()).cast(dtypes::float16);
}

// LOAD(addr[, alt, ...]) of bool -> LOAD(addr[, uint8(alt), ...]) of uint8, cast to bool
UOp LoadBoolAsUint8(const Match& m) {
  const UOp& x = m["x"];
  std::vector<UOp> srcs(x.src().begin(), x.src().end());
  if (srcs.size() >= 2) srcs[1] = srcs[1].cast(dtypes::uint8);
  return UOp::Make(x.op(), dtypes::uint8, srcs).cast(dtypes::bool_);
}

// STORE(addr, bool, ...) -> STORE(addr, uint8(bool), ...)
UOp StoreBoolAsUint8(const Match& m) {
  const UOp& x = m["x"];
  std::vector<UOp> srcs(x.src().begin(), x.src().end());
  srcs[1] = srcs[1].cast(dtypes::uint8);
  return UOp::Make(Ops::STORE, dtypes::void_, srcs);
}

// INDEX(buf, idx, ...) -> INDEX(buf, int64(buf) + int64(idx) * itemsize, ...) of int64
UOp IndexAsByteAddress(const Match& m) {
  const UOp &buf = m["buf"], &idx = m["idx"], &op = m["op"];
  if (op.dtype() == dtypes::int64 || buf.dtype().addrspace() == AddrSpace::REG) return {};
  std::vector<UOp> srcs{
      buf, buf.cast(dtypes::int64) + idx.cast(dtypes::int64) * ConstValue(buf.dtype().itemsize())};
  srcs.insert(srcs.end(), op.src().begin() + 2, op.src().end());
  return UOp::Make(Ops::INDEX, dtypes::int64, srcs);
}

// x << y, x >> y with y not uint32 -> the same with uint32(y)
UOp ShiftByUint(const Match& m) {
  const UOp &x = m["x"], &y = m["y"], &s = m["s"];
  if (y.dtype() == dtypes::uint32) return {};
  return UOp::Make(s.op(), x.dtype(), {x, y.cast(dtypes::uint32)});
}

}  // namespace

const PatternMatcher& PtxExtraMatcher() {
  static const auto* const kRules = [] {
    const UPat x_bool = UPat::Var("x", {dtypes::bool_}), y = UPat::Var("y");
    return new PatternMatcher({
        // bool CMPNE is XOR, bool CMPLT is XOR+AND (universal makes this slow, this is for renderer
        // only)
        // x != y -> x ^ y
        Rule(x_bool.ne(y), [](const Match& m) { return m["x"] ^ m["y"]; }),
        // x == y -> (x ^ y) ^ True
        Rule(x_bool.alu(Ops::CMPEQ, {y}),
             [](const Match& m) { return (m["x"] ^ m["y"]) ^ ConstValue(true); }),
        // x < y -> (x ^ True) & y
        Rule(x_bool.lt(y), [](const Match& m) { return (m["x"] ^ ConstValue(true)) & m["y"]; }),
        // upcast to float32 all the ops that don't support half
        Rule(UPat(kDoesntSupportHalf).dtype(dtypes::float16).named("x"), UpcastHalf),
        // load/store bool -> uint8
        Rule(UPat(Ops::LOAD)
                 .dtype(dtypes::bool_)
                 .src({UPat().dtype(dtypes::int64)})
                 .allow_any_len()
                 .named("x"),
             LoadBoolAsUint8),
        Rule(UPat(Ops::STORE)
                 .src({UPat().dtype(dtypes::int64), UPat().dtype(dtypes::bool_)})
                 .allow_any_len()
                 .named("x"),
             StoreBoolAsUint8),
        // indexing on PTX is in uint64, we do the math while it's still in the graph
        Rule(UPat(Ops::INDEX).src({UPat::Var("buf"), UPat::Var("idx")}).allow_any_len().named("op"),
             IndexAsByteAddress),
        // load/store use pointer arithmetic, and the cast does nothing
        Rule(UPat(Ops::CAST).named("x"),
             [](const Match& m) {
               const UOp& x = m["x"];
               return x.dtype().is_ptr() || x.src(0).dtype() == dtypes::void_ ? x.src(0) : UOp();
             }),
        // ptx shr and shl instructions require y to be uint
        Rule((UPat::Var("x") << UPat::Var("y")).named("s"), ShiftByUint),
        Rule((UPat::Var("x") >> UPat::Var("y")).named("s"), ShiftByUint),
    });
  }();
  return *kRules;
}

}  // namespace tg
