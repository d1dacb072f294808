// File: tinygrad/tensor/tensor.h
// The lazy Tensor: a cheap handle on a tensor-graph UOp, with tinygrad's op set.
// Port of tinygrad/tensor.py and tinygrad/mixin/{math,movement}.py: Tensor ops build the same
// UOp graphs tinygrad builds (same formulations, so the scheduler makes the same kernels).
//
// Example:
//   Tensor a = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
//   Tensor b = (a.matmul(a.T()) + 1).relu().sum(1);        // lazy: nothing runs yet
//   absl::StatusOr<std::vector<float>> v = b.to_vector<float>();   // schedule, compile, run
//
// Errors: our code throws nothing and bad user input never aborts. An op given bad input
// (shapes that don't broadcast, an axis out of range, ...) returns a Tensor in the error state
// whose status names the op and the shapes:
//   "matmul: shapes (3, 4) and (5, 6) cannot be multiplied (4 != 5)"
// Every op on an errored Tensor returns an errored Tensor carrying the first error, and the
// readers (realize, to_vector, item) return that status. shape()/dtype() need ok().
//
// Symbolic shapes (tinygrad's Variable + bind): a dimension may be an SInt holding a bound
// variable (or an expression of some). One compiled kernel serves every value of the variable:
// the value reaches the kernel as an int argument, and the schedule cache ignores it.
//   Variable pos("pos", 1, 16);
//   Tensor cache = Tensor::Rand({16, 8}).contiguous();
//   Tensor k = cache.shrink({{0, pos.bind(5)}, {0, 8}});      // sshape() (pos, 8), shape() {5, 8}
//   k.sum(0).to_vector<float>();                               // the sum of the first 5 rows
// Ops that need int sizes (conv2d, pools, cumsum, strided slices...) give an errored tensor on a
// symbolic one. A variable bound outside its range is an error at the op that takes it; an
// unbound variable (pos.unbound()) may appear in a graph, and reading or realizing it is an
// error naming it.
//
// Live tensors sit in a weak registry: realizing replaces the realized nodes in every live
// tensor's graph (tinygrad's _apply_map_to_tensors), so later ops reuse the computed buffers.
#ifndef TINYGRAD_TENSOR_TENSOR_H_
#define TINYGRAD_TENSOR_TENSOR_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/custom_kernel.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/uop.h"

namespace tg {

class Tensor;
namespace tensor_internal {
struct Access;
}  // namespace tensor_internal

// tinygrad's Variable(name, min, max): a named size in [min, max] (an index DEFINE_VAR).
// bind(value) gives the SInt that shapes, shrinks, pads and slices take; each kernel that uses
// it gets the bound value as an argument at run time. The range is checked by the Tensor op
// that takes the bound SInt (an errored tensor when the value is outside it).
class Variable {
 public:
  Variable(std::string name, int64_t min, int64_t max);
  SInt bind(int64_t value) const;  // BIND(DEFINE_VAR, value)
  SInt unbound() const;            // the DEFINE_VAR alone (tinygrad's unbound Variable)
  const UOp& uop() const { return var_; }
  const std::string& name() const;
  int64_t min() const;
  int64_t max() const;

 private:
  UOp var_;
};

// The device new tensors go to when none is named (tinygrad's Device.DEFAULT), decided once:
// the environment's DEV=<device> (or DEVICE=, or <KIND>=1 such as CUDA=1), else "CUDA" where
// the CUDA driver opens a GPU, else "CPU" (default_device.cc; conflicting settings are reported
// on stderr and CPU is used). Names are canonical: "cuda:0" is "CUDA".
std::string DefaultDevice();
// Replaces it for the rest of the process (tinygrad's `Device.DEFAULT = "CUDA"`).
void SetDefaultDevice(const std::string& device);

// Where and as what a new tensor is created. dtype unset: the op's default (float32 for most,
// int32 for integer arange, ...).
struct TensorOpts {
  std::optional<DType> dtype;
  std::string device = DefaultDevice();
};

// An axis argument: one axis, several, or all of them (the default). Negative axes count from
// the end. `t.sum()`, `t.sum(1)`, `t.sum({0, 2})`.
class Axes {
 public:
  Axes() = default;                                               // all axes
  Axes(int64_t a) : axes_(std::vector<int64_t>{a}) {}             // NOLINT: like Python's int
  Axes(int a) : axes_(std::vector<int64_t>{a}) {}                 // NOLINT
  Axes(std::initializer_list<int64_t> a) : axes_(std::vector<int64_t>(a)) {}
  Axes(std::vector<int64_t> a) : axes_(std::move(a)) {}          // NOLINT
  bool all() const { return !axes_.has_value(); }
  const std::vector<int64_t>& list() const { return *axes_; }

