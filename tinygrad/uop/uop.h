// File: tinygrad/uop/uop.h
// Port of tinygrad/uop/ops.py: the UOp, an immutable, hash-consed IR node, and its sugar.
//
// A UOp is (op, dtype, src, arg, tag). Building an identical node returns the same node, so
// `a == b` is a pointer compare and means structural equality. `UOp` is an 8-byte handle with
// an intrusive reference count; the intern table holds nodes weakly, so a graph that nobody
// references is freed (tinygrad's ucache of weakrefs). See README.md for why.
//
// Example:
//   UOp a = UOp::Variable("a", 0, 10);
//   UOp e = (a * 2 + 3).idiv(2);        // IDIV(ADD(MUL(a, 2), 3), 2), dtype index
//   e.vmin(), e.vmax()                  // 1, 11: range analysis, computed at interning
//
// Derived facts that are O(1) from the children (the structural key, vmin/vmax, the set of
// child ops used by pattern early-reject) are computed once when the node is interned, so a
// node never changes after construction and is safe to share between threads.
#ifndef TINYGRAD_UOP_UOP_H_
#define TINYGRAD_UOP_UOP_H_

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/ops.h"

namespace tg {

class UOp;
class SInt;                                       // shape.h
using Shape = std::vector<SInt>;                  // shape.h
using PadArg = std::vector<std::pair<SInt, SInt>>;  // shape.h
namespace uop_internal {
struct Node;
struct TensorInfo;
void ReleaseNode(const Node* n);
}  // namespace uop_internal

class UOp {
 public:
  UOp() = default;  // the null handle: "no UOp" (a rule that does not apply returns it)
  UOp(const UOp& o) : node_(o.node_) { IncRef(); }
  UOp(UOp&& o) noexcept : node_(o.node_) { o.node_ = nullptr; }
  UOp& operator=(const UOp& o) {
    if (node_ != o.node_) {
      o.IncRef();
      DecRef();
      node_ = o.node_;
    }
    return *this;
  }
  UOp& operator=(UOp&& o) noexcept {
    if (this != &o) {
      DecRef();
      node_ = o.node_;
      o.node_ = nullptr;
    }
    return *this;
  }
  ~UOp() { DecRef(); }

  // Interns (op, dtype, src, arg, tag). Thread-safe.
  static UOp Make(Ops op, DType dtype = dtypes::void_, std::span<const UOp> src = {},
                  Arg arg = {}, Arg tag = {});
  static UOp Make(Ops op, DType dtype, std::initializer_list<UOp> src, Arg arg = {},
                  Arg tag = {}) {
    return Make(op, dtype, std::span<const UOp>(src.begin(), src.size()), std::move(arg),
                std::move(tag));
  }

  explicit operator bool() const { return node_ != nullptr; }
  Ops op() const;
  DType dtype() const;
  std::span<const UOp> src() const;
  const UOp& src(size_t i) const;
  const Arg& arg() const;
  const Arg& tag() const;
  // Structural key: stable across processes and machines (op names, dtypes, args and the
  // children's keys; the tag is not part of it, as in tinygrad's UOp.key).
  uint64_t key() const;
  // Range analysis (tinygrad's vmin/vmax).
  const ConstValue& vmin() const;
  const ConstValue& vmax() const;
  // The ops of the direct sources, for pattern early-reject.
  OpSet src_ops() const;

  friend bool operator==(const UOp& a, const UOp& b) { return a.node_ == b.node_; }
  friend bool operator!=(const UOp& a, const UOp& b) { return a.node_ != b.node_; }
  template <typename H>
  friend H AbslHashValue(H h, const UOp& u) {
    return H::combine(std::move(h), u.node_ ? u.key() : 0);
  }
  // Identity of the node, for side tables that must not keep it alive.
  const void* id() const { return node_; }
  // Handles to this node right now (tinygrad's sys.getrefcount idea): a side table that holds
  // the only one can drop its entry.
  int32_t use_count() const;

