// File: tinygrad/tensor/shape_extra.cc
// More movement-style ops: roll, diag/diagonal, Meshgrid, unfold, pad_to, Einsum, interpolate,
// clone and empty_like.
// Port of tinygrad/tensor.py (tinygrad 35900290): roll, diag, diagonal, meshgrid, unfold,
// pad_to, einsum, interpolate, clone, empty_like. Each op builds the reference's graph from the
// existing movement ops; bad arguments (which the reference raises on or asserts) give an
// errored Tensor naming the op. Einsum's formula is user input and is parsed defensively.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"
#include "tinygrad/tensor/tensor_internal.h"

namespace tg {

using tensor_internal::Err;
using tensor_internal::NeedsIntShape;
using tensor_internal::ResolveDim;
using tensor_internal::ShapeStr;

namespace {

// Python's a % n for n > 0 (in [0, n)).
int64_t PyMod(int64_t a, int64_t n) {
  int64_t r = a % n;
  return r < 0 ? r + n : r;
}

// The order that sorts `v` (Python's argsort on a list).
template <typename T>
std::vector<int64_t> ArgSort(const std::vector<T>& v) {
  std::vector<int64_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return v[a] < v[b]; });
  return idx;
}

}  // namespace

// ** roll **

Tensor Tensor::roll(const std::vector<int64_t>& shifts,
                    const std::optional<std::vector<int64_t>>& dims_in) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = NeedsIntShape("roll", *this); !st.ok()) return Error(st);
  // No dims: roll the flattened tensor along its one dim.
  if (!dims_in) return flatten().roll(shifts, std::vector<int64_t>{0}).reshape(sshape());
  const std::vector<int64_t>& dims = *dims_in;
  if (dims.size() != shifts.size())
    return Err("roll", absl::StrCat(shifts.size(), " shifts for ", dims.size(), " dims"));
  if (ndim() == 0 && !dims.empty()) return Err("roll", "a 0-d tensor has no dim to roll");
  const std::vector<int64_t> s = shape();
  std::vector<int64_t> reps(s.size(), 1);
  std::vector<std::pair<int64_t, int64_t>> window;
  for (int64_t n : s) window.emplace_back(0, n);
  for (size_t i = 0; i < dims.size(); ++i) {
    absl::StatusOr<int64_t> d = ResolveDim("roll", dims[i], ndim());
    if (!d.ok()) return Error(d.status());
    const int64_t n = s[*d];
    if (n == 0)
      return Err("roll", absl::StrCat("cannot roll dim ", *d, " of size 0 in ", ShapeStr(s)));
    // Two copies side by side; the window [n - shift % n, 2n - shift % n) is the rolled dim.
    const int64_t delta = n - PyMod(shifts[i], n);
    reps[*d] = 2;
    window[*d] = {delta, delta + n};
  }
  return repeat(reps).shrink(window);
}

Tensor Tensor::roll(int64_t shift, std::optional<int64_t> dim) const {
  if (!dim) return roll(std::vector<int64_t>{shift});
  return roll(std::vector<int64_t>{shift}, std::vector<int64_t>{*dim});
}

// ** diagonals **

Tensor Tensor::diag() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = NeedsIntShape("diag", *this); !st.ok()) return Error(st);
  if (ndim() != 1)
    return Err("diag", absl::StrCat("expects a 1-D tensor, got ", ShapeStr(shape())));
  const int64_t n = shape()[0];
  // Each element followed by n zeros; the first n*n of those, as rows of n, put element i at (i,
  // i).
  return unsqueeze(-1)
      .pad(std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {0, n}})
      .flatten()
      .shrink(std::vector<std::pair<int64_t, int64_t>>{{0, n * n}})
      .reshape(std::vector<int64_t>{n, n});
}