 private:
  std::optional<std::vector<int64_t>> axes_;
};

// Python slicing: Slice(start, stop, step) with optional bounds, negative values counting from
// the end; Index(i) picks one position and drops the axis; NewAxis inserts a size-1 axis;
// Ellipsis stands for the remaining axes. A symbolic bound (t[:, :pos]) needs step 1 and a
// start the stop can't be below; int bounds on a symbolic dim slice within its maximum.
// A symbolic Index (t[pos]) must be non-negative; its bound value is checked against the dim.
struct Slice {
  std::optional<SInt> start, stop;
  int64_t step = 1;
  Slice(std::optional<SInt> b = std::nullopt, std::optional<SInt> e = std::nullopt,
        int64_t s = 1)
      : start(b), stop(e), step(s) {}
  static Slice All() { return Slice(); }
};
struct Index {
  SInt i;  // an int (negative counts from the end) or a bound variable (t[pos])
};
struct NewAxis {};
struct Ellipsis {};
class Tensor;
// An int tensor of positions along its dim (tinygrad's tensor indexing, t[idx]): the result has
// idx's shape where that dim was, each element the one at that position (negative positions
// count from the end; one out of range gives 0). Several broadcast together and pick
// elementwise (t[rows, cols]); not adjacent, their dims go first, as in numpy.
struct Indices {
  explicit Indices(const Tensor& index);
  std::shared_ptr<const Tensor> index;
};
using TensorIndex = std::variant<Slice, Index, NewAxis, Ellipsis, Indices>;

struct Conv2dOpts {
  int64_t groups = 1;
  std::vector<int64_t> stride = {1};    // one value for every spatial dim, or one per dim
  std::vector<int64_t> dilation = {1};
  // One value for all sides, one per spatial dim, or 2 per spatial dim in torch's flat order
  // (left, right, top, bottom, ...).
  std::vector<int64_t> padding = {0};
  std::optional<DType> acc_dtype;
};

struct PoolOpts {
  std::vector<int64_t> kernel = {2, 2};
  std::vector<int64_t> stride;          // empty: the kernel size
  std::vector<int64_t> dilation = {1};
  std::vector<int64_t> padding = {0};   // as Conv2dOpts::padding
  bool ceil_mode = false;
  bool count_include_pad = true;        // avg_pool2d only
};

// The dtype a C++ element type reads and writes as.
template <typename T>
constexpr DType DTypeOf() {
  if constexpr (std::is_same_v<T, bool>) return dtypes::bool_;
  else if constexpr (std::is_same_v<T, int8_t>) return dtypes::int8;
  else if constexpr (std::is_same_v<T, uint8_t>) return dtypes::uint8;
  else if constexpr (std::is_same_v<T, int16_t>) return dtypes::int16;
  else if constexpr (std::is_same_v<T, uint16_t>) return dtypes::uint16;
  else if constexpr (std::is_same_v<T, int32_t>) return dtypes::int32;
  else if constexpr (std::is_same_v<T, uint32_t>) return dtypes::uint32;
  else if constexpr (std::is_same_v<T, int64_t>) return dtypes::int64;
  else if constexpr (std::is_same_v<T, uint64_t>) return dtypes::uint64;
  else if constexpr (std::is_same_v<T, float>) return dtypes::float32;
  else if constexpr (std::is_same_v<T, double>) return dtypes::float64;
  else static_assert(sizeof(T) == 0, "no dtype for this element type");
}

// A Keccak sponge for Tensor::keccak: the rate (bytes absorbed per block) and the domain
// separation byte (tinygrad's cfg tuple).
struct KeccakConfig {
  int64_t rate = 136;
  int64_t dsbyte = 6;
  // tinygrad's names: "sha3_224", "sha3_256", "shake_128" (16 bytes of output).
  static absl::StatusOr<KeccakConfig> Named(const std::string& name);
};

class Tensor {
 public:
  // A Tensor holding `u` (a tensor-graph node with a shape and device).
  explicit Tensor(UOp u);
  // An errored Tensor.
  static Tensor Error(absl::Status s);

  // The shared state behind handles (defined in tensor_internal.h; not part of the API).
  struct State;

  // ** state **
  bool ok() const;
  const absl::Status& status() const;
  const UOp& uop() const;  // CHECKs ok()
  // tinygrad's t.shape: each dim an int or a symbolic SInt (bound variables, expressions).
  const Shape& sshape() const;
  // The shape as ints: a symbolic dim reads as its value under its variables' bound values
  // (-1 when one of them is unbound). What to_vector<T>() returns is this shape's elements.
  std::vector<int64_t> shape() const;
  bool is_symbolic() const;  // some dim is not an int
  int64_t ndim() const;
  int64_t numel() const;  // the product of shape()
  DType dtype() const;
  std::string device() const;                // "(CPU, CPU:1)" for a tensor on several devices
  std::vector<std::string> devices() const;  // each device it is on
  std::string repr() const;  // "<Tensor (2, 3) dtypes.float CPU>" or "<Tensor error: ...>"
  // Whether both handles are the same tensor (Python's `is`; an optimizer dedups its params).
  bool is(const Tensor& other) const { return s_ == other.s_; }

