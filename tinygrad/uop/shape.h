// File: tinygrad/uop/shape.h
// Port of tinygrad's `sint` and UOp._shape / _device: shapes of tensor-graph nodes.
//
// A dimension is an SInt: an int, or a symbolic index UOp (a variable-sized axis). Every node
// of the tensor graph knows its shape and device; both are computed when the node is interned,
// from its sources (like vmin/vmax), so asking is O(1). Kernel-level nodes have no shape.
//
// Example:
//   UOp b = UOp::NewBuffer("CPU", 12, dtypes::float32);        // shape (12,)
//   UOp t = b.reshape({3, 4}).permute({1, 0});                  // shape (4, 3)
//   ShapeRepr(*t.shape())                                       // "(4, 3)"
//   UOp s = t.r(Ops::ADD, {0});                                 // shape (1, 3)
//
// The graph does not broadcast: elementwise sources must have equal shapes (the Tensor layer
// inserts reshape + expand). Building an invalid movement op is a bug in the caller and
// CHECK-fails; InferShape() reports the same problems as a Status, for callers that validate
// user input first.
#ifndef TINYGRAD_UOP_SHAPE_H_
#define TINYGRAD_UOP_SHAPE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// tinygrad's sint: int | UOp. A CONST UOp is always stored as its int, so equality of two
// SInts is int equality or node identity.
class SInt {
 public:
  SInt() = default;
  SInt(int64_t v) : v_(v) {}    // NOLINT: implicit, like a Python int
  SInt(int v) : v_(v) {}        // NOLINT
  explicit SInt(const UOp& u);  // CONST -> int; else a scalar index-dtype UOp

  bool is_int() const { return !u_; }
  int64_t value() const;   // CHECKs is_int()
  const UOp& uop() const;  // CHECKs !is_int()
  UOp ToUOp() const;       // an index CONST for ints
  int64_t vmin() const;
  int64_t vmax() const;
  std::string repr() const;  // "3", or the rendered expression

  friend bool operator==(const SInt& a, const SInt& b) { return a.v_ == b.v_ && a.u_ == b.u_; }
  friend bool operator!=(const SInt& a, const SInt& b) { return !(a == b); }

 private:
  int64_t v_ = 0;
  UOp u_;
};

// Arithmetic folds ints; symbolic results fold only the trivial cases (x+0, x*1, (x+c)+c2)
// because the simplifier lives above this layer. TODO(parity): tinygrad runs ssimplify.
SInt operator+(const SInt& a, const SInt& b);
SInt operator-(const SInt& a, const SInt& b);
SInt operator*(const SInt& a, const SInt& b);
SInt FloorDiv(const SInt& a, const SInt& b);  // ints: Python //; symbolic: IDIV (b > 0)
SInt SMax(const SInt& a, const SInt& b);
// a + b, or nullopt when both are ints and the sum passes int64: the operators above must not
// get there (signed overflow is undefined), and Python's ints never do, so a Tensor op adding
// user sizes checks and names the overflow as its error.
std::optional<SInt> AddChecked(const SInt& a, const SInt& b);

using Shape = std::vector<SInt>;
using PadArg = std::vector<std::pair<SInt, SInt>>;  // (begin, end) per dim, for PAD and SHRINK

SInt Prod(std::span<const SInt> s);
bool AllInt(std::span<const SInt> s);
std::vector<int64_t> ToInts(std::span<const SInt> s);  // CHECKs AllInt
std::string ShapeRepr(std::span<const SInt> s);        // Python tuple: "(3, 4)", "(5,)", "()"

// The shape and device a node with these fields would have, or why it can't exist
// (tinygrad's _shape raising). nullopt shape: the node has no shape.
absl::StatusOr<std::optional<Shape>> InferShape(Ops op, DType dtype, std::span<const UOp> src,
                                                const Arg& arg);

namespace uop_internal {
// What the interner stores for tensor-graph nodes; null for the rest.
struct TensorInfo {
  std::optional<Shape> shape;
  Arg device;  // none, or the device name (a tuple of names for multi-device)
};
const TensorInfo* ComputeTensorInfo(Ops op, DType dtype, std::span<const UOp> src, const Arg& arg);
}  // namespace uop_internal

}  // namespace tg

#endif  // TINYGRAD_UOP_SHAPE_H_
