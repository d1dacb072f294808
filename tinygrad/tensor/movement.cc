// File: tinygrad/tensor/movement.cc
// Movement ops: reshape/permute/expand/pad/shrink/flip, slicing, cat/stack/split/chunk,
// squeeze/unsqueeze/flatten/repeat, tril/triu and the _pool window view.
// Port of tinygrad/mixin/movement.py and tinygrad/tensor.py (pad, _getitem for slices and
// ints, cat, stack, split, chunk, _tri). Inputs are validated here; the UOp builders
// CHECK-fail on invalid arguments.
#include <cstdint>
#include <algorithm>
#include <optional>
#include <numeric>
#include <string>
#include <vector>

#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::CeilDiv;
using tensor_internal::Err;
using tensor_internal::Prod;
using tensor_internal::ResolveDim;
using tensor_internal::ShapeStr;
using tensor_internal::ToShape;

#define TG_ASSIGN_DIM(var, name, dim, ndim, ...)                                    \
  absl::StatusOr<int64_t> var##_or = ResolveDim(name, dim, ndim, ##__VA_ARGS__);  \
  if (!var##_or.ok()) return Tensor::Error(var##_or.status());                      \
  int64_t var = *var##_or

Tensor Tensor::reshape(const Shape& shape_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::CheckSInts("reshape", shape_in); !st.ok()) return Error(st);
  Shape ns = shape_in;
  const Shape& s = sshape();
  int64_t infer = std::count(ns.begin(), ns.end(), SInt(-1));
  if (infer > 1) return Err("reshape", "only one dimension can be inferred using -1, got " + ShapeStr(ns));
  for (const SInt& d : ns)
    if (d.is_int() && d.value() < -1) return Err("reshape", "negative dimension in " + ShapeStr(ns));
  Shape without_inferred = ns;  // the products below must fit an int64
  std::replace(without_inferred.begin(), without_inferred.end(), SInt(-1), SInt(1));
  if (absl::Status st = tensor_internal::CheckNumel("reshape", without_inferred); !st.ok()) return Error(st);
  if (infer) {
    Shape known_dims;
    for (const SInt& d : ns)
      if (d != SInt(-1)) known_dims.push_back(d);
    SInt known = tg::Prod(known_dims), total = tg::Prod(s);
    if (!known.is_int() || !total.is_int())
      return Err("reshape", "cannot infer -1 with symbolic sizes, " + ShapeStr(s) + " -> " + ShapeStr(ns));
    if (known.value() == 0) return Err("reshape", "cannot infer -1 with a 0 dimension in " + ShapeStr(ns));
    for (SInt& d : ns)
      if (d == SInt(-1)) d = total.value() / known.value();
  }
  // Symbolic products compare structurally (the UOp builder's check): (pos, 4) -> (pos*4,)
  // works, a rearranged product of the same value does not.
  if (tg::Prod(s) != tg::Prod(ns))
    return Err("reshape", "size mismatch, can't reshape " + ShapeStr(s) + " -> " + ShapeStr(shape_in));
  return ns == s ? *this : tensor_internal::Derived(uop().reshape(ns), {this});
}

Tensor Tensor::permute(const std::vector<int64_t>& order) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  std::vector<int64_t> o;
  for (int64_t d : order) {
    TG_ASSIGN_DIM(r, "permute", d, ndim());
    o.push_back(r);
  }
  std::vector<int64_t> sorted = o, iota(ndim());
  std::sort(sorted.begin(), sorted.end());
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted != iota) return Err("permute", "order is not a valid permutation, got " + ShapeStr(order));
  return o == iota ? *this : tensor_internal::Derived(uop().permute(o), {this});
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  TG_ASSIGN_DIM(a, "transpose", dim0, ndim());
  TG_ASSIGN_DIM(b, "transpose", dim1, ndim());
  if (ndim() == 0) return *this;  // only (0, 0) or (-1, -1) resolve for a 0-d tensor
  std::vector<int64_t> order(ndim());
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[a], order[b]);
  return permute(order);
}

Tensor Tensor::expand(const Shape& shape_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  const Shape& s = sshape();
  Shape ns = shape_in;
  if (ns.size() < s.size())
    return Err("expand", "cannot expand " + ShapeStr(s) + " to fewer dimensions " + ShapeStr(ns));
  size_t off = ns.size() - s.size();
  for (size_t i = 0; i < ns.size(); ++i)
    if (ns[i] == SInt(-1)) ns[i] = i >= off ? s[i - off] : SInt(1);
  return tensor_internal::BroadcastTo(*this, ns);
}

// Would `x >= 0` hold for some values of its variables (tinygrad's resolve(x >= 0))?
static bool MaybeNonNeg(const SInt& x) { return x.vmax() >= 0; }
// Does `x >= 0` hold for all values (so a pad needs no shrink first)?
static bool NonNeg(const SInt& x) { return x.vmin() >= 0; }
// min(x, 0); symbolic pads are non-negative here.
static SInt SMin0(const SInt& x) { return x.is_int() ? SInt(std::min<int64_t>(x.value(), 0)) : SInt(0); }