Tensor Tensor::diagonal() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = NeedsIntShape("diagonal", *this); !st.ok()) return Error(st);
  const std::vector<int64_t> s = shape();
  if (s.size() != 2 || s[0] != s[1])
    return Err("diagonal", "only a 2-D square tensor is supported, got " + ShapeStr(s));
  const int64_t n = s[0];
  // Rows of n+1 over the flat tensor (padded by n) start with the diagonal elements.
  return flatten()
      .pad(std::vector<std::pair<int64_t, int64_t>>{{0, n}})
      .reshape(std::vector<int64_t>{n, n + 1})
      .slice({Slice(), Index{0}});
}

// ** grids and windows **

std::vector<Tensor> Tensor::Meshgrid(const std::vector<Tensor>& ts, MeshIndexing indexing) {
  auto all_error = [&](const Tensor& e) {
    return std::vector<Tensor>(std::max<size_t>(ts.size(), 1), e);
  };
  if (ts.empty()) return all_error(Err("meshgrid", "needs at least one tensor"));
  for (const Tensor& t : ts)
    if (!t.ok()) return all_error(t);
  if (indexing != MeshIndexing::kIJ && indexing != MeshIndexing::kXY)
    return all_error(Err("meshgrid", "indexing must be kIJ or kXY"));
  if (ts.size() == 1) return ts;
  const size_t n = ts.size();
  std::vector<Tensor> laid;
  Shape out;
  for (size_t k = 0; k < n; ++k) {
    // Tensor k's elements go along output dim basis[k] (xy swaps the first two).
    size_t b = indexing == MeshIndexing::kXY && k < 2 ? 1 - k : k;
    std::vector<int64_t> rs(n - b, 1);
    rs[0] = -1;
    Tensor t = ts[k].reshape(rs);
    if (!t.ok()) return all_error(t);
    if (k == 0) {
      out = t.sshape();
    } else {
      absl::StatusOr<Shape> bs = tensor_internal::BroadcastShape("meshgrid", out, t.sshape());
      if (!bs.ok()) return all_error(Error(bs.status()));
      out = *bs;
    }
    laid.push_back(t);
  }
  std::vector<Tensor> ret;
  for (const Tensor& t : laid) ret.push_back(tensor_internal::BroadcastTo(t, out));
  return ret;
}

Tensor Tensor::unfold(int64_t dim_in, int64_t size, int64_t step) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = NeedsIntShape("unfold", *this); !st.ok()) return Error(st);
  absl::StatusOr<int64_t> d = ResolveDim("unfold", dim_in, ndim());
  if (!d.ok()) return Error(d.status());
  if (ndim() == 0) return Err("unfold", "a 0-d tensor has no dim to unfold");
  if (size < 0) return Err("unfold", absl::StrCat("size must be >= 0, got ", size));
  if (step <= 0) return Err("unfold", absl::StrCat("step must be > 0, got ", step));
  const std::vector<int64_t> s = shape();
  const int64_t dim = *d;
  if (size > s[dim])
    return Err("unfold",
               absl::StrCat("size ", size, " is larger than dim ", dim, " of ", ShapeStr(s)));
  if (size == 0) {  // shape[dim] / step + 1 empty windows: any 0-element tensor reshapes to that
    std::vector<int64_t> out = s;
    out[dim] = s[dim] / step + 1;
    out.push_back(0);
    std::vector<std::pair<int64_t, int64_t>> none;
    for (int64_t n : s) none.emplace_back(0, n);
    none[dim] = {0, 0};
    return shrink(none).reshape(out);
  }
  // Move dim last, take windows there (_pool), and put the window count back at dim.
  std::vector<int64_t> to_last;
  for (int64_t i = 0; i < ndim(); ++i)
    if (i != dim) to_last.push_back(i);
  to_last.push_back(dim);
  std::vector<int64_t> back = ArgSort(to_last);
  back.push_back(ndim());
  return permute(to_last).pool({size}, {step}, {1}).permute(back);
}

