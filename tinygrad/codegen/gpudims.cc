// File: tinygrad/codegen/gpudims.cc
// Port of tinygrad/codegen/gpudims.py: _group_dims, _split_dims, get_grouped_dims, add_gpudims.
#include "tinygrad/codegen/gpudims.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

using Dims = std::vector<int64_t>;

// (a, b, c, d) -> (ab, c, d) until the dims fit; nullopt when they cannot.
std::optional<Dims> GroupDims(Dims dims, const LaunchDims& max_sizes) {
  auto fits = [&]() {
    if (dims.size() > max_sizes.size()) return false;
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims[i] > max_sizes[i]) return false;
    return true;
  };
  while (!fits()) {
    bool merged = false;
    for (size_t i = 0; i < max_sizes.size(); ++i) {
      int64_t merged_dim;  // a product past int64 is past every maximum (Python's ints never wrap)
      if (i + 1 < dims.size() && !__builtin_mul_overflow(dims[i], dims[i + 1], &merged_dim) &&
          merged_dim <= max_sizes[i]) {
        dims[i] = merged_dim;
        dims.erase(dims.begin() + i + 1);
        merged = true;
        break;
      }
    }
    if (!merged) return std::nullopt;
  }
  return dims;
}

// (a,) -> (b, c): moves the smallest factor of a too-large dim into the next one; nullopt when
// a dim has no factor to move (a prime beyond the limit: tinygrad raises "cannot limit dim").
std::optional<Dims> SplitDims(const Dims& dims, const LaunchDims& max_sizes) {
  bool fits = true;
  for (size_t i = 0; i < dims.size() && i < max_sizes.size(); ++i) fits &= dims[i] <= max_sizes[i];
  if (fits) return dims;
  Dims d = dims;
  while (d.size() < 3) d.push_back(1);
  for (size_t i = 0; i < d.size(); ++i) {
    while (d[i] > max_sizes[i]) {
      int64_t div = 1;
      int64_t lim = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(d[i]))));
      for (int64_t c = 2; c <= lim; ++c)
        if (d[i] % c == 0) {
          div = c;
          break;
        }
      if (div == 1) return std::nullopt;
      d[i] /= div;
      // past int64, the dims hold more threads than any device's maxima multiply to
      if (__builtin_mul_overflow(d[(i + 1) % d.size()], div, &d[(i + 1) % d.size()])) return std::nullopt;
    }
  }
  // The last dim's factors go to the first, which was limited already: the reference returns
  // such dims (its launch then fails on the device); here they do not fit.
  for (size_t i = 0; i < d.size(); ++i)
    if (d[i] > max_sizes[i]) return std::nullopt;
  if (d[2] == 1) return Dims{d[0], d[1]};
  return d;
}

// get_grouped_dims's limiting of constant dims: grouped first, else split; nullopt when neither
// makes them fit.
std::optional<Dims> LimitDims(const Dims& idims, const LaunchDims& max_sizes) {
  Dims limited = idims;
  // try to group first: (a, b, c, d) -> (ab, c, d)
  if (std::optional<Dims> g = GroupDims(idims, max_sizes); g && !g->empty()) limited = *g;
  if (limited.size() > max_sizes.size()) return std::nullopt;
  // try to split up dims: (a,) -> (b, c)
  if (limited == idims) return SplitDims(idims, max_sizes);
  return limited;
}

// tinygrad's get_contraction: which old dims each new dim merges, or nullopt.
std::optional<std::vector<std::vector<size_t>>> GetContraction(const Dims& old_shape, const Dims& new_shape) {
  std::vector<int64_t> acc_old, acc_new;
  int64_t a = 1;
  for (int64_t x : old_shape) acc_old.push_back(a *= x);
  a = 1;
  for (int64_t x : new_shape) acc_new.push_back(a *= x);
  std::vector<size_t> split;
  for (int64_t acc : acc_new) {
    if (acc == 1) {
      split.push_back(0);
      continue;
    }
    auto it = std::find(acc_old.begin(), acc_old.end(), acc);
    if (it == acc_old.end()) return std::nullopt;
    split.push_back(static_cast<size_t>(it - acc_old.begin()) + 1);
  }
  std::vector<std::vector<size_t>> out;
  for (size_t i = 0; i < split.size(); ++i) {
    size_t st = i == 0 ? 0 : split[i - 1];
    size_t ed = i + 1 < split.size() ? split[i] : old_shape.size();
    std::vector<size_t> g;
    for (size_t k = st; k < ed; ++k) g.push_back(k);
    out.push_back(std::move(g));
  }
  return out;
}

