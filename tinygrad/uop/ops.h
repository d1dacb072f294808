// File: tinygrad/uop/ops.h
// Port of tinygrad/uop/__init__.py: the Ops enum and the GroupOp sets.
//
// IR semantics, in one place (they hold for every pass and every backend):
// - Integer ALU results wrap to the dtype (two's complement); IDIV truncates toward zero and
//   MOD takes the sign of the dividend (C semantics, tinygrad's cdiv/cmod). Division by zero
//   is never folded at compile time.
// - `a - b` is built as `a + b*-1` and `a / b` as `a * RECIPROCAL(b)`; SUB, FDIV and NEG appear
//   only after late decompositions.
// - Comparisons produce bool (or bool.vec(n)); WHERE(c, t, f) picks lanes.
// - Floats follow IEEE-754 without fast-math: NaN compares unequal to itself, x*0 is not 0.
// - The index dtype is the unbounded integer type of index math; it is lowered to int32/int64
//   before rendering.
//
// The order of the X-macro is tinygrad's declaration order: it is the toposort tie-break of the
// linearizer, so never reorder it.
#ifndef TINYGRAD_UOP_OPS_H_
#define TINYGRAD_UOP_OPS_H_

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string_view>

namespace tg {

// X(name): one line per op, grouped as tinygrad groups them.
#define TG_FOR_EACH_OP(X)                                                                     \
  /* 1 defines/special: DEFINE_GLOBAL/VAR point outside the kernel */                          \
  X(DEFINE_GLOBAL) X(DEFINE_VAR) X(BIND)                                                      \
  X(SPECIAL) /* a GPU dimension: arg "gidx0", src[0] its size */                               \
  X(DEFINE_LOCAL) X(DEFINE_REG) /* allocate memory */                                          \
  /* 2 non-op uops */                                                                          \
  X(NOOP) X(REWRITE_ERROR)                                                                     \
  X(PROGRAM) X(LINEAR) X(SOURCE) X(BINARY) /* renderer results */                              \
  X(SINK) X(AFTER) X(GROUP) /* AFTER: src[0] ordered after src[1:]; GROUP merges */            \
  X(GEP) X(VECTORIZE)       /* vector item selection / creation */                             \
  /* 3 load/store */                                                                           \
  X(INDEX) /* pointer arithmetic: (buf, idx[, gate]) */                                        \
  X(LOAD) X(STORE)                                                                             \
  /* 4 math */                                                                                 \
  X(WMMA) /* tensor core */                                                                    \
  X(CAST) X(BITCAST) X(EXP2) X(LOG2) X(SIN) X(SQRT) X(RECIPROCAL) X(NEG) X(TRUNC)              \
  X(ADD) X(MUL) X(SHL) X(SHR) X(IDIV) X(MAX) X(MOD) X(CMPLT) X(CMPNE) X(CMPEQ)                 \
  X(XOR) X(OR) X(AND) X(THREEFRY) X(SUB) X(FDIV) X(POW)                                        \
  X(WHERE) X(MULACC)                                                                           \
  /* 5 control flow, consts, custom code */                                                   \
  X(BARRIER) X(RANGE) X(IF) X(END) X(ENDIF)                                                    \
  X(VCONST) X(CONST)  /* VCONST: a vector const, arg is a tuple */                             \
  X(CUSTOM) X(CUSTOMI) /* strings emitted into code; CUSTOMI is inline */                      \
  /* 6 ops that exist only in the tensor graph */                                              \
  X(UNIQUE) X(DEVICE) X(KERNEL) X(ASSIGN) X(CUSTOM_KERNEL)                                     \
  X(LUNIQUE) /* local unique, for schedule-cache normalization */                              \
  X(CONTIGUOUS) X(CONTIGUOUS_BACKWARD) X(DETACH)                                               \
  X(BUFFERIZE) X(COPY) X(BUFFER) X(BUFFER_VIEW) X(MSELECT) X(MSTACK) X(ENCDEC)                 \
  X(RESHAPE) X(PERMUTE) X(EXPAND) X(PAD) X(SHRINK) X(FLIP) /* the movement ops */              \
  X(MULTI)                                                                                     \
  X(REDUCE_AXIS) X(REDUCE) X(ALLREDUCE)                                                        \
  /* expander ops */                                                                           \
  X(UNROLL) X(CONTRACT) X(CAT) X(PTRCAT)

enum class Ops : uint8_t {
#define TG_OP_ENUM(name) name,
  TG_FOR_EACH_OP(TG_OP_ENUM)
#undef TG_OP_ENUM
};

#define TG_OP_COUNT(name) +1
inline constexpr int kNumOps = 0 TG_FOR_EACH_OP(TG_OP_COUNT);
#undef TG_OP_COUNT
static_assert(kNumOps <= 128, "OpSet holds 128 ops");

// "ADD" for Ops::ADD.
std::string_view OpName(Ops op);
// tinygrad's str(op): "Ops.ADD".
std::ostream& operator<<(std::ostream& os, Ops op);
// The op named `name` ("ADD" or "Ops.ADD"); false when there is none.
bool OpFromName(std::string_view name, Ops* out);

// A set of ops as a 128-bit mask: membership is one AND.
class OpSet {
 public:
  constexpr OpSet() = default;
  constexpr OpSet(std::initializer_list<Ops> ops) {
    for (Ops op : ops) Add(op);
  }
  static constexpr OpSet All() {
    OpSet s;
    for (int i = 0; i < kNumOps; ++i) s.Add(static_cast<Ops>(i));
    return s;
  }
  constexpr void Add(Ops op) { bits_[Word(op)] |= Bit(op); }
  constexpr bool contains(Ops op) const { return (bits_[Word(op)] & Bit(op)) != 0; }
  constexpr bool empty() const { return bits_[0] == 0 && bits_[1] == 0; }
  constexpr bool IsSubsetOf(const OpSet& o) const {
    return (bits_[0] & ~o.bits_[0]) == 0 && (bits_[1] & ~o.bits_[1]) == 0;
  }
  int size() const { return __builtin_popcountll(bits_[0]) + __builtin_popcountll(bits_[1]); }
  // The single op of a one-element set (CHECKed by callers via size()).
  Ops First() const;
  constexpr OpSet operator|(const OpSet& o) const {
    OpSet r;
    r.bits_[0] = bits_[0] | o.bits_[0];
    r.bits_[1] = bits_[1] | o.bits_[1];
    return r;
  }
  constexpr bool operator==(const OpSet& o) const {
    return bits_[0] == o.bits_[0] && bits_[1] == o.bits_[1];
  }
  template <typename F>
  void ForEach(F f) const {
    for (int i = 0; i < kNumOps; ++i)
      if (contains(static_cast<Ops>(i))) f(static_cast<Ops>(i));
  }