// A (begin, end) pair and its dim's size under the variables' bound values, for the checks a
// symbolic range can't do.
struct BoundPair {
  int64_t begin, end, size;
};
// Per dim: the bound pair, or nullopt when a variable in it is unbound. Errors: bindings that
// conflict or fall outside their ranges.
static absl::StatusOr<std::vector<std::optional<BoundPair>>> BoundPairs(const std::string& op,
                                                                        const Shape& s,
                                                                        const PadArg& p) {
  Shape all = s;
  for (const auto& [b, e] : p) all.insert(all.end(), {b, e});
  absl::StatusOr<tensor_internal::VarVals> vals = tensor_internal::Bindings(all);
  if (!vals.ok()) return absl::InvalidArgumentError(absl::StrCat(op, ": ", vals.status().message()));
  std::vector<std::optional<BoundPair>> out;
  for (size_t i = 0; i < s.size(); ++i) {
    absl::StatusOr<int64_t> b = tensor_internal::EvalSInt(p[i].first, *vals),
                            e = tensor_internal::EvalSInt(p[i].second, *vals),
                            d = tensor_internal::EvalSInt(s[i], *vals);
    if (b.ok() && e.ok() && d.ok()) out.push_back(BoundPair{*b, *e, *d});
    else out.push_back(std::nullopt);
  }
  return out;
}

Tensor Tensor::pad(const PadArg& px, ConstValue value) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::CheckPads("pad", px); !st.ok()) return Error(st);
  const Shape& s = sshape();
  if (px.size() != s.size())
    return Err("pad", absl::StrCat("padding length ", px.size(), " != ndim ", s.size()));
  absl::StatusOr<std::vector<std::optional<BoundPair>>> bound = BoundPairs("pad", s, px);
  if (!bound.ok()) return Error(bound.status());
  Shape padded_shape;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto& [b, e] = px[i];
    int64_t n = 0;
    if (s[i].is_int() && b.is_int() && e.is_int() &&
        (__builtin_add_overflow(s[i].value(), b.value(), &n) || __builtin_add_overflow(n, e.value(), &n)))
      return Err("pad", absl::StrCat("padding (", b.value(), ", ", e.value(), ") of dim ", i, " of ",
                                     ShapeStr(s), " overflows an int64"));
    padded_shape.push_back(s[i].is_int() && b.is_int() && e.is_int() ? SInt(n) : s[i] + b + e);
  }
  if (absl::Status st = tensor_internal::CheckNumel("pad", padded_shape); !st.ok()) return Error(st);
  bool any_neg = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto& [b, e] = px[i];
    if (const auto& v = (*bound)[i];
        v && (v->size + v->begin + v->end < 0 || -v->begin > v->size || -v->end > v->size))
      return Err("pad", absl::StrCat("padding (", v->begin, ", ", v->end, ") is invalid for dim ",
                                     i, " of ", ShapeStr(s)));
    if ((!b.is_int() && !NonNeg(b)) || (!e.is_int() && !NonNeg(e)))
      return Err("pad", absl::StrCat("a symbolic pad must be non-negative, got (", b.repr(), ", ",
                                     e.repr(), ") for dim ", i));
    any_neg |= !NonNeg(b) || !NonNeg(e);
    if (!MaybeNonNeg(s[i] + b + e) || !MaybeNonNeg(s[i] + b) || !MaybeNonNeg(s[i] + e))
      return Err("pad", absl::StrCat("padding (", b.repr(), ", ", e.repr(), ") is invalid for dim ",
                                     i, " of ", ShapeStr(s)));
  }
  Tensor x = *this;
  PadArg pads = px;
  if (any_neg) {  // negative (int) pads shrink first
    PadArg sh;
    for (size_t i = 0; i < s.size(); ++i) {
      const auto& [b, e] = px[i];
      SInt hi = e.is_int() && e.value() < 0 ? s[i] + e : s[i];
      sh.emplace_back(SInt(0) - SMin0(b), hi);
      pads[i] = {NonNeg(b) ? b : SInt(0), NonNeg(e) ? e : SInt(0)};
    }
    x = x.shrink(sh);
    TG_TENSOR_RETURN_IF_ERROR(&x);
  }
  Tensor padded = tensor_internal::Derived(x.uop().pad(pads), {&x});
  if (NumEq(value, ConstValue(0))) return padded;
  // Non-zero fill: where the padded ones mask is 0, put `value`.
  Tensor ones = x.ones_like();
  Tensor mask = tensor_internal::Derived(ones.uop().pad(pads), {&ones});
  return padded + mask.where(0, value);
}

namespace tensor_internal {
Tensor PadFlat(const Tensor& t, const std::vector<int64_t>& flat, ConstValue value) {
  TG_TENSOR_RETURN_IF_ERROR(&t);
  if (flat.size() % 2 != 0) return Err("pad", "flat padding must have an even number of pads");
  int64_t nd = t.ndim();
  if (static_cast<int64_t>(flat.size()) / 2 > nd)
    return Err("pad", absl::StrCat("padding of length ", flat.size(), " for ", nd, " dims"));
  std::vector<std::pair<int64_t, int64_t>> px(nd, {0, 0});
  // (left, right, top, bottom, ...) pads the last dim first.
  for (size_t i = 0; i < flat.size() / 2; ++i) px[nd - 1 - i] = {flat[2 * i], flat[2 * i + 1]};
  return t.pad(px, value);
}
}  // namespace tensor_internal