  // ** creation **
  // Shapes may be symbolic: Empty allocates for the variables' maxima (tinygrad's empty).
  // Each shape-taking op also accepts a std::vector of ints (the template overloads).
  static Tensor Empty(const Shape& shape, const TensorOpts& o = {});
  static Tensor Full(const Shape& shape, ConstValue v, const TensorOpts& o = {});
  static Tensor Zeros(const Shape& shape, const TensorOpts& o = {});
  static Tensor Ones(const Shape& shape, const TensorOpts& o = {});
  template <std::integral I>
  static Tensor Empty(const std::vector<I>& shape, const TensorOpts& o = {}) {
    return Empty(Shape(shape.begin(), shape.end()), o);
  }
  template <std::integral I>
  static Tensor Full(const std::vector<I>& shape, ConstValue v, const TensorOpts& o = {}) {
    return Full(Shape(shape.begin(), shape.end()), v, o);
  }
  template <std::integral I>
  static Tensor Zeros(const std::vector<I>& shape, const TensorOpts& o = {}) {
    return Zeros(Shape(shape.begin(), shape.end()), o);
  }
  template <std::integral I>
  static Tensor Ones(const std::vector<I>& shape, const TensorOpts& o = {}) {
    return Ones(Shape(shape.begin(), shape.end()), o);
  }
  // A 0-d const tensor (Python's Tensor(3.0)); dtype from the value kind unless given.
  static Tensor Scalar(ConstValue v, const TensorOpts& o = {});
  // A 0-d tensor of a symbolic int (tinygrad's Tensor(Variable(...).bind(3))): kernels read
  // the bound value, so one compiled kernel serves every value. int32 unless o.dtype.
  static Tensor FromSInt(const SInt& v, const TensorOpts& o = {});
  // [start, stop) by step; int32 unless a bound is a float (then float32) or o.dtype is set.
  static Tensor Arange(ConstValue start, ConstValue stop, ConstValue step = 1,
                       const TensorOpts& o = {});
  static Tensor Arange(ConstValue stop, const TensorOpts& o = {}) {
    return Arange(0, stop, 1, o);
  }
  static Tensor Eye(int64_t n, std::optional<int64_t> m = std::nullopt,
                    const TensorOpts& o = {});
  static Tensor Linspace(double start, double stop, int64_t steps, const TensorOpts& o = {});
  // The *_like creators make a tensor of this one's shape, dtype (unless given) and device. On
  // several devices they are split as this one is: each device makes its own part (its own
  // random numbers), or, when this one is whole on each, one made on the default device is
  // copied to each (tinygrad's _multi_like).
  Tensor full_like(ConstValue v) const;
  Tensor zeros_like() const { return full_like(0); }
  Tensor ones_like() const { return full_like(1); }
  Tensor rand_like(std::optional<DType> dtype = std::nullopt) const;   // [0, 1); a float dtype
  Tensor randn_like(std::optional<DType> dtype = std::nullopt) const;  // N(0, 1)
  // Host data, copied now into a buffer on the device (tinygrad's "fake realize").
  // data.size() must equal the product of shape. Needs //tinygrad/engine.
  static Tensor FromBytes(std::span<const std::byte> data, DType dtype,
                          const std::vector<int64_t>& shape, const std::string& device = DefaultDevice());
  template <typename T>
  static Tensor FromVector(std::span<const T> data, const std::vector<int64_t>& shape,
                           const std::string& device = DefaultDevice());
  template <typename T>
  static Tensor FromVector(const std::vector<T>& data, const std::vector<int64_t>& shape,
                           const std::string& device = DefaultDevice()) {
    if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> has no contiguous storage
      std::vector<std::byte> bytes;
      for (bool b : data) bytes.push_back(std::byte{b ? uint8_t{1} : uint8_t{0}});
      return FromBytes(bytes, dtypes::bool_, shape, device);
    } else {
      return FromVector<T>(std::span<const T>(data), shape, device);
    }
  }
  template <typename T>
  static Tensor FromVector(const std::vector<T>& data) {  // 1-D
    return FromVector<T>(data, {static_cast<int64_t>(data.size())});
  }
  // Random numbers: tinygrad's threefry generator, seeded by ManualSeed, with a per-device
  // counter, so the sequence of calls gives tinygrad's values for the same seed. One device
  // only, as tinygrad's rand: random tensors on several take rand_like of a sharded tensor.
  static void ManualSeed(uint64_t seed);
  static Tensor Rand(const std::vector<int64_t>& shape, const TensorOpts& o = {});   // [0, 1)
  static Tensor Randn(const std::vector<int64_t>& shape, const TensorOpts& o = {});  // N(0, 1)
  static Tensor Randint(const std::vector<int64_t>& shape, int64_t low = 0, int64_t high = 10,
                        const TensorOpts& o = {});  // int32 unless o.dtype
  static Tensor Uniform(const std::vector<int64_t>& shape, double low, double high,
                        const TensorOpts& o = {});

  // ** realization and reading (need //tinygrad/engine) **
  absl::Status realize() const;
  // All elements in row-major order, cast to T's dtype first (like numpy's astype).
  template <typename T>
  absl::StatusOr<std::vector<T>> to_vector() const;
  template <typename T>
  absl::StatusOr<T> item() const;
  // The contiguous bytes of this tensor in its own dtype.
  absl::StatusOr<std::vector<std::byte>> to_bytes() const;

  // ** autograd (autograd.h: the model, NoGradScope and an example) **
  // tinygrad's tri-state requires_grad: nullopt (None, the default: an optimizer turns it on),
  // true or false. An op's result is true if an input is, else None if an input is, else false.
  std::optional<bool> requires_grad() const;
  // Sets it for this tensor (all its handles); returns a handle to it (tinygrad's requires_grad_).
  Tensor requires_grad_(std::optional<bool> requires_grad = true) const;
  // The gradient backward() accumulated here (tinygrad's .grad); nullopt until one reaches it.
  std::optional<Tensor> grad() const;
  // Replaces .grad; it must have this tensor's shape, dtype and device.
  absl::Status set_grad(const Tensor& grad) const;
  void clear_grad() const;  // .grad = None (an optimizer's zero_grad)
  // d(this)/d(target) for each target, as new lazy tensors (tinygrad's gradient). Without
  // `grad_output` this must be a scalar. A target this tensor does not depend on gives an
  // errored tensor, or zeros with materialize_grads. Errors (every result errored): a
  // non-scalar without grad_output, a grad_output of another shape/dtype/device, a tensor that
  // is not float, a path through an op with no gradient rule (IDIV, MOD, bitwise ops).
  std::vector<Tensor> gradient(const std::vector<Tensor>& targets,
                               const std::optional<Tensor>& grad_output = std::nullopt,
                               bool materialize_grads = false) const;
  // Adds d(this)/dt to t.grad() for every live tensor t in this graph with requires_grad()
  // true (tinygrad's backward). Nothing is computed until a grad is realized. Errors as
  // gradient(); on error no grad is changed.
  absl::Status backward(const std::optional<Tensor>& grad_output = std::nullopt) const;

  // ** in-place assignment (assign.cc) **
  // tinygrad's assign: this tensor (every handle of it) becomes x, written in place into this
  // tensor's buffer when realized. x is broadcast to this shape and cast to this dtype when
  // its dtype promotes to ours; after that shape, device and dtype must match. Realizing the
  // assign writes into the buffer that this tensor held (a realized parameter keeps its
  // buffer), and kernels that read the tensor afterwards read the new values; a kernel built
  // before the assign and realized in the same schedule reads the old ones (it runs first).
  // requires_grad and .grad are kept. Returns a handle to this tensor; on an error (shape,
  // device or dtype mismatch, an errored x) this tensor is unchanged and the result is the
  // errored tensor: check it.
  //   Tensor w = Tensor::Zeros({3}).contiguous();  w.realize();
  //   w.assign(w + 1);  w.realize();   // w's buffer now holds 1, 1, 1
  Tensor assign(const Tensor& x) const;
  Tensor assign(ConstValue x) const;