Tensor Tensor::pad_to(const std::vector<int64_t>& new_shape) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  const Shape& s = sshape();
  if (new_shape.size() != s.size())
    return Err("pad_to",
               absl::StrCat("dim mismatch, cannot pad ", ShapeStr(s), " to ", ShapeStr(new_shape)));
  PadArg pads;
  for (size_t i = 0; i < s.size(); ++i) {
    if (new_shape[i] < -1)
      return Err("pad_to", absl::StrCat("size ", new_shape[i], " of dim ", i,
                                        " is negative (-1 keeps a dim)"));
    pads.emplace_back(SInt(0), new_shape[i] == -1 ? SInt(0) : SInt(new_shape[i]) - s[i]);
  }
  return pad(pads);
}

// ** einsum **

namespace {

constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A formula term's ellipsis: ok when '.' appears only as one "..." group. Sets `has`.
absl::Status CheckDots(std::string_view term, bool& has) {
  size_t dots = std::count(term.begin(), term.end(), '.');
  size_t at = term.find("...");
  has = dots == 3 && at != std::string_view::npos;
  if (dots != 0 && !has)
    return absl::InvalidArgumentError(absl::StrCat(
        "einsum: '.' must appear only as one '...' per term, got '", std::string(term), "'"));
  return absl::OkStatus();
}

void ReplaceAll(std::string& s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

std::vector<std::string> SplitCommas(std::string_view s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == ',')
      out.emplace_back();
    else
      out.back().push_back(c);
  }
  return out;
}