  // tinygrad's replace(): the same node with one field changed (or itself if unchanged).
  UOp replace_src(std::span<const UOp> src) const;
  UOp replace_src(std::initializer_list<UOp> src) const {
    return replace_src(std::span<const UOp>(src.begin(), src.size()));
  }
  UOp replace_arg(Arg arg) const;
  UOp replace_dtype(DType dtype) const;
  UOp replace_tag(Arg tag) const;
  UOp replace_op(Ops op) const;

  // ** constructors (tinygrad's static UOp helpers) **
  // CONST of `dtype` (any vector width) holding as_const(v, dtype).
  static UOp Const(DType dtype, ConstValue v);
  // VCONST, or a CONST when all lanes are equal.
  static UOp VConst(DType dtype, std::span<const ConstValue> lanes);
  static UOp Variable(std::string name, ConstValue min, ConstValue max,
                      DType dtype = dtypes::index);
  static UOp Range(UOp end, int64_t axis_id, AxisType type = AxisType::LOOP);
  static UOp Range(int64_t end, int64_t axis_id, AxisType type = AxisType::LOOP);
  static UOp Special(UOp end, std::string name);
  static UOp Sink(std::span<const UOp> srcs);
  static UOp Sink(std::initializer_list<UOp> srcs) {
    return Sink(std::span<const UOp>(srcs.begin(), srcs.size()));
  }
  static UOp Invalid(int count = 1);  // CONST Invalid of index.vec(count)

  // ** sugar (tinygrad's OpMixin/MathMixin) **
  UOp const_like(ConstValue v) const;
  // ALU op with this as src[0]; dtype is the last src's, bool(.vec) for comparisons.
  UOp alu(Ops op, std::initializer_list<UOp> rest = {}) const;
  UOp cast(DType dtype) const;  // keeps the vector width; a no-op for the same dtype
  UOp bitcast(DType dtype) const;
  UOp gep(int i) const;
  UOp gep(std::span<const int> lanes) const;
  UOp broadcast(int count) const;
  UOp vectorize(std::span<const UOp> rest) const;  // VECTORIZE(this, rest...)
  UOp index(std::span<const UOp> idx, bool ptr = false) const;
  UOp index(std::initializer_list<UOp> idx, bool ptr = false) const {
    return index(std::span<const UOp>(idx.begin(), idx.size()), ptr);
  }
  UOp load(std::span<const UOp> rest = {}) const;
  UOp store(UOp value) const;
  UOp bind(int64_t value) const;
  UOp where(UOp t, UOp f) const;
  UOp where(UOp t, ConstValue f) const { return where(t, t.const_like(f)); }
  UOp where(ConstValue t, UOp f) const { return where(f.const_like(t), f); }
  UOp logical_not() const;  // CMPNE(this, True)
  UOp neg() const;          // logical_not for bool, this*-1 otherwise
  UOp idiv(const UOp& x) const;  // IDIV (truncating), tinygrad's //
  UOp idiv(ConstValue x) const { return idiv(const_like(x)); }
  UOp maximum(const UOp& x) const;
  UOp maximum(ConstValue x) const { return maximum(const_like(x)); }
  UOp minimum(const UOp& x) const;  // -max(-a, -b)
  UOp minimum(ConstValue x) const { return minimum(const_like(x)); }
  UOp lt(const UOp& x) const;  // CMPLT(this, x)
  UOp lt(ConstValue x) const { return lt(const_like(x)); }
  UOp gt(const UOp& x) const;  // CMPLT(x, this)
  UOp gt(ConstValue x) const { return gt(const_like(x)); }
  UOp le(const UOp& x) const { return gt(x).logical_not(); }
  UOp le(ConstValue x) const { return gt(x).logical_not(); }
  UOp ge(const UOp& x) const { return lt(x).logical_not(); }
  UOp ge(ConstValue x) const { return lt(x).logical_not(); }
  UOp ne(const UOp& x) const;  // CMPNE
  UOp ne(ConstValue x) const { return ne(const_like(x)); }
  UOp eq(const UOp& x) const { return ne(x).logical_not(); }
  UOp eq(ConstValue x) const { return ne(x).logical_not(); }
  UOp reciprocal() const { return alu(Ops::RECIPROCAL); }
  UOp sqrt() const { return alu(Ops::SQRT); }
  UOp exp2() const { return alu(Ops::EXP2); }
  UOp log2() const { return alu(Ops::LOG2); }
  UOp sin() const { return alu(Ops::SIN); }
  UOp trunc() const { return alu(Ops::TRUNC); }
  UOp pow(const UOp& x) const { return alu(Ops::POW, {x}); }

