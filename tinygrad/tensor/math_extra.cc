// File: tinygrad/tensor/math_extra.cc
// More elementwise math, activations and statistics: inverse trig and hyperbolic functions,
// lerp, copysign, isfinite/isclose (allclose, which realizes, is in io.cc), the ELU family and
// the hard activations, var_mean/std_mean, cumprod and logcumsumexp.
// Port of tinygrad/tensor.py (asin, acos, atan, sinh, cosh, atanh, asinh, acosh, lerp, elu,
// celu, selu, mish, softsign, copysign, isclose, allclose, var_mean, std_mean, cumprod,
// logcumsumexp) and tinygrad/mixin/math.py (isfinite, relu6, hardswish, hardsigmoid, hardtanh,
// quick_gelu, swish), with the same formulas in the same order, so results match the
// reference to float rounding and gradients flow through the same graph.
//
// Deliberate divergence: logcumsumexp resolves its axis before the reference's early return
// for a 0-d tensor, so a 0-d tensor with an axis outside [-1, 0] is an error, not itself.
#include <initializer_list>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Broadcasted;
using tensor_internal::PolyN;
using tensor_internal::ResolveAxes;
using tensor_internal::ResolveDim;

namespace {

// The shapes of lerp's tensors must broadcast together; the error names lerp (the reference
// fails in its subtraction or product).
absl::Status LerpShapes(const Tensor& self, const Tensor& end, const Tensor* weight) {
  absl::StatusOr<Shape> s = tensor_internal::BroadcastShape("lerp", self.sshape(), end.sshape());
  if (s.ok() && weight) s = tensor_internal::BroadcastShape("lerp", *s, weight->sshape());
  return s.status();
}

// self + (end - self) * weight, the float path of lerp (weight a Tensor or a number).
template <typename W>
Tensor LerpFloat(const Tensor& self, const Tensor& end, const W& weight) {
  return self + (end - self) * weight;
}

Tensor CopySign(const Tensor& self, const tensor_internal::Operand& other) {
  TG_TENSOR_RETURN_IF_ERROR(&self);
  auto xy = Broadcasted("copysign", self, other);
  if (!xy.ok()) return Tensor::Error(xy.status());
  const Tensor& o = xy->second;
  return o.lt(0).where(-self.abs(), self.abs()) + o * 0;
}

// The error both results of var_mean/std_mean carry (or ok).
absl::Status CheckStatAxes(const std::string& op, const Tensor& t, const Axes& axis) {
  if (!t.ok()) return t.status();
  return ResolveAxes(op, axis, t.ndim()).status();
}

}  // namespace

// ** inverse trig and hyperbolic functions **

Tensor Tensor::asin() const {
  // Abramowitz and Stegun 4.4.46: asin|x| = pi/2 - sqrt(1 - |x|) * poly(|x|).
  Tensor x = std::numbers::pi / 2 -
             (1.0 - abs()).sqrt() *
                 PolyN(abs(), {-0.0012624911, 0.0066700901, -0.0170881256, 0.0308918810,
                               -0.0501743046, 0.0889789874, -0.2145988016, 1.5707963050});
  return sign() * x;
}
Tensor Tensor::acos() const { return std::numbers::pi / 2 - asin(); }
Tensor Tensor::atan() const { return (*this / (1 + *this * *this).sqrt()).asin(); }
Tensor Tensor::sinh() const { return (exp() - neg().exp()) / 2; }
Tensor Tensor::cosh() const { return (exp() + neg().exp()) / 2; }
Tensor Tensor::atanh() const { return ((1 + *this) / (1 - *this)).log() / 2; }
Tensor Tensor::asinh() const { return (*this + (square() + 1).sqrt()).log(); }
Tensor Tensor::acosh() const { return (*this + (square() - 1).sqrt()).log(); }

// ** interpolation, signs and closeness **

Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &end, &weight);
  if (absl::Status st = LerpShapes(*this, end, &weight); !st.ok()) return Error(st);
  if (dtype() == dtypes::uint8) {
    // The reference's 7-bit fixed-point weight for images: no float math on the data.
    constexpr int kPrec = 7;
    Tensor w = (weight * (1 << kPrec) + 0.5).cast(dtypes::int16);
    Tensor step = ((end - *this).cast(dtypes::int8) * w + (1 << (kPrec - 1)))
                      .cast(dtypes::uint16)
                      .rshift(kPrec);
    return (*this + step).cast(dtypes::uint8);
  }
  return LerpFloat(*this, end, weight);
}
Tensor Tensor::lerp(const Tensor& end, ConstValue weight) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &end);
  if (absl::Status st = LerpShapes(*this, end, nullptr); !st.ok()) return Error(st);
  return LerpFloat(*this, end, weight);
}

