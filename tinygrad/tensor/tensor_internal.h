// File: tinygrad/tensor/tensor_internal.h
// Helpers shared by the Tensor implementation files (not part of the public API): the shared
// state, the live-tensor registry, error construction, axis resolution and broadcasting.
// Port of the private helpers of tinygrad/tensor.py (_broadcasted, _resolve_dim, _reduce...).
#ifndef TINYGRAD_TENSOR_TENSOR_INTERNAL_H_
#define TINYGRAD_TENSOR_TENSOR_INTERNAL_H_

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/uop/shape.h"

namespace tg {

// What a Tensor handle points at. Live states are registered so a realize can update them
// (and backward() can find the tensors that require a gradient).
struct Tensor::State : std::enable_shared_from_this<Tensor::State> {
  UOp uop;              // null when errored
  absl::Status status;  // ok, or the first error
  // Autograd (autograd.cc): tinygrad's tri-state requires_grad (nullopt is None) and .grad.
  std::optional<bool> requires_grad;
  std::optional<Tensor> grad;
  State(UOp u, absl::Status s);
  ~State();
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

namespace tensor_internal {

struct Access {
  static Tensor::State* state(const Tensor& t) { return t.s_.get(); }
  static Tensor handle(std::shared_ptr<Tensor::State> s) { return Tensor(std::move(s)); }
};

// Handles to every live (non-errored) tensor (tinygrad's all_tensors), in no particular order.
std::vector<Tensor> LiveTensors();
// Points `t` (and every handle sharing its state) at `u` (tinygrad's Tensor.replace).
void ReplaceUOp(const Tensor& t, UOp u);

// ** autograd (autograd.cc) **
// tinygrad's _apply_uop: a Tensor for `u`, the result of an op on `inputs`, whose
// requires_grad is true if any input's is, else None if any input's is, else false. Inside a
// NoGradScope the result's requires_grad is false, and a result of inputs that may take part
// in a gradient (not false) is wrapped in DETACH, so no gradient flows through it later.
Tensor Derived(UOp u, std::initializer_list<const Tensor*> inputs);
// A tensor that never takes part in a gradient (requires_grad=False in tinygrad).
Tensor NoGradLeaf(Tensor t);

// Tensor::Rand without its final contiguous (tinygrad's rand(contiguous=False), used by
// dropout so the random bits fuse into the mask's kernel).
Tensor RandNoContiguous(const std::vector<int64_t>& shape, const TensorOpts& o);
// rand_like, optionally without the final contiguous (dropout's mask).
Tensor RandLike(const Tensor& like, DType dtype, bool contiguous);

// tinygrad's _multi_like: a tensor of multi-device `like`'s shape, devices and split, from
// `make(shape, device)`: each device's part made on that device when `like` is split, else
// one made on the default device and copied to each.
using MakeOnDevice = std::function<Tensor(const Shape& shape, const std::string& device)>;
Tensor MultiLike(const Tensor& like, const MakeOnDevice& make);

// ** random numbers (random.cc) **
// The four words a Rand of `words` 32-bit words on `device` hands its kernel next (counter,
// key words), advancing the device's counter as the call does. InvalidArgument past the
// devices the generator has keys for.
absl::StatusOr<std::array<uint32_t, 4>> NextRandomParams(const std::string& device, uint32_t words);
// While alive on a thread (a TinyJit capture), every Rand call there records the buffer its
// counter and keys travel in: a replay gives each the next counter values (NextRandomParams),
// so replayed random numbers continue the sequence as eager calls would. (The reference keeps
// the counter in a device tensor its kernels assign, which a replay advances by itself.)
struct RandomDraw {
  UOp params;  // the 4-word uint32 BUFFER
  std::string device;
  uint32_t words;
};
class RandomDrawRecorder {
 public:
  RandomDrawRecorder();
  ~RandomDrawRecorder();
  RandomDrawRecorder(const RandomDrawRecorder&) = delete;
  RandomDrawRecorder& operator=(const RandomDrawRecorder&) = delete;
  static RandomDrawRecorder* Active();
  std::vector<RandomDraw> draws;