  // ** training mode (training.cc) **
  // tinygrad's `with Tensor.train(mode):` as a scope: while a Train is alive on this thread,
  // training() is `mode`; scopes nest and restore the previous mode. dropout and the
  // optimizers (tinygrad/nn/optim.h) read it. Off by default.
  class Train {
   public:
    explicit Train(bool mode = true);
    ~Train();
    Train(const Train&) = delete;
    Train& operator=(const Train&) = delete;

   private:
    bool prev_;
  };
  static bool training();
  // tinygrad's dropout: in training mode, zeroes each element with probability p (a mask
  // from Rand, so the same seed drops the reference's elements) and scales the rest by
  // 1/(1-p); outside training mode it is the tensor itself. p outside [0, 1] is an error.
  Tensor dropout(double p = 0.5) const;

  Tensor contiguous() const;
  // The tensor on `device` (tinygrad's to): itself when it is there already, else a copy made
  // when realized (a COPY between the devices, through host memory). A multi-device name
  // ("(CPU, CPU:1)", MultiDeviceName) gives shard(its devices); a multi-device tensor moved to
  // one device is gathered there.
  Tensor to(const std::string& device) const;
  // tinygrad's shard: a copy of this one-device tensor on each of `devices`, whole, or with an
  // axis split along it (device i holds the i-th of len(devices) equal parts: data parallelism).
  // Ops on such tensors run on every device, each on its part; a reduce over the split axis
  // sums the devices' partial results on every device (an all-reduce). Errors: an axis that
  // does not divide evenly, a tensor already on several devices.
  Tensor shard(const std::vector<std::string>& devices,
               std::optional<int64_t> axis = std::nullopt) const;
  // shard as `like` is: its devices and split axis (to(device) for a one-device `like`).
  Tensor shard_like(const Tensor& like) const;
  // In place (tinygrad's shard_ and to_): every handle to this tensor now holds the sharded /
  // moved one (a model's weights: `for (Tensor& p : GetParameters(m)) p.shard_(devices);`);
  // to_ moves the gradient too. Returns this tensor, or the error, leaving it as it was.
  Tensor shard_(const std::vector<std::string>& devices,
                std::optional<int64_t> axis = std::nullopt) const;
  Tensor to_(const std::string& device) const;
  // The axis a multi-device tensor is split along (tinygrad's uop.axis); nullopt when whole.
  std::optional<int64_t> shard_axis() const;
  Tensor cast(DType dt) const;
  Tensor bitcast(DType dt) const;
  Tensor detach() const;

  // ** elementwise (mixin/math.py, tensor.py) **
  Tensor add(const Tensor& x) const;
  Tensor add(ConstValue x, bool reverse = false) const;
  Tensor sub(const Tensor& x) const;
  Tensor sub(ConstValue x, bool reverse = false) const;
  Tensor mul(const Tensor& x) const;
  Tensor mul(ConstValue x, bool reverse = false) const;
  Tensor div(const Tensor& x) const;  // true division: the result is float
  Tensor div(ConstValue x, bool reverse = false) const;
  // Python's // : floor for ints (correct for any divisor sign), floor(a/b) for floats.
  Tensor floordiv(const Tensor& x) const;
  Tensor floordiv(ConstValue x, bool reverse = false) const;
  Tensor idiv(const Tensor& x) const;  // truncating integer division (tinygrad's idiv)
  Tensor idiv(ConstValue x, bool reverse = false) const;
  Tensor mod(const Tensor& x) const;  // Python's %: the sign of the divisor
  Tensor mod(ConstValue x, bool reverse = false) const;
  Tensor pow(const Tensor& x) const;
  Tensor pow(ConstValue x, bool reverse = false) const;
  Tensor maximum(const Tensor& x) const;
  Tensor maximum(ConstValue x) const;
  Tensor minimum(const Tensor& x) const;
  Tensor minimum(ConstValue x) const;
  Tensor bitwise_and(const Tensor& x) const;
  Tensor bitwise_and(ConstValue x) const;
  Tensor bitwise_or(const Tensor& x) const;
  Tensor bitwise_or(ConstValue x) const;
  Tensor bitwise_xor(const Tensor& x) const;
  Tensor bitwise_xor(ConstValue x) const;
  Tensor bitwise_not() const;
  Tensor lshift(int64_t bits) const;  // unsigned dtypes: x * 2**bits
  Tensor rshift(int64_t bits) const;  // unsigned dtypes: x // 2**bits
  // self ? x : y, broadcast and promoted like tinygrad's where.
  Tensor where(const Tensor& x, const Tensor& y) const;
  Tensor where(const Tensor& x, ConstValue y) const;
  Tensor where(ConstValue x, const Tensor& y) const;
  Tensor where(ConstValue x, ConstValue y) const;
  Tensor lt(const Tensor& x) const;
  Tensor lt(ConstValue x) const;
  Tensor gt(const Tensor& x) const;
  Tensor gt(ConstValue x) const;
  Tensor le(const Tensor& x) const;
  Tensor le(ConstValue x) const;
  Tensor ge(const Tensor& x) const;
  Tensor ge(ConstValue x) const;
  Tensor eq(const Tensor& x) const;
  Tensor eq(ConstValue x) const;
  Tensor ne(const Tensor& x) const;
  Tensor ne(ConstValue x) const;
  Tensor logical_not() const;
  Tensor logical_and(const Tensor& x) const;
  Tensor logical_or(const Tensor& x) const;
  Tensor logical_xor(const Tensor& x) const;
  Tensor neg() const;
  Tensor abs() const;
  Tensor sign() const;
  Tensor exp() const;
  Tensor exp2() const;
  Tensor log() const;
  Tensor log2() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor sin() const;
  Tensor cos() const;
  Tensor tan() const;
  Tensor reciprocal() const;
  Tensor square() const;
  Tensor trunc() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor round() const;  // half to even
  Tensor clip(std::optional<ConstValue> lo, std::optional<ConstValue> hi) const;
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor relu() const;
  Tensor leaky_relu(double neg_slope = 0.01) const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor gelu() const;
  Tensor silu() const;
  Tensor softplus(double beta = 1.0) const;
  Tensor logsigmoid() const;  // log(sigmoid(x)) = -softplus(-x)
  Tensor erf() const;
  Tensor logaddexp(const Tensor& x) const;
  Tensor logaddexp(ConstValue x) const;