 private:
  static constexpr int Word(Ops op) { return static_cast<int>(op) >> 6; }
  static constexpr uint64_t Bit(Ops op) { return uint64_t{1} << (static_cast<int>(op) & 63); }
  uint64_t bits_[2] = {0, 0};
};

// tinygrad's GroupOp.
namespace GroupOp {
inline constexpr OpSet Unary{Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::RECIPROCAL, Ops::NEG,
                            Ops::TRUNC};
inline constexpr OpSet Binary{Ops::ADD,   Ops::MUL, Ops::IDIV,  Ops::MAX,      Ops::MOD, Ops::CMPLT,
                             Ops::CMPNE, Ops::CMPEQ, Ops::XOR, Ops::SHL,      Ops::SHR, Ops::OR,
                             Ops::AND,   Ops::THREEFRY, Ops::SUB, Ops::FDIV, Ops::POW};
inline constexpr OpSet Ternary{Ops::WHERE, Ops::MULACC};
inline constexpr OpSet ALU = Unary | Binary | Ternary;
inline constexpr OpSet Elementwise = ALU | OpSet{Ops::CAST, Ops::BITCAST};
inline constexpr OpSet Defines{Ops::DEFINE_GLOBAL, Ops::DEFINE_LOCAL, Ops::DEFINE_REG};
inline constexpr OpSet Irreducible{Ops::CONST, Ops::DEFINE_VAR, Ops::SPECIAL, Ops::RANGE};
inline constexpr OpSet Movement{Ops::RESHAPE, Ops::EXPAND, Ops::PERMUTE,
                               Ops::PAD,     Ops::SHRINK, Ops::FLIP};
inline constexpr OpSet Buffer{Ops::LOAD, Ops::STORE, Ops::CONST, Ops::DEFINE_VAR};
// Binary ops that can be flipped.
inline constexpr OpSet Commutative{Ops::ADD, Ops::MUL, Ops::MAX, Ops::CMPNE,
                                  Ops::CMPEQ, Ops::XOR, Ops::AND, Ops::OR};
// f(f(a,b),c) = f(a,f(b,c)).
inline constexpr OpSet Associative{Ops::ADD, Ops::MUL, Ops::AND, Ops::OR, Ops::MAX};
// f(x,x) = x.
inline constexpr OpSet Idempotent{Ops::OR, Ops::AND, Ops::MAX};
// These can change the dtype to bool.
inline constexpr OpSet Comparison{Ops::CMPLT, Ops::CMPNE, Ops::CMPEQ};
// f(0) != 0: padding through them is unsafe.
inline constexpr OpSet UnsafePad{Ops::RECIPROCAL, Ops::LOG2, Ops::EXP2, Ops::IDIV, Ops::POW};
inline constexpr OpSet All = OpSet::All();
}  // namespace GroupOp

}  // namespace tg

#endif  // TINYGRAD_UOP_OPS_H_