// Letters of `s` seen exactly once, sorted (the implicit output).
std::string OnceSorted(std::string_view s, std::string_view exclude = "") {
  std::string out;
  for (char c : s)
    if (IsLetter(c) && std::count(s.begin(), s.end(), c) == 1 &&
        exclude.find(c) == std::string_view::npos)
      out.push_back(c);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Tensor Tensor::Einsum(std::string_view formula_in, const std::vector<Tensor>& operands,
                      std::optional<DType> acc_dtype) {
  for (const Tensor& t : operands)
    if (!t.ok()) return t;
  const std::string shown(formula_in);  // for messages
  // Parse: spaces dropped, then letters, ',', '...' and one "->".
  std::string formula;
  for (char c : formula_in) {
    if (c == ' ') continue;
    if (!IsLetter(c) && c != ',' && c != '.' && c != '-' && c != '>')
      return Err("einsum", absl::StrCat("unexpected character '", std::string(1, c),
                                        "' in formula '", shown, "'"));
    formula.push_back(c);
  }
  const size_t arrow = formula.find("->");
  const bool explicit_out = arrow != std::string::npos;
  std::string lhs = explicit_out ? formula.substr(0, arrow) : formula;
  std::string rhs = explicit_out ? formula.substr(arrow + 2) : "";
  for (const std::string* part : {&lhs, &rhs})
    if (part->find_first_of("->") != std::string::npos)
      return Err("einsum", absl::StrCat("formula '", shown,
                                        "' must have at most one '->' and no other '-' or '>'"));
  if (rhs.find(',') != std::string::npos)
    return Err("einsum", absl::StrCat("the output of '", shown, "' must be one term"));
  std::vector<std::string> inputs = SplitCommas(lhs);
  if (operands.size() != inputs.size())
    return Err("einsum", absl::StrCat("number of operands doesn't match, formula '", shown,
                                      "' has ", inputs.size(), ", got ", operands.size()));
  std::vector<Tensor> xs = operands;
  std::vector<bool> has_ell(inputs.size());
  bool any_ell = false, rhs_ell = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool h = false;
    if (absl::Status st = CheckDots(inputs[i], h); !st.ok()) return Error(st);
    has_ell[i] = h;
    any_ell |= h;
  }
  if (absl::Status st = CheckDots(rhs, rhs_ell); !st.ok()) return Error(st);
  if (any_ell || rhs_ell) {
    // "..." becomes letters not in the formula, aligned right across the operands.
    std::string ell;
    for (char c : kLetters)
      if (formula.find(c) == std::string::npos) ell.push_back(c);
    std::vector<int64_t> ell_n(inputs.size(), 0);
    int64_t max_n = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!has_ell[i]) continue;
      ell_n[i] = std::max<int64_t>(0, xs[i].ndim() - static_cast<int64_t>(inputs[i].size() - 3));
      max_n = std::max(max_n, ell_n[i]);
    }
    if (max_n > static_cast<int64_t>(ell.size()))
      return Err("einsum", absl::StrCat("'...' stands for ", max_n, " dims, more than the ",
                                        ell.size(), " letters the formula leaves free"));
    const std::string auto_out = OnceSorted(lhs);
    for (size_t i = 0; i < inputs.size(); ++i)
      ReplaceAll(inputs[i], "...", ell.substr(max_n - ell_n[i], ell_n[i]));
    const std::string lead = ell.substr(0, max_n);
    if (explicit_out)
      ReplaceAll(rhs, "...", lead);
    else
      rhs = lead + auto_out;
  } else if (!explicit_out) {
    rhs = OnceSorted(lhs);
  }
  // The output: letters of the inputs, each once.
  for (char c : rhs) {
    if (std::count(rhs.begin(), rhs.end(), c) > 1)
      return Err("einsum", absl::StrCat("output letter '", std::string(1, c),
                                        "' appears more than once in '", shown, "'"));
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&](const std::string& s) { return s.find(c) != std::string::npos; }))
      return Err("einsum", absl::StrCat("output letter '", std::string(1, c),
                                        "' is in no input of '", shown, "'"));
  }
  std::map<char, int64_t> sz;  // sorted by character code, as Python's sorted()
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string s = inputs[i];
    Tensor x = xs[i];
    if (absl::Status st = NeedsIntShape("einsum", x); !st.ok()) return Error(st);
    if (static_cast<int64_t>(s.size()) != x.ndim())
      return Err("einsum", absl::StrCat("operand ", i, " has shape ", ShapeStr(x.shape()),
                                        " but its subscript '", s, "' has ", s.size(), " letters"));
    // A letter repeated in one operand: take the diagonal of its two dims, which goes last.
    for (;;) {
      size_t j = 0, k = std::string::npos;
      for (; j < s.size() && k == std::string::npos; ++j) k = s.find(s[j], j + 1);
      if (k == std::string::npos) break;
      --j;
      const char c = s[j];
      const std::vector<int64_t> xsh = x.shape();
      const int64_t n = xsh[j];
      if (xsh[k] != n)
        return Err("einsum", absl::StrCat("letter '", std::string(1, c), "' repeated in operand ",
                                          i, " has sizes ", n, " and ", xsh[k]));
      std::string rest;
      std::vector<int64_t> perm;
      for (size_t e = 0; e < s.size(); ++e) {
        if (e == j || e == k) continue;
        perm.push_back(static_cast<int64_t>(e));
        rest.push_back(s[e]);
      }
      perm.insert(perm.end(), {static_cast<int64_t>(j), static_cast<int64_t>(k)});
      if (x.ndim() > 2) {
        std::vector<std::pair<int64_t, int64_t>> pads(x.ndim() - 1, {0, 0});
        pads.back() = {0, n};
        x = x.permute(perm)
                .flatten(-2)
                .pad(pads)
                .unflatten(-1, {n, n + 1})
                .slice({Ellipsis{}, Index{0}});
      } else {
        x = x.diagonal();
      }
      s = rest + c;
    }
    for (size_t d = 0; d < s.size(); ++d) {
      const int64_t n = x.shape()[d];
      auto [it, fresh] = sz.emplace(s[d], n);
      if (!fresh && it->second != n)
        return Err("einsum", absl::StrCat("letter '", std::string(1, s[d]), "' has sizes ",
                                          it->second, " and ", n));
    }
    inputs[i] = s;
    xs[i] = x;
  }
  std::string alpha;
  for (const auto& [c, n] : sz) alpha.push_back(c);
  std::vector<int64_t> full;
  for (const auto& [c, n] : sz) full.push_back(n);
  // Align each operand to the sorted alphabet, multiply, sum the letters not in the output,
  // then put the output letters in their order.
  std::optional<Tensor> prod;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& s = inputs[i];
    Tensor x = xs[i];
    if (!s.empty()) {
      std::vector<int64_t> rs;
      for (char c : alpha) rs.push_back(s.find(c) != std::string::npos ? sz[c] : 1);
      x = x.permute(ArgSort(std::vector<char>(s.begin(), s.end()))).reshape(rs).expand(full);
    }
    prod = prod ? *prod * x : x;
  }
  std::vector<int64_t> reduce;
  for (size_t i = 0; i < alpha.size(); ++i)
    if (rhs.find(alpha[i]) == std::string::npos) reduce.push_back(static_cast<int64_t>(i));
  return prod->sum(Axes(reduce), false, acc_dtype)
      .permute(ArgSort(ArgSort(std::vector<char>(rhs.begin(), rhs.end()))));
}