Tensor Tensor::shrink(const PadArg& arg) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::CheckPads("shrink", arg); !st.ok()) return Error(st);
  const Shape& s = sshape();
  if (arg.size() != s.size())
    return Err("shrink", absl::StrCat("arg length ", arg.size(), " != ndim ", s.size()));
  absl::StatusOr<std::vector<std::optional<BoundPair>>> bound = BoundPairs("shrink", s, arg);
  if (!bound.ok()) return Error(bound.status());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto& [b, e] = arg[i];
    // Symbolic bounds must fit for some values (tinygrad's resolve) and, where every variable
    // is bound, for the bound values.
    const auto& v = (*bound)[i];
    if (!MaybeNonNeg(b) || !MaybeNonNeg(e - b) || !MaybeNonNeg(s[i] - e) ||
        (v && (v->begin < 0 || v->end > v->size || v->begin > v->end))) {
      std::string bound_str = v && !(b.is_int() && e.is_int() && s[i].is_int())
                                  ? absl::StrCat(" (bound: (", v->begin, ", ", v->end, ") of ", v->size, ")")
                                  : "";
      return Err("shrink", absl::StrCat("(", b.repr(), ", ", e.repr(), ") out of range for dim ", i,
                                        " of ", ShapeStr(s), bound_str));
    }
  }
  return tensor_internal::Derived(uop().shrink(arg), {this});
}

Tensor Tensor::flip(const Axes& axis) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (axis.all()) return Err("flip", "needs explicit axes");
  std::vector<bool> f(ndim(), false);
  for (int64_t a : axis.list()) {
    TG_ASSIGN_DIM(d, "flip", a, ndim());
    if (ndim() == 0) return Err("flip", "a 0-d tensor has no axis to flip");
    if (f[d]) return Err("flip", absl::StrCat("dim ", d, " can appear at most once"));
    f[d] = true;
  }
  return tensor_internal::Derived(uop().flip(f), {this});
}

Indices::Indices(const Tensor& index) : index(std::make_shared<const Tensor>(index)) {}

Tensor tensor_internal::MaskedSetitem(const Tensor& target, Tensor values, Tensor mask,
                                      const std::vector<int64_t>& axes) {
  for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
    std::vector<Tensor> ms = mask.split(1, *a), vs = values.split(1, *a);
    if (ms.empty() || vs.size() != ms.size()) return Err("setitem", "no positions to write along a dim");
    Tensor m = ms[0], val = vs[0];
    for (size_t k = 1; k < ms.size(); ++k) {
      val = ms[k].where(vs[k], val);
      m = m.logical_or(ms[k]);
    }
    mask = m;
    values = val;
  }
  for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
    mask = mask.squeeze(*a);
    values = values.squeeze(*a);
  }
  return mask.where(values, target);
}

// The tensor-indexing half of tinygrad's _getitem: `x` (`self` after the other indices)
// indexed at `taken` (dim, positions) by one-hot masks of the broadcast positions, summed over
// the dims; with `v` (setitem), `self` with v written at the picked positions instead.
static Tensor TakeAlong(const Tensor& self, const Tensor& x,
                        const std::vector<std::pair<int64_t, Tensor>>& taken, const Tensor* v) {
  TG_TENSOR_RETURN_IF_ERROR(&x);
  for (const auto& [d, t] : taken) TG_TENSOR_RETURN_IF_ERROR(&t);
  Shape big = taken[0].second.sshape();
  for (size_t k = 1; k < taken.size(); ++k) {
    absl::StatusOr<Shape> b = tensor_internal::BroadcastShape("slice", big, taken[k].second.sshape());
    if (!b.ok()) return Err("slice", absl::StrCat("cannot broadcast indices: ", b.status().message()));
    big = *b;
  }
  const Shape& xs = x.sshape();
  const int64_t first = taken[0].first, nbig = static_cast<int64_t>(big.size()), nx = x.ndim();
  Shape pre_reduce(xs.begin(), xs.begin() + first);
  pre_reduce.insert(pre_reduce.end(), big.begin(), big.end());
  pre_reduce.insert(pre_reduce.end(), xs.begin() + first, xs.end());
  std::optional<Tensor> mask;
  for (const auto& [d, t] : taken) {
    Shape ts = t.sshape();
    ts.resize(ts.size() + static_cast<size_t>(nx - first), SInt(1));
    // indices of fewer dims than the broadcast shape line up at its end
    Tensor m = tensor_internal::OneHotAlongDim(tensor_internal::BroadcastTo(t.reshape(ts), pre_reduce), xs[d].value(), d - nx);
    mask = mask ? *mask * m : m;
  }
  Shape reshape_arg(xs.begin(), xs.begin() + first);
  reshape_arg.resize(reshape_arg.size() + static_cast<size_t>(nbig), SInt(1));
  reshape_arg.insert(reshape_arg.end(), xs.begin() + first, xs.end());
  std::vector<int64_t> sum_axes;
  for (const auto& [d, t] : taken) sum_axes.push_back(d + nbig);
  Tensor out = mask->where(x.reshape(reshape_arg), 0).sum(sum_axes, false, x.dtype());
  // indices on dims apart from each other: their dims go first (numpy's rule)
  bool adjacent = true;
  for (size_t k = 1; k < taken.size(); ++k) adjacent &= taken[k].first == taken[k - 1].first + 1;
  const bool permuted = first != 0 && taken.size() != 1 && !adjacent;
  if (permuted) {
    std::vector<int64_t> order;
    for (int64_t k = first; k < first + nbig; ++k) order.push_back(k);
    for (int64_t k = 0; k < first; ++k) order.push_back(k);
    for (int64_t k = first + nbig; k < out.ndim(); ++k) order.push_back(k);
    out = out.permute(order);
    mask = mask->permute(order);
  }
  if (v == nullptr) return out;
  TG_TENSOR_RETURN_IF_ERROR(&out);
  absl::StatusOr<Shape> vshape = tensor_internal::BroadcastShape("setitem", out.sshape(), v->sshape());
  if (!vshape.ok()) return Tensor::Error(vshape.status());
  Tensor vb = tensor_internal::BroadcastTo(v->cast(self.dtype()), *vshape);
  for (int64_t a : sum_axes) vb = vb.unsqueeze(a);
  std::vector<int64_t> axes;
  for (int64_t k = permuted ? 0 : first; k < (permuted ? 0 : first) + nbig; ++k) axes.push_back(k);
  return tensor_internal::MaskedSetitem(self, vb, *mask, axes);
}