  // ** tensor graph (shape.h): shape and device are computed at interning **
  const Shape* shape() const;  // nullptr: no shape (tinygrad's _shape is None)
  const Arg& device() const;   // none: no device
  UOp base() const;            // the source under any movement ops
  // tinygrad's UOp.contiguous: this when it is a CONTIGUOUS or already a (reshaped or split)
  // BUFFER or an MSTACK of them (a BUFFER on several devices), else CONTIGUOUS(this).
  UOp contiguous() const;
  // A fresh UNIQUE (process-wide counter), so equal buffers stay distinct.
  static UOp Unique();
  static UOp Unique(int64_t num);
  static UOp NewBuffer(const std::string& device, int64_t size, DType dtype);
  // CONST on a device, reshaped and expanded to `shape` (tinygrad's UOp.const with device).
  static UOp ConstOn(DType dtype, ConstValue v, const std::string& device,
                     const Shape* shape = nullptr);
  // Movement ops. reshape/expand/pad/shrink return this when the shape does not change;
  // permute and flip when the arg is the identity.
  UOp reshape(const Shape& s) const;
  UOp forced_reshape(const Shape& s) const;
  UOp expand(const Shape& s) const;
  UOp pad(const PadArg& p) const;
  UOp shrink(const PadArg& p) const;
  UOp permute(std::span<const int64_t> order) const;
  UOp permute(std::initializer_list<int64_t> order) const {
    return permute(std::span<const int64_t>(order.begin(), order.size()));
  }
  UOp flip(const std::vector<bool>& axes) const;
  // The movement arg: RESHAPE/EXPAND shapes, PAD/SHRINK (begin, end) pairs.
  Shape marg_shape() const;
  PadArg marg_pairs() const;
  // REDUCE_AXIS over `axes` (size-1 axes dropped; this when none are left). Keeps the rank.
  UOp r(Ops op, std::span<const int64_t> axes) const;
  UOp after(std::span<const UOp> deps) const;  // AFTER(this, deps...)
  UOp after(std::initializer_list<UOp> deps) const {
    return after(std::span<const UOp>(deps.begin(), deps.size()));
  }
  UOp end(std::span<const UOp> ranges) const;  // END(this, ranges...), this when none
  UOp end(std::initializer_list<UOp> ranges) const {
    return end(std::span<const UOp>(ranges.begin(), ranges.size()));
  }

  // The interned tensor-graph facts behind shape() and device() (shape.h).
  const uop_internal::TensorInfo* node_tensor_info() const;

  // tinygrad's `ranges`: the RANGEs this node's value depends on that no node on the way
  // closed (END, REDUCE, STORE, BUFFERIZE, WMMA close theirs; a RANGE includes itself), in
  // tinygrad's order. Computed on first use and kept with the node (tinygrad's cached
  // property): later calls are O(1).
  const std::vector<UOp>& ranges() const;
  // The ranges a node closes (tinygrad's ended_ranges).
  std::vector<UOp> ended_ranges() const;
  // Whether `range` is one of ranges().
  bool has_range(const UOp& range) const;

  // ** graph walks (explicit stacks: no recursion depth limit) **
  // Children before parents, sources visited in order (tinygrad's toposort).
  std::vector<UOp> toposort() const;
  // toposort() without this node.
  std::vector<UOp> backward_slice() const;

 private:
  explicit UOp(const uop_internal::Node* n) : node_(n) {}  // adopts one reference
  void IncRef() const;
  void DecRef();
  friend struct uop_internal::Node;
  friend class Interner;
  friend void uop_internal::ReleaseNode(const uop_internal::Node* n);