// ** interpolate **

Tensor Tensor::interpolate(const std::vector<int64_t>& size, InterpolateMode mode,
                           bool align_corners) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  if (absl::Status st = NeedsIntShape("interpolate", *this); !st.ok()) return Error(st);
  const std::vector<int64_t> s = shape();
  if (size.empty() || size.size() > s.size())
    return Err("interpolate", absl::StrCat("size ", ShapeStr(size), " must have 1 to ndim (",
                                           s.size(), ") entries for ", ShapeStr(s)));
  if (mode != InterpolateMode::kLinear && mode != InterpolateMode::kNearest &&
      mode != InterpolateMode::kNearestExact)
    return Err("interpolate", "only supports linear, nearest or nearest-exact modes");
  if (align_corners && mode != InterpolateMode::kLinear)
    return Err("interpolate", "align_corners can only be set with the linear mode");
  const int64_t ac = align_corners ? 1 : 0;
  for (int64_t n : size)
    if (n <= ac)
      return Err("interpolate", absl::StrCat("size ", ShapeStr(size), " must be ",
                                             ac ? "> 1 with align_corners" : "> 0"));
  const int64_t nd = ndim();
  Tensor x = *this;
  std::vector<int64_t> expand = s;
  for (int64_t i = 1; i <= static_cast<int64_t>(size.size()); ++i) {
    const int64_t d = nd - i, out = size[size.size() - i];
    const double scale = static_cast<double>(s[d] - ac) / static_cast<double>(out - ac);
    Tensor arr = Arange(out, {.dtype = dtypes::float32, .device = device()});
    std::vector<int64_t> rs(nd, 1);
    rs[d] = expand[d] = out;
    auto lay = [&](const Tensor& t) { return t.reshape(rs).expand(expand); };
    if (mode == InterpolateMode::kLinear) {
      Tensor index = (align_corners ? scale * arr : scale * (arr + 0.5) - 0.5).clip(0, s[d] - 1);
      Tensor low = lay(index.floor().cast(dtypes::int32)),
             high = lay(index.ceil().cast(dtypes::int32));
      Tensor perc = lay(index - index.floor());
      x = x.gather(d, low).lerp(x.gather(d, high), perc);
    } else {
      Tensor index = mode == InterpolateMode::kNearestExact ? scale * (arr + 0.5) : scale * arr;
      x = x.gather(d, lay(index.cast(dtypes::int32)));
    }
  }
  return x.cast(dtype());
}

// ** copies **

Tensor Tensor::empty_like(std::optional<DType> dt, std::optional<std::string> dev) const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  const DType d = dt.value_or(dtype());
  if (!dev && uop().device().is_tuple())
    return tensor_internal::MultiLike(*this, [&](const Shape& shape, const std::string& device) {
      return Empty(shape, {.dtype = d, .device = device});
    });
  return Empty(sshape(), {.dtype = d, .device = dev.value_or(device())});
}

Tensor Tensor::clone() const {
  TG_TENSOR_RETURN_IF_ERROR(this);
  Tensor ret = empty_like();
  if (std::optional<Tensor> g = grad()) {
    if (absl::Status st = ret.set_grad(g->clone()); !st.ok()) return Error(st);
  }
  return ret.assign(*this);
}

}  // namespace tg