Tensor tensor_internal::GetItem(const Tensor& self, const std::vector<TensorIndex>& idx_in, const Tensor* v) {
  TG_TENSOR_RETURN_IF_ERROR(&self);
  const Shape& s = self.sshape();
  int64_t n_ell = 0, n_new = 0;
  for (const TensorIndex& i : idx_in) {
    n_ell += std::holds_alternative<Ellipsis>(i);
    n_new += std::holds_alternative<NewAxis>(i);
  }
  if (n_ell > 1) return Err("slice", "indices can only have a single ellipsis");
  int64_t n_idx = static_cast<int64_t>(idx_in.size()) - n_ell - n_new;
  if (n_idx > self.ndim())
    return Err("slice", absl::StrCat("too many indices (", n_idx, ") for ", ShapeStr(s)));
  // Fill the ellipsis (or the end) with full slices.
  std::vector<TensorIndex> idx;
  bool filled = false;
  for (const TensorIndex& i : idx_in) {
    if (std::holds_alternative<Ellipsis>(i)) {
      for (int64_t k = 0; k < self.ndim() - n_idx; ++k) idx.push_back(Slice::All());
      filled = true;
    } else {
      idx.push_back(i);
    }
  }
  if (!filled)
    for (int64_t k = 0; k < self.ndim() - n_idx; ++k) idx.push_back(Slice::All());
  // Per real dim: the shrink boundary and stride; per index: the output size (none for Index).
  PadArg bounds;
  std::vector<int64_t> strides;
  Shape final_shape;
  // Tensor indices: their dim in final_shape, and their positions made non-negative.
  std::vector<std::pair<int64_t, Tensor>> taken;
  int64_t dim = 0;
  for (const TensorIndex& i : idx) {
    if (std::holds_alternative<NewAxis>(i)) {
      final_shape.push_back(1);
      continue;
    }
    const SInt& dim_size = s[dim];
    if (const Indices* ti = std::get_if<Indices>(&i)) {
      const Tensor& t = *ti->index;
      TG_TENSOR_RETURN_IF_ERROR(&t);
      if (!dtypes::is_int(t.dtype())) return Err("slice", "index dtype " + t.dtype().repr() + " is not supported");
      if (!dim_size.is_int())
        return Err("slice", absl::StrCat("a tensor index on dim ", dim, " of symbolic size ", dim_size.repr()));
      const int64_t size = dim_size.value();
      taken.emplace_back(static_cast<int64_t>(final_shape.size()), t.lt(0).where(t + size, t).to(self.device()));
      bounds.emplace_back(0, size);
      strides.push_back(1);
      final_shape.push_back(size);
      ++dim;
      continue;
    }
    if (const Index* ix = std::get_if<Index>(&i)) {
      if (!ix->i.is_int()) {
        // tinygrad's sint index: [i, i+1); shrink checks the bound value against the dim.
        if (ix->i.vmin() < 0)
          return Err("slice", "a symbolic index must be non-negative, got " + ix->i.repr());
        bounds.emplace_back(ix->i, ix->i + 1);
        strides.push_back(1);
        ++dim;
        continue;
      }
      int64_t iv = ix->i.value();
      if (!dim_size.is_int()) {
        // A symbolic dim: a non-negative index below its smallest size.
        if (iv < 0 || iv >= dim_size.vmin())
          return Err("slice", absl::StrCat("index ", iv, " may be out of bounds for dim ", dim,
                                           " with symbolic size ", dim_size.repr()));
        bounds.emplace_back(iv, iv + 1);
        strides.push_back(1);
        ++dim;
        continue;
      }
      int64_t size = dim_size.value();
      if (iv >= size || iv < -size)
        return Err("slice", absl::StrCat("index ", iv, " is out of bounds for dim ", dim,
                                         " with size ", size));
      int64_t b = iv < 0 ? iv + size : iv;
      bounds.emplace_back(b, b + 1);
      strides.push_back(1);
    } else {
      const Slice& sl = std::get<Slice>(i);
      if (sl.step == 0) return Err("slice", "slice step cannot be 0");
      bool int_bounds = (!sl.start || sl.start->is_int()) && (!sl.stop || sl.stop->is_int());
      if (!int_bounds) {
        // tinygrad's simple symbolic slice: step 1, start..stop taken as given.
        if (sl.step != 1) return Err("slice", "a slice with symbolic bounds needs step 1");
        SInt b = sl.start.value_or(SInt(0)), e = sl.stop.value_or(dim_size);
        if ((b.is_int() && b.value() < 0) || (e.is_int() && e.value() < 0))
          return Err("slice", "negative bounds can't be mixed with symbolic ones");
        if ((e - b).vmin() < 0)
          return Err("slice", absl::StrCat("slice [", b.repr(), ":", e.repr(),
                                           "] may have a negative size"));
        bounds.emplace_back(b, e);
        strides.push_back(1);
        final_shape.push_back(e - b);
        ++dim;
        continue;
      }
      // Int bounds on a symbolic dim slice within its maximum (tinygrad uses vmax too).
      int64_t size = dim_size.is_int() ? dim_size.value() : dim_size.vmax();
      auto opt_int = [](const std::optional<SInt>& v) -> std::optional<int64_t> {
        return v ? std::optional<int64_t>(v->value()) : std::nullopt;
      };
      std::optional<int64_t> start = opt_int(sl.start), stop = opt_int(sl.stop);
      // Python's slice.indices(size).
      // A step past the dim's size takes one element, as that size does (and keeps the index
      // math below in int64: -INT64_MIN is not an int64).
      const int64_t most = std::max<int64_t>(size, 1);
      int64_t st = std::clamp(sl.step, -most, most), lo = st < 0 ? -1 : 0, hi = st < 0 ? size - 1 : size;
      auto clampi = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v < 0 ? *v + size : *v;
        return std::clamp(x, lo, hi);
      };
      int64_t b = clampi(start, st < 0 ? hi : lo), e = clampi(stop, st < 0 ? lo : hi);
      if ((st > 0 && e < b) || (st < 0 && e > b)) {
        b = e = 0;
      } else if (st < 0) {
        std::tie(b, e) = std::make_pair(e + 1, b + 1);
      }
      // A full slice of a symbolic dim keeps it symbolic.
      if (!dim_size.is_int() && !sl.start && !sl.stop && st == 1) {
        bounds.emplace_back(0, dim_size);
        strides.push_back(1);
        final_shape.push_back(dim_size);
        ++dim;
        continue;
      }
      bounds.emplace_back(b, e);
      strides.push_back(st);
      final_shape.push_back(CeilDiv(e - b, st < 0 ? -st : st));
    }
    ++dim;
  }
  Tensor x = self;
  if (!bounds.empty()) {
    x = x.shrink(bounds);
    std::vector<int64_t> flips;
    for (size_t d = 0; d < strides.size(); ++d)
      if (strides[d] < 0) flips.push_back(static_cast<int64_t>(d));
    if (!flips.empty()) x = x.flip(flips);
    bool strided = std::any_of(strides.begin(), strides.end(), [](int64_t v) { return v != 1 && v != -1; });
    if (strided) {
      TG_TENSOR_RETURN_IF_ERROR(&x);
      if (x.is_symbolic()) return Err("slice", "a strided slice of symbolic shape " + ShapeStr(x.sshape()) + " is not supported");
      std::vector<int64_t> xs = x.shape(), rs;
      std::vector<std::pair<int64_t, int64_t>> pads, sh;
      for (size_t d = 0; d < xs.size(); ++d) {
        int64_t st = std::abs(strides[d]), padded;
        if (__builtin_mul_overflow(CeilDiv(xs[d], st), st, &padded))
          return Err("slice", absl::StrCat("dim ", d, " (", xs[d], ") padded to a multiple of step ", st, " passes an int64"));
        pads.emplace_back(0, padded - xs[d]);
        rs.push_back(CeilDiv(xs[d], st));
        rs.push_back(st);
        sh.emplace_back(0, CeilDiv(xs[d], st));
        sh.emplace_back(0, 1);
      }
      x = x.pad(pads).reshape(rs).shrink(sh);
      std::vector<int64_t> out;
      for (size_t d = 0; d < rs.size(); d += 2) out.push_back(rs[d]);
      x = x.reshape(out);
    }
  }
  x = x.reshape(final_shape);
  return taken.empty() ? x : TakeAlong(self, x, taken, v);
}