UOp C(int64_t v) { return UOp::Const(dtypes::index, v); }

std::vector<UOp> GroupedDims(const std::string& prefix, const std::vector<UOp>& dims,
                             const std::optional<LaunchDims>& max_sizes) {
  bool all_int = std::all_of(dims.begin(), dims.end(), [](const UOp& d) { return d.op() == Ops::CONST; });
  std::vector<UOp> limited_u = dims;
  Dims idims, limited;
  if (all_int) {
    for (const UOp& d : dims) idims.push_back(d.arg().int64());
    limited = idims;
    if (max_sizes) {
      std::optional<Dims> fit = LimitDims(idims, *max_sizes);
      // the pipeline asks CheckLaunchDims first: a kernel whose dims cannot fit is an error there
      TG_CHECK(fit.has_value()) << "cannot limit dims of " << idims.size() << " (CheckLaunchDims not asked?)";
      limited = *fit;
    }
    limited_u.clear();
    for (int64_t d : limited) limited_u.push_back(C(d));
  } else {
    // TODO(parity): symbolic launch dims are neither grouped nor split (tinygrad: same, except
    // that _split_dims may compare them)
    TG_CHECK(!max_sizes || dims.size() <= max_sizes->size()) << "cannot limit symbolic dims";
  }
  std::vector<UOp> raw;
  for (size_t i = 0; i < limited_u.size(); ++i) raw.push_back(UOp::Special(limited_u[i], prefix + std::to_string(i)));
  if (limited_u.size() < dims.size()) {
    auto contraction = GetContraction(idims, limited);
    TG_CHECK(contraction.has_value()) << "get_contraction should not be None";
    std::vector<UOp> ret;
    for (size_t g = 0; g < raw.size(); ++g) {
      UOp idx = raw[g];
      const auto& group = (*contraction)[g];
      for (size_t k = 0; k + 1 < group.size(); ++k) {
        ret.push_back(idx % dims[group[k]]);
        idx = idx.idiv(dims[group[k]]);
      }
      ret.push_back(idx);
    }
    return ret;
  }
  if (limited_u.size() > dims.size()) {
    size_t a = limited_u.size(), b = dims.size();
    if (a == 2 && b == 1) return {raw[0] * limited_u[1] + raw[1]};
    if (a == 3 && b == 1) return {(raw[0] * limited_u[1] + raw[1]) * limited_u[2] + raw[2]};
    if (a == 3 && b == 2) return {raw[0] * limited_u[1] + raw[1], raw[2]};
    return raw;
  }
  if (all_int && limited != idims) {
    // convert to 1D and get the original indices back
    if (dims.size() == 2) {
      UOp flat = raw[0] * limited_u[1] + raw[1];
      return {flat.idiv(dims[1]), flat % dims[1]};
    }
    UOp flat = raw[0] * (limited_u[1] * limited_u[2]) + raw[1] * limited_u[2] + raw[2];
    return {flat.idiv(dims[2] * dims[1]), flat.idiv(dims[2]) % dims[1], flat % dims[2]};
  }
  return raw;
}

// The launch dims of a kernel: its GLOBAL/THREAD and WARP/LOCAL/GROUP_REDUCE ranges (by range
// ids, a later range with the same ids winning, as in tinygrad's dict) and their sizes.
struct LaunchShape {
  std::vector<std::pair<Arg, UOp>> all_ranges;
  std::vector<Arg> global_dims, local_dims;
  std::vector<UOp> global_shape, local_shape;