  // ** reductions **
  Tensor sum(const Axes& axis = {}, bool keepdim = false,
             std::optional<DType> acc_dtype = std::nullopt) const;
  Tensor prod(const Axes& axis = {}, bool keepdim = false,
              std::optional<DType> acc_dtype = std::nullopt) const;
  Tensor max(const Axes& axis = {}, bool keepdim = false) const;
  Tensor min(const Axes& axis = {}, bool keepdim = false) const;
  Tensor any(const Axes& axis = {}, bool keepdim = false) const;
  Tensor all(const Axes& axis = {}, bool keepdim = false) const;
  Tensor mean(const Axes& axis = {}, bool keepdim = false) const;
  Tensor var(const Axes& axis = {}, bool keepdim = false, double correction = 1) const;
  Tensor stddev(const Axes& axis = {}, bool keepdim = false, double correction = 1) const;
  Tensor argmax(std::optional<int64_t> axis = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> axis = std::nullopt, bool keepdim = false) const;
  Tensor softmax(int64_t axis = -1) const;
  Tensor log_softmax(int64_t axis = -1) const;
  Tensor logsumexp(const Axes& axis = {}, bool keepdim = false) const;
  Tensor cumsum(int64_t axis = 0) const;
  Tensor cummax(int64_t axis = 0) const;

  // ** movement **
  // Movement ops take SInts (ints convert implicitly; braced lists like {{0, pos}, {0, 4}} work).
  Tensor reshape(const Shape& shape) const;  // one -1 may be inferred
  Tensor permute(const std::vector<int64_t>& order) const;
  Tensor transpose(int64_t dim0 = 1, int64_t dim1 = 0) const;
  Tensor T() const { return transpose(); }
  Tensor expand(const Shape& shape) const;  // -1 keeps a dim
  // (begin, end) per dim; negative values shrink, like tinygrad.
  Tensor pad(const PadArg& padding, ConstValue value = 0.0) const;
  Tensor shrink(const PadArg& arg) const;
  template <std::integral I>
  Tensor reshape(const std::vector<I>& shape) const {
    return reshape(Shape(shape.begin(), shape.end()));
  }
  template <std::integral I>
  Tensor expand(const std::vector<I>& shape) const {
    return expand(Shape(shape.begin(), shape.end()));
  }
  template <std::integral I>
  Tensor pad(const std::vector<std::pair<I, I>>& padding, ConstValue value = 0.0) const {
    return pad(PadArg(padding.begin(), padding.end()), value);
  }
  template <std::integral I>
  Tensor shrink(const std::vector<std::pair<I, I>>& arg) const {
    return shrink(PadArg(arg.begin(), arg.end()));
  }
  Tensor flip(const Axes& axis) const;
  Tensor slice(const std::vector<TensorIndex>& indices) const;
  Tensor operator[](int64_t i) const { return slice({Index{i}}); }
  Tensor operator[](const SInt& i) const { return slice({Index{i}}); }
  Tensor operator[](const Tensor& index) const { return slice({Indices(index)}); }
  // tinygrad's __setitem__ (t[indices] = v): writes v (cast to this dtype, broadcast to the
  // selected part) into the part `indices` selects, in place, now (it realizes; needs
  // //tinygrad/engine). With tensor indices each picked position is written (of repeated ones
  // the last wins). Errors: this tensor or v requiring a gradient, a target that is a view
  // rather than a whole buffer, v that does not broadcast, indices slice() refuses.
  absl::Status setitem(const std::vector<TensorIndex>& indices, const Tensor& v) const;
  absl::Status setitem(const std::vector<TensorIndex>& indices, ConstValue v) const;
  static Tensor Cat(const std::vector<Tensor>& ts, int64_t dim = 0);
  static Tensor Stack(const std::vector<Tensor>& ts, int64_t dim = 0);
  Tensor cat(std::initializer_list<Tensor> others, int64_t dim = 0) const;
  Tensor stack(std::initializer_list<Tensor> others, int64_t dim = 0) const;
  std::vector<Tensor> split(int64_t size, int64_t dim = 0) const;
  std::vector<Tensor> split(const std::vector<int64_t>& sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  Tensor squeeze(std::optional<int64_t> dim = std::nullopt) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor unflatten(int64_t dim, const std::vector<int64_t>& sizes) const;
  Tensor repeat(const std::vector<int64_t>& repeats) const;
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt) const;
  // out[i][j] = self[index[i][j]][j] for dim 0 (and likewise for other dims); index is an int
  // tensor of the same rank, no larger than self outside `dim`.
  Tensor gather(int64_t dim, const Tensor& index) const;
  // An int tensor of class ids -> (..., num_classes) int32 with ones at the ids.
  Tensor one_hot(int64_t num_classes) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;

  // ** linear algebra / nn **
  Tensor dot(const Tensor& w, std::optional<DType> acc_dtype = std::nullopt) const;
  Tensor matmul(const Tensor& w, std::optional<DType> acc_dtype = std::nullopt) const;
  Tensor linear(const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt) const;
  Tensor conv2d(const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt,
                const Conv2dOpts& o = {}) const;
  Tensor max_pool2d(const PoolOpts& o = {}) const;
  Tensor avg_pool2d(const PoolOpts& o = {}) const;
  Tensor layernorm(const Axes& axis = -1, double eps = 1e-5) const;
  Tensor batchnorm(const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                   const Tensor& mean, const Tensor& invstd, const Axes& axis = 1) const;
  Tensor scaled_dot_product_attention(const Tensor& key, const Tensor& value,
                                      const std::optional<Tensor>& attn_mask = std::nullopt,
                                      bool is_causal = false) const;