Tensor Tensor::slice(const std::vector<TensorIndex>& indices) const {
  return tensor_internal::GetItem(*this, indices, nullptr);
}

Tensor Tensor::Cat(const std::vector<Tensor>& ts, int64_t dim_in) {
  if (ts.empty()) return Err("cat", "needs at least one tensor");
  for (const Tensor& t : ts) TG_TENSOR_RETURN_IF_ERROR(&t);
  TG_ASSIGN_DIM(dim, "cat", dim_in, ts[0].ndim());
  if (ts[0].ndim() == 0) return Err("cat", "zero-dimensional tensors cannot be concatenated");
  const Shape& s0 = ts[0].sshape();
  Shape cum{0};
  for (const Tensor& t : ts) {
    const Shape& s = t.sshape();
    bool same = s.size() == s0.size();
    for (size_t i = 0; same && i < s.size(); ++i) same = static_cast<int64_t>(i) == dim || s[i] == s0[i];
    if (!same) return Err("cat", "shapes " + ShapeStr(s0) + " and " + ShapeStr(s) +
                                     " differ outside dim " + std::to_string(dim));
    std::optional<SInt> end = AddChecked(cum.back(), s[dim]);
    if (!end) return Err("cat", "the sizes of dim " + std::to_string(dim) + " add up past an int64");
    cum.push_back(*end);
  }
  std::optional<Tensor> acc;
  for (size_t i = 0; i < ts.size(); ++i) {
    PadArg px(s0.size(), {SInt(0), SInt(0)});
    px[dim] = {cum[i], cum.back() - cum[i + 1]};
    Tensor p = ts[i].pad(px);
    acc = acc ? *acc + p : p;
  }
  return *acc;
}