  UOp find_range(const Arg& ids) const {
    for (const auto& [k, v] : all_ranges)
      if (k == ids) return v;
    return UOp();
  }
};

LaunchShape LaunchShapeOf(const std::vector<UOp>& s_topo) {
  LaunchShape l;
  for (const UOp& x : s_topo) {
    if (x.op() != Ops::RANGE) continue;
    Arg ids = Arg::Tuple(RangeIds(x));
    auto it = std::find_if(l.all_ranges.begin(), l.all_ranges.end(), [&](const auto& kv) { return kv.first == ids; });
    if (it == l.all_ranges.end()) {
      l.all_ranges.emplace_back(ids, x);
    } else {
      it->second = x;
    }
  }
  for (const auto& [ids, r] : l.all_ranges) {
    AxisType t = RangeAxisType(r);
    std::vector<Arg>* dst = nullptr;
    if (t == AxisType::GLOBAL || t == AxisType::THREAD) dst = &l.global_dims;
    if (t == AxisType::WARP || t == AxisType::LOCAL || t == AxisType::GROUP_REDUCE) dst = &l.local_dims;
    if (dst && std::find(dst->begin(), dst->end(), ids) == dst->end()) dst->push_back(ids);
  }
  std::sort(l.global_dims.begin(), l.global_dims.end(), RangeArgLess);
  std::sort(l.local_dims.begin(), l.local_dims.end(), RangeArgLess);
  for (const Arg& ids : l.global_dims) l.global_shape.push_back(Simplify(l.find_range(ids).src(0)));
  for (const Arg& ids : l.local_dims) l.local_shape.push_back(Simplify(l.find_range(ids).src(0)));
  return l;
}

// Whether add gpudims rewrites this SINK: it has a KernelInfo and no SPECIAL yet.
bool WantsGpudims(const UOp& s, const std::vector<UOp>& s_topo) {
  if (s.arg().is_none()) return false;
  return std::none_of(s_topo.begin(), s_topo.end(), [](const UOp& x) { return x.op() == Ops::SPECIAL; });
}

// Why `dims` cannot be made to fit `max_sizes` as GetGroupedDims(..., reverse) would, or OK.
absl::Status CheckDimsFit(std::string_view what, std::vector<UOp> dims, const std::optional<LaunchDims>& max_sizes,
                          bool reverse) {
  if (!max_sizes) return absl::OkStatus();
  if (reverse) std::reverse(dims.begin(), dims.end());
  Dims idims;
  for (const UOp& d : dims) {
    if (d.op() != Ops::CONST) {
      // symbolic dims are neither grouped nor split
      if (dims.size() <= max_sizes->size()) return absl::OkStatus();
      return absl::InvalidArgumentError(absl::StrCat("cannot limit ", dims.size(), " symbolic ", std::string(what),
                                                     " dims to the renderer's ", max_sizes->size()));
    }
    // A dim past int64 (ranges the simplifier merged, of a kernel from the network) fits no
    // launch: the reference's _limit_dims raises on it as on any dim it cannot split.
    const ConstValue& v = d.arg().number();
    if (!v.is_int() || v.to_int() > std::numeric_limits<int64_t>::max()) {
      return absl::InvalidArgumentError(absl::StrCat("cannot limit ", std::string(what), " dim ", v.repr(),
                                                     " to the renderer's launch limits (",
                                                     absl::StrJoin(*max_sizes, ", "), ")"));
    }
    idims.push_back(static_cast<int64_t>(v.to_int()));
  }
  if (LimitDims(idims, *max_sizes)) return absl::OkStatus();
  if (reverse) std::reverse(idims.begin(), idims.end());  // as the kernel has them
  return absl::InvalidArgumentError(absl::StrCat("cannot limit ", std::string(what), " dims (",
                                                 absl::StrJoin(idims, ", "), ") to the renderer's launch limits (",
                                                 absl::StrJoin(*max_sizes, ", "), ")"));
}