  const uop_internal::Node* node_ = nullptr;
};

// tinygrad's MathMixin operators: UOp op UOp, and with a number on either side.
// `a - b` builds a + b*-1 and `a / b` builds a * RECIPROCAL(b), as tinygrad does.
UOp operator+(const UOp& a, const UOp& b);
UOp operator+(const UOp& a, ConstValue b);
UOp operator+(ConstValue a, const UOp& b);
UOp operator-(const UOp& a, const UOp& b);
UOp operator-(const UOp& a, ConstValue b);
UOp operator-(ConstValue a, const UOp& b);
UOp operator*(const UOp& a, const UOp& b);
UOp operator*(const UOp& a, ConstValue b);
UOp operator*(ConstValue a, const UOp& b);
UOp operator/(const UOp& a, const UOp& b);
UOp operator/(const UOp& a, ConstValue b);
UOp operator/(ConstValue a, const UOp& b);
UOp operator%(const UOp& a, const UOp& b);
UOp operator%(const UOp& a, ConstValue b);
UOp operator%(ConstValue a, const UOp& b);
UOp operator&(const UOp& a, const UOp& b);
UOp operator&(const UOp& a, ConstValue b);
UOp operator|(const UOp& a, const UOp& b);
UOp operator|(const UOp& a, ConstValue b);
UOp operator^(const UOp& a, const UOp& b);
UOp operator^(const UOp& a, ConstValue b);
UOp operator<<(const UOp& a, const UOp& b);
UOp operator<<(const UOp& a, ConstValue b);
UOp operator>>(const UOp& a, const UOp& b);
UOp operator>>(const UOp& a, ConstValue b);
UOp operator-(const UOp& a);

// tinygrad's pretty_print: a multi-line, re-parseable-looking dump with shared nodes named
// `x3:=` once and referenced as `x3` afterwards.
std::string PrettyPrint(const UOp& u);
std::ostream& operator<<(std::ostream& os, const UOp& u);  // PrettyPrint

// tinygrad's range_start: the first source index at which `op` lists the ranges it closes,
// or -1 when `op` closes none.
int RangeStart(Ops op);

// Number of live interned nodes (for leak tests and benchmarks).
size_t LiveUOpCount();

// ** internals: the node layout, here so the accessors above inline **
namespace uop_internal {
struct Node {
  mutable std::atomic<int32_t> refs;
  Ops op;
  uint32_t num_src;
  DType dtype;
  uint64_t key;
  OpSet src_ops;
  Arg arg;
  Arg tag;
  ConstValue vmin;
  ConstValue vmax;
  const TensorInfo* tensor_info;  // shape and device; null when neither exists
  // ranges(), once someone asked (write-once; freed with the node).
  mutable std::atomic<const std::vector<UOp>*> ranges_memo{nullptr};
  // `num_src` UOp handles follow the node in the same allocation.
  const UOp* src() const { return reinterpret_cast<const UOp*>(this + 1); }
};
static_assert(sizeof(Node) % alignof(UOp) == 0);
}  // namespace uop_internal

inline void UOp::IncRef() const {
  if (node_) node_->refs.fetch_add(1, std::memory_order_relaxed);
}
inline void UOp::DecRef() {
  if (node_ && node_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    uop_internal::ReleaseNode(node_);
}
inline Ops UOp::op() const { return node_->op; }
inline DType UOp::dtype() const { return node_->dtype; }
inline std::span<const UOp> UOp::src() const { return {node_->src(), node_->num_src}; }
inline const Arg& UOp::arg() const { return node_->arg; }
inline const Arg& UOp::tag() const { return node_->tag; }
inline uint64_t UOp::key() const { return node_->key; }
inline const ConstValue& UOp::vmin() const { return node_->vmin; }
inline const ConstValue& UOp::vmax() const { return node_->vmax; }
inline OpSet UOp::src_ops() const { return node_->src_ops; }
inline int32_t UOp::use_count() const {
  return node_ ? node_->refs.load(std::memory_order_relaxed) : 0;
}
inline const uop_internal::TensorInfo* UOp::node_tensor_info() const {
  return node_->tensor_info;
}

}  // namespace tg

#endif  // TINYGRAD_UOP_UOP_H_