Tensor Tensor::Stack(const std::vector<Tensor>& ts, int64_t dim) {
  std::vector<Tensor> u;
  for (const Tensor& t : ts) u.push_back(t.unsqueeze(dim));
  return Cat(u, dim);
}

Tensor Tensor::cat(std::initializer_list<Tensor> others, int64_t dim) const {
  std::vector<Tensor> ts{*this};
  ts.insert(ts.end(), others.begin(), others.end());
  return Cat(ts, dim);
}
Tensor Tensor::stack(std::initializer_list<Tensor> others, int64_t dim) const {
  std::vector<Tensor> ts{*this};
  ts.insert(ts.end(), others.begin(), others.end());
  return Stack(ts, dim);
}

std::vector<Tensor> Tensor::split(const std::vector<int64_t>& sizes, int64_t dim_in) const {
  if (!ok()) return {*this};
  absl::StatusOr<int64_t> dim = ResolveDim("split", dim_in, ndim());
  if (!dim.ok()) return {Error(dim.status())};
  if (ndim() == 0) return {Err("split", "a 0-d tensor cannot be split")};
  if (!sshape()[*dim].is_int())
    return {Err("split", "does not support symbolic shape in split dim, " + ShapeStr(sshape()))};
  int64_t total = 0;
  for (int64_t v : sizes) total += v;
  if (total != shape()[*dim] || std::any_of(sizes.begin(), sizes.end(), [](int64_t v) { return v < 0; }))
    return {Err("split", absl::StrCat("sizes must be non-negative and sum to ", shape()[*dim],
                                      ", got ", total))};
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t v : sizes) {
    std::vector<TensorIndex> idx(*dim, Slice::All());
    idx.push_back(Slice(start, start + v));
    out.push_back(slice(idx));
    start += v;
  }
  return out;
}

std::vector<Tensor> Tensor::split(int64_t size, int64_t dim_in) const {
  if (!ok()) return {*this};
  absl::StatusOr<int64_t> dim = ResolveDim("split", dim_in, ndim());
  if (!dim.ok()) return {Error(dim.status())};
  if (ndim() == 0) return {Err("split", "a 0-d tensor cannot be split")};
  if (size <= 0) return {Err("split", absl::StrCat("split size must be positive, got ", size))};
  if (!sshape()[*dim].is_int())
    return {Err("split", "does not support symbolic shape in split dim, " + ShapeStr(sshape()))};
  int64_t n = shape()[*dim];
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < std::max<int64_t>(1, n); i += size) sizes.push_back(std::min(size, n - i));
  return split(sizes, *dim);
}

std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim_in) const {
  if (!ok()) return {*this};
  absl::StatusOr<int64_t> dim = ResolveDim("chunk", dim_in, ndim());
  if (!dim.ok()) return {Error(dim.status())};
  if (ndim() == 0) return {Err("chunk", "a 0-d tensor cannot be chunked")};
  if (chunks <= 0) return {Err("chunk", absl::StrCat("chunks must be positive, got ", chunks))};
  if (!sshape()[*dim].is_int())
    return {Err("chunk", "does not support symbolic shape in chunk dim, " + ShapeStr(sshape()))};
  int64_t n = shape()[*dim];
  if (n == 0) return split(std::vector<int64_t>(chunks, 0), *dim);
  return split(CeilDiv(n, chunks), *dim);
}

Tensor Tensor::squeeze(std::optional<int64_t> dim_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  Shape s = sshape(), out;
  if (!dim_in) {
    for (const SInt& d : s)
      if (d != SInt(1)) out.push_back(d);
    return reshape(out);
  }
  TG_ASSIGN_DIM(dim, "squeeze", *dim_in, ndim());
  if (s.empty() || s[dim] != SInt(1)) return *this;
  s.erase(s.begin() + dim);
  return reshape(s);
}

Tensor Tensor::unsqueeze(int64_t dim_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  TG_ASSIGN_DIM(dim, "unsqueeze", dim_in, ndim(), true);
  Shape s = sshape();
  s.insert(s.begin() + dim, SInt(1));
  return reshape(s);
}

Tensor Tensor::flatten(int64_t start_in, int64_t end_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  TG_ASSIGN_DIM(start, "flatten", start_in, ndim());
  TG_ASSIGN_DIM(end, "flatten", end_in, ndim());
  const Shape& s = sshape();
  if (s.empty()) return reshape({1});
  Shape out(s.begin(), s.begin() + start);
  out.push_back(end >= start ? tg::Prod(std::span<const SInt>(s.begin() + start, s.begin() + end + 1))
                             : SInt(1));
  out.insert(out.end(), s.begin() + end + 1, s.end());
  return reshape(out);
}