 private:
  RandomDrawRecorder* previous_;
};

// Replaces realized nodes in every live tensor's graph (tinygrad's _apply_map_to_tensors).
void ApplyBecomesMap(const absl::flat_hash_map<UOp, UOp>& becomes);

// "op: message" as an InvalidArgument error tensor.
Tensor Err(const std::string& op, const std::string& msg);
std::string ShapeStr(const std::vector<int64_t>& s);  // "(3, 4)"
inline std::string ShapeStr(const Shape& s) { return ShapeRepr(s); }  // "(pos, 4)"

// ** symbolic sizes (symbolic.cc) **
using VarVals = absl::flat_hash_map<std::string, ConstValue>;
// The values of the BINDs in `u`'s graph, by variable name. Errors: a value outside its
// variable's range, one variable bound to two values, a variable with an empty range.
absl::StatusOr<VarVals> CollectBindings(const UOp& u);
// CollectBindings over the symbolic dims of `s`.
absl::StatusOr<VarVals> Bindings(std::span<const SInt> s);
// Bindings' errors as "op: ..." (for the pairs of `p` in CheckPads).
absl::Status CheckSInts(const std::string& op, std::span<const SInt> s);
absl::Status CheckPads(const std::string& op, const PadArg& p);
// That a tensor of `shape` (at its variables' maxima) has at most INT64_MAX elements, so every
// size and index computed from it fits an int64; "op: shape (..) has more elements than an
// int64 counts" otherwise. Every op that makes a shape with more elements than its input
// (creation, expand, pad) checks it.
absl::Status CheckNumel(const std::string& op, std::span<const SInt> shape);
// `s` evaluated with the variables' values in `vals` (an error names a missing one).
absl::StatusOr<int64_t> EvalSInt(const SInt& s, const VarVals& vals);
// The ints of a shape under the bindings inside it; an error for an unbound variable.
absl::StatusOr<std::vector<int64_t>> EvalShape(const Shape& s);
// EvalShape, with -1 for each dim that has no value (Tensor::shape()).
std::vector<int64_t> BoundDims(const Shape& s);
// "op: does not support symbolic shape (i, 8)" for ops that need int sizes (tinygrad asserts
// all_int(self.shape) in the same places); ok for an int shape.
absl::Status NeedsIntShape(const std::string& op, const Tensor& t);
// An error naming the first variable in `root`'s graph that no BIND gives a value.
absl::Status CheckAllBound(const std::string& op, const UOp& root);
// For a realized view (movement ops over a BUFFER), each element's index in the buffer, in
// row-major order of the view's shape under its bindings.
absl::StatusOr<std::vector<int64_t>> ViewOffsets(const UOp& view);

// Returns the first errored tensor among the arguments, as a Tensor (ok() when none is).
#define TG_TENSOR_RETURN_IF_ERROR(...)                        \
  do {                                                        \
    for (const ::tg::Tensor* _t : {__VA_ARGS__})              \
      if (!_t->ok()) return ::tg::Tensor::Error(_t->status()); \
  } while (0)

// tinygrad's helpers.polyN: Horner's rule from 0.0 (acc * x + c for each coefficient c).
Tensor PolyN(const Tensor& x, std::initializer_list<double> coeffs);

// tinygrad's _one_hot_along_dim: idx == arange(num_classes) with the classes along `dim` (from
// the end when negative), a bool tensor.
Tensor OneHotAlongDim(const Tensor& idx, int64_t num_classes, int64_t dim);
// tinygrad's _masked_setitem: `target` with `values` where `mask`, mask and values first reduced
// over `axes` so that of positions picked twice the last one wins.
Tensor MaskedSetitem(const Tensor& target, Tensor values, Tensor mask, const std::vector<int64_t>& axes);
// tinygrad's _resolve_pool_pads: an int, one per dim, or 2 per dim -> the flat torch-order list.
absl::StatusOr<std::vector<int64_t>> ResolvePoolPads(const std::string& name, const std::vector<int64_t>& p,
                                                     size_t dims, const std::vector<int64_t>& shape);

// tinygrad's _getitem: `self` indexed (Tensor::slice), or, with `v` (setitem), for tensor
// indices the whole of `self` with v written at the picked positions.
Tensor GetItem(const Tensor& self, const std::vector<TensorIndex>& indices, const Tensor* v);

// tinygrad's _resolve_dim: dim in [-max(1, n), max(1, n) - 1], n = ndim (+1 when `extra`).
absl::StatusOr<int64_t> ResolveDim(const std::string& op, int64_t dim, int64_t ndim,
                                   bool extra = false);
// The reduce axes of `axis` (all when unset), resolved and deduplicated, in the given order.
absl::StatusOr<std::vector<int64_t>> ResolveAxes(const std::string& op, const Axes& axis,
                                                 int64_t ndim);

// A 0-d const on `device` (tinygrad's Tensor(value, device, dtype)).
Tensor ConstTensor(ConstValue v, DType dt, const std::string& device);
// dtypes.from_py: float -> default_float, int -> default_int, bool -> bool.
DType DTypeFromPy(const ConstValue& v);

// least_upper_dtype, except where tinygrad's lattice walk lands on fp8 for two non-fp8 dtypes
// (a signed int with uint64): that becomes default_float, JAX's answer that the lattice is
// meant to follow (a deliberate divergence from the reference's fp8e4m3).
DType PromoteTypes(DType a, DType b);

// _broadcast_shape with the numpy check; errors name `op` and both shapes. Symbolic dims
// broadcast only with 1 or an identical dim.
absl::StatusOr<Shape> BroadcastShape(const std::string& op, const Shape& a, const Shape& b);
// movement mixin's _broadcast_to (reshape left-aligned, then expand).
Tensor BroadcastTo(const Tensor& t, const Shape& shape);
inline Tensor BroadcastTo(const Tensor& t, const std::vector<int64_t>& shape) {
  return BroadcastTo(t, Shape(shape.begin(), shape.end()));
}

// tinygrad's _broadcasted: y a Tensor or a Python-like scalar. Errors for shapes that do not
// broadcast; both results have the output shape (and one dtype when match_dtype).
using Operand = std::variant<Tensor, ConstValue>;
absl::StatusOr<std::pair<Tensor, Tensor>> Broadcasted(const std::string& op, const Tensor& x,
                                                      const Operand& y, bool reverse = false,
                                                      bool match_dtype = true);
// The same-shape ALU op on two broadcast tensors: UOp.alu(op, a, b).
Tensor Alu(Ops op, const Tensor& a, const Tensor& b);
Tensor Alu(Ops op, const Tensor& a);  // unary
// _apply_broadcasted_uop(op): broadcast then one ALU op.
Tensor BroadcastedAlu(const std::string& name, Ops op, const Tensor& x, const Operand& y,
                      bool reverse = false);

// tinygrad's _reduce(op, axis, keepdim) (no dtype handling).
Tensor Reduce(const std::string& name, const Tensor& t, Ops op, const Axes& axis, bool keepdim);
// _inverse: -x for floats, ~x for ints, logical_not for bools.
Tensor Inverse(const Tensor& t);
// identity_element(op, dtype).
ConstValue IdentityElement(Ops op, DType dt);
// tinygrad's _cumalu and _split_cumalu.
Tensor CumAlu(const Tensor& t, int64_t axis, Ops op, bool include_initial = false);
Tensor SplitCumAlu(const std::string& name, const Tensor& t, int64_t axis, Ops op);
// `t` padded with the flat torch-order list (left, right, top, bottom, ...).
Tensor PadFlat(const Tensor& t, const std::vector<int64_t>& flat, ConstValue value = 0.0);
// dtypes.min / dtypes.max as a ConstValue of the dtype's kind.
ConstValue DTypeMin(DType dt);

inline int64_t Prod(const std::vector<int64_t>& s) {
  int64_t p = 1;
  for (int64_t v : s) p *= v;
  return p;
}
// Python's ceildiv for ints.
inline int64_t CeilDiv(int64_t a, int64_t b) {
  int64_t q = a / b, r = a % b;
  return (r != 0 && ((r > 0) == (b > 0))) ? q + 1 : q;
}
Shape ToShape(const std::vector<int64_t>& s);

}  // namespace tensor_internal
}  // namespace tg

#endif  // TINYGRAD_TENSOR_TENSOR_INTERNAL_H_