  // ** sorting and sampling (sort.cc) **
  // tinygrad's sort: (values, int32 indices) along `dim`, by a bitonic network of tensor ops
  // (any size; the dim is padded to a power of two). Equal elements keep their original order
  // in both directions. A dim of size 0 or 1 gives the tensor itself and zero indices. Errors:
  // a 0-d tensor, a dim out of range, a symbolic shape (both results errored).
  std::pair<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  // The int32 indices of sort(dim, descending).
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  // The first k of sort(dim, descending=largest): (values, int32 indices). Errors: k outside
  // [0, size of dim], sorted=false (unsupported, as in the reference), sort's errors.
  std::pair<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                 bool sorted = true) const;
  // A random permutation of 0..n-1 (argsort of Rand(n) on o.device, so the same seed gives
  // tinygrad's permutation); int32 unless o.dtype. n < 0 is an error.
  static Tensor Randperm(int64_t n, const TensorOpts& o = {});
  // tinygrad's multinomial: num_samples indices (int32) drawn from each row of a 1-d or 2-d
  // tensor of non-negative weights (shape (num_samples) or (rows, num_samples)), by inverse cdf
  // from Rand on the default device. Without replacement only num_samples = 1 is supported.
  Tensor multinomial(int64_t num_samples = 1, bool replacement = false) const;

  // ** custom kernels (custom_kernel.cc) **
  // tinygrad's Tensor.custom_kernel: `fxn` writes one kernel in UOps (uop/custom_kernel.h) over
  // placeholders of this tensor and `others`, in that order (slot 0 is this one). Returns each
  // of them after the kernel ran: the kernel writes into their buffers, so its output is
  // usually result[0]. The function runs when the kernel is scheduled; `grad_fxn` makes it
  // differentiable. Errors (every result errored): an errored source, sources on different
  // devices, a symbolic shape, no function. A kernel the function can't write fails the
  // realize, naming it.
  std::vector<Tensor> custom_kernel(const std::vector<Tensor>& others, CustomKernelFn fxn,
                                    CustomGradFn grad_fxn = nullptr) const;

  // ** hashes on the device (hash.cc) **
  // tinygrad's keccak: each message along the last dim (its bytes, any dtype) hashed to
  // (200 - rate) / 2 bytes, uint8, in the shape of the other dims: SHA3-256 by default, with
  // hashlib's values. Errors: an unknown name, a 0-d tensor, a rate not a multiple of 8 in
  // (0, 200).
  Tensor keccak(const std::string& cfg = "sha3_256") const;
  Tensor keccak(KeccakConfig cfg) const;
  // tinygrad's hash: 16 bytes (uint8) identifying the tensor's contents: its bytes zero-padded
  // to 1 MiB chunks, each chunk's 4 KiB blocks hashed with SHAKE128 and those hashes again,
  // repeated over the chunks' hashes until one is left. Other sizes give another tree (the
  // same for the same sizes): smaller ones hash small tensors in fewer rounds. Errors: a block
  // that does not divide the chunk, a chunk not a multiple of 16 bytes or under 32.
  Tensor hash(int64_t chunk_bytes = int64_t{1} << 20, int64_t block_bytes = 4096) const;

  // ** scatter and masks (scatter.cc) **
  // scatter's reduce argument: tinygrad's 'add' and 'multiply'.
  enum class ScatterMode { kAdd, kMultiply };
  // scatter_reduce's reduce argument: "sum", "prod", "mean", "amax", "amin".
  enum class ScatterReduce { kSum, kProd, kMean, kAmax, kAmin };
  // A copy of this tensor with src's values written along `dim` at `index`: for dim 0,
  // out[index[i][j]][j] = src[i][j] (likewise for other dims); of repeated positions the last
  // wins. index: an int tensor of the same rank, no larger than src anywhere nor than this
  // tensor outside `dim`; src: the same rank and dtype as this one. Index values out of range
  // write nothing.
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  // The same with every written value `src` (in this tensor's dtype).
  Tensor scatter(int64_t dim, const Tensor& index, ConstValue src) const;
  // `src` added to / multiplied into the elements at `index` (repeated positions accumulate):
  // scatter_reduce with kSum / kProd and include_self.
  Tensor scatter(int64_t dim, const Tensor& index, ConstValue src, ScatterMode reduce) const;
  // src's values reduced into the elements at `index` (positions as in scatter); with
  // include_self the element's own value takes part, else an element some index reaches takes
  // only src's values. Elements no index reaches keep their value. kMean is a true division
  // (a float result), kSum and kProd accumulate as sum and prod do (ints in int32 or wider).
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src, ScatterReduce reduce,
                        bool include_self = true) const;
  // `value` where `mask` (broadcast) is true, else this tensor (mask.where(value, self)).
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  Tensor masked_fill(const Tensor& mask, ConstValue value) const;
  // The 1-D tensor of the elements where the bool `mask` (broadcast to this shape) is true, in
  // row-major order. The result's size depends on the data: this realizes the mask's count.
  Tensor masked_select(const Tensor& mask) const;
  // tinygrad's max_unpool2d (any number of spatial dims after (batch, channel)): each value
  // put at its flat spatial position in `indices` (max_pool2d's return_indices) of an output
  // of `output_size` (its last spatial-rank entries), or the size the pooling arguments
  // invert to; other positions are 0. kernel_size/stride/dilation: one value for every
  // spatial dim or one per dim (stride empty: the kernel); padding as PoolOpts::padding.
  Tensor max_unpool2d(const Tensor& indices, const std::vector<int64_t>& kernel_size = {2, 2},
                      const std::vector<int64_t>& stride = {},
                      const std::vector<int64_t>& dilation = {1},
                      const std::vector<int64_t>& padding = {0},
                      const std::optional<std::vector<int64_t>>& output_size = std::nullopt) const;

  // ** more elementwise math and statistics (math_extra.cc) **
  // Inverse trig and hyperbolic functions, with tinygrad's formulas (float results; ints and
  // bools are promoted): asin by Abramowitz-Stegun 4.4.46 (|error| < 2e-8 in exact math),
  // acos = pi/2 - asin, atan = asin(x / sqrt(1 + x^2)), the rest through exp, log and sqrt
  // (so sinh/cosh overflow to inf past |x| ~ 89, and atanh(+-1) is +-inf).
  Tensor asin() const;
  Tensor acos() const;
  Tensor atan() const;
  Tensor sinh() const;
  Tensor cosh() const;
  Tensor asinh() const;
  Tensor acosh() const;
  Tensor atanh() const;
  // self + (end - self) * weight. A uint8 tensor with a Tensor weight uses tinygrad's 7-bit
  // fixed-point weight and stays uint8.
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor lerp(const Tensor& end, ConstValue weight) const;
  // |self| with the sign of `other` (broadcast, in self's dtype; -0.0 counts as positive).
  Tensor copysign(const Tensor& other) const;
  Tensor copysign(ConstValue other) const;
  // Neither inf nor NaN (bool).
  Tensor isfinite() const;
  // |self - other| <= atol + rtol * |other| for finite values, equal infinities, and NaN with
  // NaN when equal_nan (a bool tensor of the broadcast shape).
  Tensor isclose(const Tensor& other, double rtol = 1e-5, double atol = 1e-8,
                 bool equal_nan = false) const;
  // isclose(...).all(), realized (needs //tinygrad/engine).
  absl::StatusOr<bool> allclose(const Tensor& other, double rtol = 1e-5, double atol = 1e-8,
                                bool equal_nan = false) const;
  // Activations (tinygrad's formulas and defaults).
  Tensor elu(double alpha = 1.0) const;
  Tensor celu(double alpha = 1.0) const;
  Tensor selu(double alpha = 1.67326, double gamma = 1.0507) const;
  Tensor mish() const;       // x * tanh(softplus(x))
  Tensor softsign() const;   // x / (1 + |x|)
  Tensor hardsigmoid(double alpha = 1.0 / 6, double beta = 0.5) const;
  Tensor hardswish() const;  // x * relu6(x + 3) / 6
  Tensor hardtanh(ConstValue min_val = -1, ConstValue max_val = 1) const;  // clip
  Tensor relu6() const;
  Tensor swish() const;       // silu
  Tensor quick_gelu() const;  // x * sigmoid(1.702 x)
  // (var, mean) and (stddev, mean) over `axis` (torch's var_mean / std_mean); a bad axis
  // errors both.
  std::pair<Tensor, Tensor> var_mean(const Axes& axis = {}, bool keepdim = false,
                                     double correction = 1) const;
  std::pair<Tensor, Tensor> std_mean(const Axes& axis = {}, bool keepdim = false,
                                     double correction = 1) const;
  // Cumulative product along `axis` (in the tensor's dtype; two stages past 512 elements, as
  // cumsum).
  Tensor cumprod(int64_t axis) const;
  // log(cumsum(exp(x))) along `axis`, stable for large values (float result).
  Tensor logcumsumexp(int64_t axis = 0) const;

  // ** more movement: roll, diagonals, grids, windows, einsum, interpolate (shape_extra.cc) **
  // A circular shift: dim dims[i] rolled by shifts[i] (elements pushed past the end come back at
  // the start; a negative shift rolls the other way). Without dims the flattened tensor is
  // rolled by its one shift and reshaped back. As in the reference, a dim named twice takes its
  // last shift. Errors: shifts and dims of different lengths, a dim out of range, a dim of size
  // 0, a symbolic shape.
  Tensor roll(const std::vector<int64_t>& shifts,
              const std::optional<std::vector<int64_t>>& dims = std::nullopt) const;
  Tensor roll(int64_t shift, std::optional<int64_t> dim = std::nullopt) const;
  // A 1-D tensor of n elements -> the (n, n) tensor with them on its diagonal, zeros elsewhere.
  Tensor diag() const;
  // A square (n, n) tensor -> its n diagonal elements (other shapes are an error).
  Tensor diagonal() const;
  // Meshgrid's indexing: kIJ (matrix: output dim i follows tensor i) or kXY (Cartesian: the
  // first two tensors' dims swap).
  enum class MeshIndexing { kIJ, kXY };
  // Coordinate grids: each tensor (a scalar or 1-D; others are flattened) laid along its own
  // dim and broadcast to the shape of all of them. One tensor gives itself; none is an error.
  static std::vector<Tensor> Meshgrid(const std::vector<Tensor>& ts,
                                      MeshIndexing indexing = MeshIndexing::kIJ);
  // Windows of `size` elements every `step` along `dim`: that dim becomes two,
  // (n_windows, size), n_windows = (shape[dim] - size) / step + 1. Errors: size < 0 or past the
  // dim, step <= 0, a dim out of range.
  Tensor unfold(int64_t dim, int64_t size, int64_t step) const;
  // Padded with zeros at the end of each dim up to `shape` (one entry per dim; -1 keeps a
  // dim; an entry below the current size shrinks it, as the reference's negative pad).
  Tensor pad_to(const std::vector<int64_t>& shape) const;
  // Einstein summation (tinygrad's einsum): "ij,jk->ik" (explicit output), "ij,jk" (implicit:
  // the letters seen once, sorted), a letter repeated in one operand takes its diagonal
  // ("ii->i", "ii->" the trace), "..." stands for the dims the letters leave (aligned right;
  // equal sizes only: a 1 does not broadcast, as in the reference). Spaces are ignored. The
  // sum accumulates in acc_dtype when given. Errors (the formula is parsed defensively): bad
  // characters or arrows, a misplaced '.', an operand count or an operand rank the formula
  // does not match, one letter with two sizes, an output letter no input has or repeated.
  // Unlike the reference, a repeated letter that is not in an operand's last two dims takes
  // the right diagonal (the reference's result comes out transposed there).
  static Tensor Einsum(std::string_view formula, const std::vector<Tensor>& operands,
                       std::optional<DType> acc_dtype = std::nullopt);
  // interpolate's mode: tinygrad's "linear", "nearest" and "nearest-exact".
  enum class InterpolateMode { kLinear, kNearest, kNearestExact };
  // Resized to `size` in its last size.size() dims (the ones before are batch dims): linear
  // (bilinear, trilinear... by the dims of `size`) or nearest sampling, computed in float32 and
  // cast back to this dtype. Errors: an empty `size` or one longer than ndim, a size < 1 (< 2
  // with align_corners), align_corners outside kLinear, an unknown mode, a symbolic shape.
  Tensor interpolate(const std::vector<int64_t>& size,
                     InterpolateMode mode = InterpolateMode::kLinear,
                     bool align_corners = false) const;
  // A copy in a new buffer (written when realized), with a clone of .grad when there is one.
  Tensor clone() const;
  // An uninitialized tensor of this shape, with this dtype and device unless given (split
  // across devices as this one is).
  Tensor empty_like(std::optional<DType> dtype = std::nullopt,
                    std::optional<std::string> device = std::nullopt) const;

  // ** linear algebra: qr, svd, newton_schulz (linalg.cc) **
  // tinygrad's qr: (Q, R) by Householder reflections over the last two dims (batched over the
  // leading ones): Q (..., m, m) orthogonal, R (..., m, n) upper triangular up to rounding,
  // Q R = self. Errors (both errored): fewer than 2 dims, a non-float dtype, a symbolic shape.
  std::pair<Tensor, Tensor> qr() const;
  // tinygrad's svd: (U, S, Vh) with self = U diag(S) Vh, S (..., min(m, n)) descending, by
  // one-sided Jacobi rotations (the reference's fixed round count) after a qr. full_matrices:
  // U (..., m, m) and Vh (..., n, n), else (..., m, k) and (..., k, n), k = min(m, n). Errors
  // (all three errored): fewer than 2 dims, min(m, n) < 2 (the reference fails there too), a
  // non-float dtype, a symbolic shape.
  std::tuple<Tensor, Tensor, Tensor> svd(bool full_matrices = true) const;
  // tinygrad's newton_schulz: G = self / (||self||_F + eps) over the last two dims, then `steps`
  // times G = sum_i params[i] (G G^T)^i G (an odd polynomial that pushes the singular values
  // toward 1; a tall matrix is done transposed). Errors: fewer than 2 dims, no params with
  // steps > 0.
  Tensor newton_schulz(int64_t steps, const std::vector<double>& params, double eps = 1.0e-7) const;

  // tinygrad's _pool: (..., *k_) windows moved to the end (used by conv2d and the pools).
  Tensor pool(const std::vector<int64_t>& k, const std::vector<int64_t>& stride,
              const std::vector<int64_t>& dilation) const;

 private:
  explicit Tensor(std::shared_ptr<State> s) : s_(std::move(s)) {}
  absl::StatusOr<std::vector<std::byte>> ReadAs(DType dt) const;
  friend struct tensor_internal::Access;
  std::shared_ptr<State> s_;
};