Tensor Tensor::unflatten(int64_t dim_in, const std::vector<int64_t>& sizes) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  TG_ASSIGN_DIM(dim, "unflatten", dim_in, ndim());
  if (ndim() == 0) return Err("unflatten", "a 0-d tensor has no dim to unflatten");
  const Shape& s = sshape();
  Shape out(s.begin(), s.begin() + dim);
  out.insert(out.end(), sizes.begin(), sizes.end());
  out.insert(out.end(), s.begin() + dim + 1, s.end());
  return reshape(out);
}

Tensor Tensor::repeat(const std::vector<int64_t>& repeats) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::NeedsIntShape("repeat", *this); !st.ok()) return Error(st);
  std::vector<int64_t> s = shape();
  if (repeats.size() < s.size())
    return Err("repeat", absl::StrCat("needs at least ", s.size(), " repeats, got ", repeats.size()));
  for (int64_t r : repeats)
    if (r < 0) return Err("repeat", "repeats must be non-negative");
  std::vector<int64_t> base(repeats.size() - s.size(), 1);
  base.insert(base.end(), s.begin(), s.end());
  std::vector<int64_t> unsq, expd, fin;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] != 1) {
      unsq.push_back(1);
      expd.push_back(repeats[i]);
    }
    unsq.push_back(base[i]);
    expd.push_back(base[i]);
    int64_t n;
    if (__builtin_mul_overflow(repeats[i], base[i], &n))
      return Err("repeat", absl::StrCat(repeats[i], " repeats of dim ", i, " (", base[i], ") overflow an int64"));
    fin.push_back(n);
  }
  return reshape(unsq).expand(expd).reshape(fin);
}

Tensor Tensor::repeat_interleave(int64_t repeats, std::optional<int64_t> dim_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  Tensor x = dim_in ? *this : flatten();
  TG_ASSIGN_DIM(dim, "repeat_interleave", dim_in.value_or(0), x.ndim());
  if (x.ndim() == 0) return Err("repeat_interleave", "a 0-d tensor has no dim to repeat");
  if (repeats < 0) return Err("repeat_interleave", "repeats must be non-negative");
  std::vector<int64_t> s = x.shape();
  std::vector<int64_t> a(s.begin(), s.begin() + dim + 1), b(s.begin(), s.begin() + dim + 1);
  a.push_back(1);
  b.push_back(repeats);
  a.insert(a.end(), s.begin() + dim + 1, s.end());
  b.insert(b.end(), s.begin() + dim + 1, s.end());
  std::vector<int64_t> f(s.begin(), s.begin() + dim);
  int64_t n;
  if (__builtin_mul_overflow(s[dim], repeats, &n))
    return Err("repeat_interleave", absl::StrCat(repeats, " repeats of dim ", dim, " (", s[dim], ") overflow an int64"));
  f.push_back(n);
  f.insert(f.end(), s.begin() + dim + 1, s.end());
  return x.reshape(a).expand(b).reshape(f);
}

Tensor tensor_internal::OneHotAlongDim(const Tensor& idx, int64_t num_classes, int64_t dim) {
  TG_TENSOR_RETURN_IF_ERROR(&idx);
  if (!dtypes::is_int(idx.dtype()))
    return Err("one_hot", "expects an int index tensor, got " + idx.dtype().repr());
  TG_ASSIGN_DIM(d, "one_hot", dim, idx.ndim());
  int64_t offset = idx.ndim() - d - 1;
  DType dt = num_classes > INT32_MAX ? dtypes::int64 : dtypes::int32;
  std::vector<int64_t> rs{num_classes};
  for (int64_t i = 0; i < offset; ++i) rs.push_back(1);
  return idx.eq(Tensor::Arange(num_classes, {.dtype = dt, .device = idx.device()}).reshape(rs));
}

Tensor Tensor::one_hot(int64_t num_classes) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (!dtypes::is_int(dtype())) return Err("one_hot", "expects an int tensor, got " + dtype().repr());
  if (num_classes < 0) return Err("one_hot", "num_classes must be given (>= 0)");
  return tensor_internal::OneHotAlongDim(slice({Ellipsis{}, NewAxis{}}), num_classes, -1).where(1, 0);
}

Tensor Tensor::gather(int64_t dim_in, const Tensor& index) const {
  TG_TENSOR_RETURN_IF_ERROR(this, &index);
  if (index.ndim() != ndim())
    return Err("gather", absl::StrCat("index rank ", index.ndim(), " != self rank ", ndim()));
  TG_ASSIGN_DIM(dim, "gather", dim_in, ndim());
  if (ndim() == 0) return Err("gather", "a 0-d tensor has no dim to gather along");
  std::vector<int64_t> s = shape(), is = index.shape();
  std::vector<std::pair<int64_t, int64_t>> sh;
  for (int64_t d = 0; d < ndim(); ++d) {
    if (d != dim && is[d] > s[d])
      return Err("gather", "index " + ShapeStr(is) + " is larger than " + ShapeStr(s) + " outside dim " +
                               std::to_string(dim));
    sh.emplace_back(0, d == dim ? s[d] : is[d]);
  }
  Tensor x = shrink(sh).unsqueeze(-1).transpose(-1, dim);
  return tensor_internal::OneHotAlongDim(index.unsqueeze(-1), s[dim], -1).where(x, 0).sum(-1, false, dtype());
}