Tensor Tensor::copysign(const Tensor& other) const { return CopySign(*this, other); }
Tensor Tensor::copysign(ConstValue other) const { return CopySign(*this, other); }

Tensor Tensor::isfinite() const { return (isinf() | isnan()).logical_not(); }

Tensor Tensor::isclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &other);
  // The reference fails on shapes that don't broadcast; name isclose in that error.
  if (absl::StatusOr<Shape> s =
          tensor_internal::BroadcastShape("isclose", sshape(), other.sshape());
      !s.ok())
    return Error(s.status());
  Tensor finite_close =
      isfinite() & other.isfinite() & ((*this - other).abs() <= atol + rtol * other.abs());
  Tensor infinite_close = (isinf() | other.isinf()) & eq(other);
  Tensor nan_close = (isnan() & other.isnan()) & equal_nan;
  return finite_close | infinite_close | nan_close;
}


// ** activations **

Tensor Tensor::elu(double alpha) const { return relu() - alpha * (1 - exp()).relu(); }
Tensor Tensor::celu(double alpha) const {
  return maximum(0) + (alpha * ((*this / alpha).exp() - 1)).minimum(0);
}
Tensor Tensor::selu(double alpha, double gamma) const {
  return gamma * ge(0).detach().where(*this, alpha * (exp() - 1));
}
Tensor Tensor::mish() const { return *this * softplus().tanh(); }
Tensor Tensor::softsign() const { return *this / (1 + abs()); }
Tensor Tensor::relu6() const { return relu() - (*this - 6).relu(); }
Tensor Tensor::hardswish() const { return *this * (*this + 3).relu6() * (1.0 / 6); }
Tensor Tensor::hardsigmoid(double alpha, double beta) const {
  return (alpha * *this + beta).relu() - (alpha * *this + beta - 1).relu();
}
Tensor Tensor::hardtanh(ConstValue min_val, ConstValue max_val) const {
  return clip(min_val, max_val);
}
Tensor Tensor::swish() const { return *this * sigmoid(); }
Tensor Tensor::quick_gelu() const { return *this * (*this * 1.702).sigmoid(); }

// ** statistics **

std::pair<Tensor, Tensor> Tensor::var_mean(const Axes& axis, bool keepdim,
                                           double correction) const {
  if (absl::Status st = CheckStatAxes("var_mean", *this, axis); !st.ok())
    return {Error(st), Error(st)};
  return {var(axis, keepdim, correction), mean(axis, keepdim)};
}

std::pair<Tensor, Tensor> Tensor::std_mean(const Axes& axis, bool keepdim,
                                           double correction) const {
  if (absl::Status st = CheckStatAxes("std_mean", *this, axis); !st.ok())
    return {Error(st), Error(st)};
  return {stddev(axis, keepdim, correction), mean(axis, keepdim)};
}

Tensor Tensor::cumprod(int64_t axis) const {
  return tensor_internal::SplitCumAlu("cumprod", *this, axis, Ops::MUL);
}

Tensor Tensor::logcumsumexp(int64_t axis_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::NeedsIntShape("logcumsumexp", *this); !st.ok())
    return Error(st);
  absl::StatusOr<int64_t> axis = ResolveDim("logcumsumexp", axis_in, ndim());
  if (!axis.ok()) return Error(axis.status());
  if (ndim() == 0) return *this;
  // Row i of an (n, n) lower-triangular mask sums exp(x[j] - cummax[i]) over j <= i.
  Tensor x = transpose(*axis, -1);
  int64_t n = x.shape().back();
  std::vector<int64_t> wide = x.shape();
  wide.insert(wide.end() - 1, n);
  Tensor x_wide = x.unsqueeze(-2).expand(wide);
  Tensor x_cummax = x.cummax(-1);
  Tensor mask = Ones({n, n}, {.device = device()}).requires_grad_(false).tril();
  Tensor ret = mask.where(x_wide - x_cummax.unsqueeze(-1), tensor_internal::DTypeMin(dtype()))
                   .exp()
                   .sum(-1)
                   .log() +
               x_cummax;
  return ret.transpose(-1, *axis);
}

}  // namespace tg