// ** operators: Tensor op Tensor, and a number on either side (tinygrad's dunder methods) **
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, ConstValue b);
Tensor operator+(ConstValue a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, ConstValue b);
Tensor operator-(ConstValue a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, ConstValue b);
Tensor operator*(ConstValue a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, ConstValue b);
Tensor operator/(ConstValue a, const Tensor& b);
Tensor operator%(const Tensor& a, const Tensor& b);
Tensor operator%(const Tensor& a, ConstValue b);
Tensor operator%(ConstValue a, const Tensor& b);
Tensor operator&(const Tensor& a, const Tensor& b);
Tensor operator&(const Tensor& a, ConstValue b);
Tensor operator|(const Tensor& a, const Tensor& b);
Tensor operator|(const Tensor& a, ConstValue b);
Tensor operator^(const Tensor& a, const Tensor& b);
Tensor operator^(const Tensor& a, ConstValue b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, ConstValue b);
Tensor operator<=(const Tensor& a, const Tensor& b);
Tensor operator<=(const Tensor& a, ConstValue b);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, ConstValue b);
Tensor operator>=(const Tensor& a, const Tensor& b);
Tensor operator>=(const Tensor& a, ConstValue b);
Tensor operator-(const Tensor& a);
Tensor operator~(const Tensor& a);