UOp AddGpudims(const Match& m) {
  const UOp& s = m["s"];
  const Renderer& ren = m.ctx<const Renderer>();
  std::vector<UOp> s_topo = s.toposort();
  if (!WantsGpudims(s, s_topo)) return {};
  const LaunchShape l = LaunchShapeOf(s_topo);
  const std::vector<Arg>&global_dims = l.global_dims, &local_dims = l.local_dims;
  auto find_range = [&](const Arg& ids) { return l.find_range(ids); };
  if (global_dims.empty() && local_dims.empty()) return {};
  std::vector<Arg> all_dims = global_dims;
  all_dims.insert(all_dims.end(), local_dims.begin(), local_dims.end());
  const std::vector<UOp>&global_shape = l.global_shape, &local_shape = l.local_shape;
  std::vector<UOp> idxs;
  if (KernelInfo::FromArg(s.arg()).dont_use_locals) {
    TG_CHECK(local_dims.empty()) << "can't use locals if there's no local dims";
    idxs = GetGroupedDims("idx", global_shape, ren.global_max, true);
  } else {
    // indexes for GPU-like execution
    idxs = GetGroupedDims("gidx", global_shape, ren.global_max, true);
    std::vector<UOp> l = GetGroupedDims("lidx", local_shape, ren.local_max);
    idxs.insert(idxs.end(), l.begin(), l.end());
  }
  SubstituteMap subs;
  for (const UOp& r : s_topo) {
    // a global store that does not use some local index is done by local index 0 only
    if (r.op() == Ops::STORE && BufTarget(r).dtype().addrspace() == AddrSpace::GLOBAL) {
      const UOp& idx = r.src(0);
      UOp mask;
      for (const Arg& ids : local_dims) {
        UOp lr = find_range(ids);
        if (idx.has_range(lr)) continue;
        UOp e = lr.eq(0);
        mask = mask ? (mask & e) : e;
      }
      if (mask) {
        TG_CHECK(idx.src().size() == 2) << "index has 2 sources";
        UOp gated = mask.broadcast(idx.src(1).dtype().count()).where(idx.src(1), ConstValue::Invalid());
        subs[idx] = idx.replace_src({idx.src(0), gated});
      }
    }
    if (r.op() != Ops::RANGE) continue;
    Arg ids = Arg::Tuple(RangeIds(r));
    auto it = std::find(all_dims.begin(), all_dims.end(), ids);
    if (it == all_dims.end() || RangeAxisType(r) == AxisType::REDUCE) continue;
    subs[r] = idxs[it - all_dims.begin()];
  }
  return Substitute(s, subs);
}

}  // namespace

std::vector<UOp> GetGroupedDims(const std::string& prefix, const std::vector<UOp>& dims,
                                const std::optional<LaunchDims>& max_sizes, bool reverse) {
  if (!reverse) return GroupedDims(prefix, dims, max_sizes);
  std::vector<UOp> rdims(dims.rbegin(), dims.rend());
  std::vector<UOp> out = GroupedDims(prefix, rdims, max_sizes);
  std::reverse(out.begin(), out.end());
  return out;
}

absl::Status CheckLaunchDims(const UOp& sink, const Renderer& ren) {
  std::vector<UOp> s_topo = sink.toposort();
  if (!WantsGpudims(sink, s_topo)) return absl::OkStatus();
  const LaunchShape l = LaunchShapeOf(s_topo);
  if (KernelInfo::FromArg(sink.arg()).dont_use_locals) {
    if (!l.local_dims.empty()) return absl::InvalidArgumentError("a kernel without locals (dont_use_locals) has local dims");
    return CheckDimsFit("global", l.global_shape, ren.global_max, true);
  }
  RETURN_IF_ERROR(CheckDimsFit("global", l.global_shape, ren.global_max, true));
  return CheckDimsFit("local", l.local_shape, ren.local_max, false);
}

const PatternMatcher& PmAddGpudims() {
  static const auto* const kRules = new PatternMatcher({
      // add gpudims must be last
      Rule(UPat(Ops::SINK).named("s"), AddGpudims),
  });
  return *kRules;
}

}  // namespace tg