// _tri: arange(r)[:, None] + diagonal <= arange(c).
static Tensor Tri(int64_t r, int64_t c, int64_t diagonal, const std::string& device) {
  return (Tensor::Arange(r, {.device = device}).unsqueeze(-1) + diagonal)
      .le(Tensor::Arange(c, {.device = device}));
}
Tensor Tensor::triu(int64_t diagonal) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::NeedsIntShape("triu", *this); !st.ok()) return Error(st);
  if (ndim() < 2) return Err("triu", "needs at least 2 dims, got " + ShapeStr(shape()));
  std::vector<int64_t> s = shape();
  return Tri(s[s.size() - 2], s.back(), diagonal, device()).where(*this, zeros_like());
}
Tensor Tensor::tril(int64_t diagonal) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::NeedsIntShape("tril", *this); !st.ok()) return Error(st);
  if (ndim() < 2) return Err("tril", "needs at least 2 dims, got " + ShapeStr(shape()));
  std::vector<int64_t> s = shape();
  return Tri(s[s.size() - 2], s.back(), diagonal + 1, device()).where(zeros_like(), *this);
}

Tensor Tensor::pool(const std::vector<int64_t>& k, const std::vector<int64_t>& stride_in,
                    const std::vector<int64_t>& dilation_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = tensor_internal::NeedsIntShape("pool", *this); !st.ok()) return Error(st);
  int64_t nk = static_cast<int64_t>(k.size());
  if (ndim() < nk) return Err("pool", "can't pool " + ShapeStr(shape()) + " with " + ShapeStr(k));
  auto tuple = [&](const std::vector<int64_t>& v) {
    return v.size() == 1 ? std::vector<int64_t>(nk, v[0]) : v;
  };
  std::vector<int64_t> st = tuple(stride_in), dl = tuple(dilation_in);
  if (static_cast<int64_t>(st.size()) != nk || static_cast<int64_t>(dl.size()) != nk)
    return Err("pool", "stride/dilation length mismatch with kernel " + ShapeStr(k));
  std::vector<int64_t> s = shape();
  size_t nn = s.size() - k.size();
  std::vector<int64_t> noop(s.begin(), s.begin() + nn), i_(s.begin() + nn, s.end());
  // The sizes below are Python ints in the reference; here a product past int64 is an error.
  bool overflow = false;
  auto mul = [&overflow](int64_t a, int64_t b) {
    int64_t r = 0;
    overflow |= __builtin_mul_overflow(a, b, &r);
    return r;
  };
  std::vector<int64_t> o_, f_;
  for (int64_t j = 0; j < nk; ++j) {
    if (k[j] < 1 || st[j] < 1 || dl[j] < 1) return Err("pool", "kernel, stride and dilation must be positive");
    const int64_t span = mul(dl[j], k[j] - 1);  // the window's extent, less one
    if (overflow || span >= i_[j])
      return Err("pool", "kernel size " + ShapeStr(k) + " cannot be greater than input " + ShapeStr(s));
    o_.push_back(CeilDiv(i_[j] - span, st[j]));
    f_.push_back(std::max<int64_t>(1, CeilDiv(mul(o_[j], st[j]) - dl[j], i_[j])));
  }
  auto with_noop = [&](std::vector<int64_t> tail) {
    std::vector<int64_t> r = noop;
    r.insert(r.end(), tail.begin(), tail.end());
    return r;
  };
  auto shrink_to = [&](const Tensor& x, const std::vector<int64_t>& ns) {
    std::vector<std::pair<int64_t, int64_t>> a;
    for (int64_t v : ns) a.emplace_back(0, v);
    return x.shrink(a);
  };
  // Repeat so no padding is needed, then dilation, stride, and move the window to the end.
  std::vector<int64_t> rep(nn, 1), t1, t2, t3, t4, t5, t6;
  for (int64_t j = 0; j < nk; ++j) {
    int64_t w = mul(i_[j], f_[j]);
    overflow |= __builtin_add_overflow(w, dl[j], &w);
    const int64_t kw = mul(k[j], w);
    rep.push_back(CeilDiv(kw, i_[j]));
    t1.push_back(kw);
    t2.insert(t2.end(), {k[j], w});
    t3.insert(t3.end(), {k[j], mul(o_[j], st[j])});
    t4.insert(t4.end(), {k[j], o_[j], st[j]});
    t5.insert(t5.end(), {k[j], o_[j], 1});
    t6.insert(t6.end(), {k[j], o_[j]});
  }
  if (overflow)
    return Err("pool", "the windows of kernel " + ShapeStr(k) + " over " + ShapeStr(s) + " have sizes past an int64");
  Tensor x = repeat(rep);
  x = shrink_to(x, with_noop(t1)).reshape(with_noop(t2));
  x = shrink_to(x, with_noop(t3)).reshape(with_noop(t4));
  x = shrink_to(x, with_noop(t5)).reshape(with_noop(t6));
  std::vector<int64_t> perm;
  for (size_t j = 0; j < nn; ++j) perm.push_back(j);
  for (int64_t j = 0; j < nk; ++j) perm.push_back(nn + j * 2 + 1);
  for (int64_t j = 0; j < nk; ++j) perm.push_back(nn + j * 2);
  return x.permute(perm);
}

}  // namespace tg