// Realizes several tensors in one schedule.
absl::Status Realize(const std::vector<Tensor>& ts);

// ** template definitions **
template <typename E>
Tensor Tensor::FromVector(std::span<const E> data, const std::vector<int64_t>& shape,
                          const std::string& device) {
  if constexpr (std::is_same_v<E, bool>) {
    std::vector<std::byte> bytes(data.size());
    for (size_t i = 0; i < data.size(); ++i) bytes[i] = std::byte{data[i] ? uint8_t{1} : uint8_t{0}};
    return FromBytes(bytes, dtypes::bool_, shape, device);
  } else {
    return FromBytes(std::as_bytes(data), DTypeOf<E>(), shape, device);
  }
}

template <typename E>
absl::StatusOr<std::vector<E>> Tensor::to_vector() const {
  absl::StatusOr<std::vector<std::byte>> bytes = ReadAs(DTypeOf<E>());
  if (!bytes.ok()) return bytes.status();
  std::vector<E> out(bytes->size() / DTypeOf<E>().itemsize());
  if constexpr (std::is_same_v<E, bool>) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = (*bytes)[i] != std::byte{0};
  } else {
    if (!out.empty()) std::memcpy(out.data(), bytes->data(), bytes->size());
  }
  return out;
}

template <typename E>
absl::StatusOr<E> Tensor::item() const {
  if (ok() && numel() != 1)
    return absl::InvalidArgumentError("item: tensor must have one element, shape has " +
                                      std::to_string(numel()));
  absl::StatusOr<std::vector<E>> v = to_vector<E>();
  if (!v.ok()) return v.status();
  return (*v)[0];
}

}  // namespace tg

#endif  // TINYGRAD_TENSOR_TENSOR_H_
