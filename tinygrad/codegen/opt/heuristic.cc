// File: tinygrad/codegen/opt/heuristic.cc
// Port of tinygrad/codegen/opt/heuristic.py: hand_coded_optimizations, step by step.
#include "tinygrad/codegen/opt/heuristic.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

// The reference reads MV_BLOCKSIZE, MV_THREADS_PER_ROW, MV_ROWS_PER_THREAD and MV with these
// defaults; they are tuning knobs nobody sets, so they are constants here.
constexpr int64_t kMvBlocksize = 4;
constexpr int64_t kMvThreadsPerRow = 8;
constexpr int64_t kMvRowsPerThread = 4;

Opt MakeOpt(OptOps op, int64_t axis, int64_t arg) { return Opt{op, axis, arg}; }

// An int dim's value; nullopt for a symbolic one (Python's `sym % n == 0` is a UOp, never 0).
std::optional<int64_t> IntDim(const SInt& s) {
  if (s.is_int()) return s.value();
  return std::nullopt;
}

bool DimDivisibleBy(const SInt& s, int64_t n) {
  std::optional<int64_t> v = IntDim(s);
  return v.has_value() && *v % n == 0;
}

// prod() over the given axes of an int-only list (upcastable/unrollable dims are int).
int64_t ProdAt(const std::vector<SInt>& shape, const std::vector<int>& axes) {
  int64_t p = 1;
  for (int a : axes) p *= shape.at(a).value();
  return p;
}

// u.backward_slice as a set (without u itself, as in the reference).
absl::flat_hash_set<UOp> SliceSet(const UOp& u) {
  std::vector<UOp> s = u.backward_slice();
  return absl::flat_hash_set<UOp>(s.begin(), s.end());
}

// Each buffer's index (get_idx of its INDEX) and that index's backward slice, computed on first
// use. The reference asks for them only inside loops over candidate axes (and `any` stops at the
// first buffer that decides), so a kernel without candidates never calls get_idx, which asserts
// an index dtype: a hand-built kernel indexed by int32 constants must not fail here either.
class BufIndexes {
 public:
  explicit BufIndexes(std::vector<UOp> bufs) : bufs_(std::move(bufs)), idxs_(bufs_.size()), slices_(bufs_.size()) {}
  size_t size() const { return bufs_.size(); }
  const UOp& idx(size_t i) {
    if (!idxs_[i]) idxs_[i] = GetIdx(bufs_[i].src(1));
    return *idxs_[i];
  }
  const absl::flat_hash_set<UOp>& slice(size_t i) {
    if (!slices_[i]) slices_[i] = SliceSet(idx(i));
    return *slices_[i];
  }

 private:
  std::vector<UOp> bufs_;
  std::vector<std::optional<UOp>> idxs_;
  std::vector<std::optional<absl::flat_hash_set<UOp>>> slices_;
};

int IndexOf(const std::vector<UOp>& v, const UOp& x) {
  auto it = std::find(v.begin(), v.end(), x);
  TG_CHECK(it != v.end()) << "range not in the kernel's rngs";
  return static_cast<int>(it - v.begin());
}

// KernelOptErrors become "did not apply" (false); other errors propagate.
absl::StatusOr<bool> TryOpt(Scheduler& k, const Opt& o) {
  absl::Status s = k.ApplyOpt(o);
  if (s.ok()) return true;
  if (IsKernelOptError(s)) return false;
  return s;
}

// Step 1: tensor cores. On success the kernel is done: the TC opt plus upcasts of M and N and
// a local of N (the reference skips these on AMX, which has no renderer here).
absl::StatusOr<std::optional<Scheduler>> TryTensorCores(const Scheduler& k) {
  const CodegenOptions& cfg = k.options();
  const int tc_opt = cfg.tc_opt;
  // Unless TC_OPT >= 1, only kernels with a single reduce axis are candidates.
  if (!(cfg.tc > 0 && (k.axes_of({AxisType::GROUP_REDUCE, AxisType::REDUCE}).size() == 1 || tc_opt >= 1)))
    return std::optional<Scheduler>();
  Scheduler tk = k;
  absl::StatusOr<std::vector<UOp>> applied = tk.ApplyOptRanges(
      Opt{OptOps::TC, int64_t{0}, std::array<int64_t, 3>{cfg.tc_select, tc_opt, cfg.tc}});
  if (!applied.ok()) {
    if (IsKernelOptError(applied.status())) return std::optional<Scheduler>();
    return applied.status();
  }
  std::vector<UOp> rngs = *std::move(applied);
  TG_CHECK(rngs.size() == 3) << "TC returns the (N, M, K) axes";
  // Upcast M and N by the largest of 5, 4, 3, 2 that divides them: more work per warp.
  for (int tc_dim : {1, 0}) {
    for (int64_t sz : {5, 4, 3, 2}) {
      if (!Divides(rngs[tc_dim].src(0), sz)) continue;
      ASSIGN_OR_RETURN(std::vector<UOp> r, tk.ApplyOptRanges(MakeOpt(OptOps::UPCAST, IndexOf(tk.rngs(), rngs[tc_dim]), sz)));
      rngs[tc_dim] = r.at(0);  // the replaced (outer) range stays the TC axis
      break;
    }
  }
  // Local N by 4 or 2: several warps share the loads of the other input.
  for (int64_t sz : {4, 2}) {
    if (!Divides(rngs[0].src(0), sz)) continue;
    RETURN_IF_ERROR(tk.ApplyOpt(MakeOpt(OptOps::LOCAL, IndexOf(tk.rngs(), rngs[0]), sz)));
    break;
  }
  return std::optional<Scheduler>(std::move(tk));
}

// Step 3: matrix-vector kernels (a reduce over a MUL of two loads where the first load walks
// the reduce axis directly) on GPUs: GROUP the reduce over threads of a row, LOCAL and UPCAST
// the output axis. Returns true when it applied (the kernel is done).
absl::StatusOr<bool> TryMatvec(Scheduler& k) {
  const Renderer& ren = k.ren();
  std::optional<UOp> reduceop = k.reduceop();
  if (!(ren.has_local && reduceop.has_value() && reduceop->arg()[0].ops() == Ops::ADD &&
        k.full_shape().size() >= 2 && ren.has_shared))
    return false;
  const UOp& mulop = reduceop->src(0);
  if (!(mulop.op() == Ops::MUL && mulop.src(0).op() == Ops::INDEX && mulop.src(1).op() == Ops::INDEX)) return false;
  UOp idx0 = GetIdx(mulop.src(0).src(1));
  UOp idx1 = GetIdx(mulop.src(1).src(1));
  std::vector<UOp> reduce_rngs = k.ranges_of({AxisType::REDUCE});
  if (reduce_rngs.empty()) return false;
  const UOp& first_reduce_rng = reduce_rngs[0];
  std::vector<UOp> terms = SplitUOp(idx0, Ops::ADD);
  if (std::find(terms.begin(), terms.end(), first_reduce_rng) == terms.end()) return false;
  for (const UOp& r : idx0.ranges())
    if (!idx1.has_range(r)) return false;
  for (int global_idx : k.axes_of({AxisType::GLOBAL})) {
    if (!Divides(first_reduce_rng.src(0), kMvThreadsPerRow) ||
        !DimDivisibleBy(k.full_shape()[global_idx], kMvBlocksize * kMvRowsPerThread))
      continue;
    ASSIGN_OR_RETURN(bool grouped, TryOpt(k, MakeOpt(OptOps::GROUP, 0, kMvThreadsPerRow)));
    (void)grouped;  // a failed GROUP is fine: the local and upcast still help
    RETURN_IF_ERROR(k.ApplyOpt(MakeOpt(OptOps::LOCAL, global_idx, kMvBlocksize)));
    RETURN_IF_ERROR(k.ApplyOpt(MakeOpt(OptOps::UPCAST, global_idx, kMvRowsPerThread)));
    return true;
  }
  return false;
}

// Step 6: upcast small axes (<= 7) that appear in WHERE conditions (padding masks, e.g. from
// Tensor.stack): each lane's mask folds to a constant. Leading axes are chosen first and the
// total is capped at 7*7.
absl::Status UpcastMaskedAxes(Scheduler& k) {
  absl::flat_hash_set<UOp> in_where_conds;
  for (const UOp& u : k.ast().backward_slice())
    if (u.op() == Ops::WHERE)
      for (const UOp& o : u.src(0).backward_slice()) in_where_conds.insert(o);
  std::vector<SInt> full_shape = k.full_shape();
  std::vector<UOp> rngs = k.rngs();
  std::vector<int> to_upcast;
  for (int axis : k.upcastable_dims()) {
    bool is_masked = in_where_conds.contains(rngs[axis]);
    int64_t sz = full_shape[axis].value();
    if (sz <= 7 && is_masked && ProdAt(full_shape, to_upcast) * sz <= 7 * 7) to_upcast.push_back(axis);
  }
  // Last first, so the earlier axis numbers stay valid.
  for (auto it = to_upcast.rbegin(); it != to_upcast.rend(); ++it)
    RETURN_IF_ERROR(k.ApplyOpt(MakeOpt(OptOps::UPCAST, *it, 0)));
  return absl::OkStatus();
}

// Step 7: while the output is big (>= 1024) and the upcast small (< 32), upcast by 3 or 4 an
// axis that some buffer does not depend on (a broadcast: the loaded value is reused across
// the lanes), preferring axes few buffers use and with small strides.
absl::Status UpcastExpandAxes(Scheduler& k) {
  const bool is_dsp = k.ren().device == "DSP";
  std::set<int> upcasted_axis;
  while (true) {
    std::vector<int> upcastable = k.upcastable_dims();
    if (!(ProdAt(k.output_shape(), upcastable) >= 1024 && k.upcast_size() < 32)) break;
    std::vector<SInt> full_shape = k.full_shape();
    std::vector<UOp> rngs = k.rngs();
    std::vector<UOp> upcast_rngs = k.ranges_of({AxisType::UPCAST, AxisType::UNROLL});
    BufIndexes bufs(k.bufs());
    std::vector<int64_t> amounts;
    if (is_dsp) {
      if (upcasted_axis.empty()) amounts = {128};
    } else {
      amounts = {3, 4};
    }
    // (num_strides, sum_strides, axis, upcast_amount), the smallest wins
    std::vector<std::tuple<int64_t, int64_t, int, int64_t>> xb_choices;
    for (int axis : upcastable) {
      for (int64_t amount : amounts) {
        if (upcasted_axis.contains(axis) || full_shape[axis].value() % amount != 0) continue;
        const UOp& rng = rngs[axis];
        // some buffer has stride 0 on this axis and depends on every axis already upcasted
        bool expands = false;
        for (size_t i = 0; i < bufs.size(); ++i) {
          const absl::flat_hash_set<UOp>& sl = bufs.slice(i);
          if (sl.contains(rng)) continue;
          bool all_in = std::all_of(upcast_rngs.begin(), upcast_rngs.end(), [&](const UOp& r2) { return sl.contains(r2); });
          if (all_in) {
            expands = true;
            break;
          }
        }
        if (!expands) continue;
        int64_t num_strides = 0, sum_strides = 0;
        for (size_t i = 0; i < bufs.size(); ++i) {
          if (bufs.slice(i).contains(rng)) ++num_strides;
          for (const UOp& c : SplitUOp(bufs.idx(i), Ops::ADD)) {
            if (c == rng) sum_strides += 1;
            if (c.op() == Ops::MUL && c.src(0) == rng && c.src(1).op() == Ops::CONST) sum_strides += c.src(1).arg().int64();
            if (c.op() == Ops::MUL && c.src(1) == rng && c.src(0).op() == Ops::CONST) sum_strides += c.src(0).arg().int64();
          }
        }
        xb_choices.emplace_back(num_strides, sum_strides, axis, amount);
      }
    }
    if (xb_choices.empty()) break;
    auto best = *std::min_element(xb_choices.begin(), xb_choices.end());
    RETURN_IF_ERROR(k.ApplyOpt(MakeOpt(OptOps::UPCAST, std::get<2>(best), std::get<3>(best))));
    upcasted_axis.insert(std::get<2>(best));
  }
  return absl::OkStatus();
}

// Step 8: unroll the last reduce axis fully when it is small (<= 32), and a second one too
// when both are tiny (<= 3); otherwise unroll it by 4. A KernelOptError (multireduce kernels
// with mismatching axes) ends the step.
absl::Status UnrollReduce(Scheduler& k) {
  std::vector<int> unrollable = k.unrollable_dims();
  if (unrollable.empty()) return absl::OkStatus();
  if (!((k.upcast_size() <= 4 || k.axes_of({AxisType::UNROLL}).empty()) && k.upcast_size() < 64)) return absl::OkStatus();
  int64_t s = k.full_shape()[unrollable.back()].value();
  const int64_t last = static_cast<int64_t>(unrollable.size()) - 1;
  if (s <= 32) {
    ASSIGN_OR_RETURN(bool ok, TryOpt(k, MakeOpt(OptOps::UNROLL, last, 0)));
    if (!ok) return absl::OkStatus();
    unrollable = k.unrollable_dims();
    if (!unrollable.empty() && s <= 3 && k.full_shape()[unrollable.back()].value() <= 3) {
      ASSIGN_OR_RETURN(bool ok2, TryOpt(k, MakeOpt(OptOps::UNROLL, static_cast<int64_t>(unrollable.size()) - 1, 0)));
      (void)ok2;
    }
  } else if (s % 4 == 0) {
    ASSIGN_OR_RETURN(bool ok, TryOpt(k, MakeOpt(OptOps::UNROLL, last, 4)));
    (void)ok;
  }
  return absl::OkStatus();
}

// Step 10: local groups. Output axes with a constant size get a local size (32 first for axis
// 0, then 16, 8, 4, 3, 2; at most 128 threads in all), axes that some buffer does not depend on
// (expand axes: the threads share its loads) ranked first, then larger axis numbers; at most
// three, applied in axis order.
absl::Status LocalGroups(Scheduler& k) {
  if (k.options().nolocals) return k.ApplyOpt(Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}});
  std::vector<UOp> rngs = k.rngs();
  std::vector<SInt> full_shape = k.full_shape();
  BufIndexes bufs(k.bufs());
  std::vector<std::pair<bool, int>> ranking;  // (is an expand axis, axis)
  for (int axis : k.axes_of({AxisType::GLOBAL, AxisType::LOOP})) {
    if (rngs[axis].src(0).op() != Ops::CONST) continue;
    bool expand = false;
    for (size_t i = 0; i < bufs.size() && !expand; ++i) expand = !bufs.slice(i).contains(rngs[axis]);
    ranking.emplace_back(expand, axis);
  }
  // sorted by (-expand, -axis); Python's sort is stable but the keys are distinct
  std::sort(ranking.begin(), ranking.end(), [](const auto& a, const auto& b) {
    return std::make_pair(!a.first, -a.second) < std::make_pair(!b.first, -b.second);
  });
  std::vector<std::pair<int, int64_t>> to_local;
  for (const auto& [expand, axis] : ranking) {
    int64_t local_size = 1;
    for (const auto& [a, sz] : to_local) local_size *= sz;
    std::vector<int64_t> candidates;
    if (axis == 0) candidates.push_back(32);
    for (int64_t x : {16, 8, 4, 3, 2}) candidates.push_back(x);
    for (int64_t x : candidates) {
      if (full_shape[axis].value() % x == 0 && local_size * x <= 128) {
        to_local.emplace_back(axis, x);
        break;
      }
    }
  }
  if (to_local.size() > 3) to_local.resize(3);
  std::sort(to_local.begin(), to_local.end());
  // A LOCAL of the whole axis removes it from the shape: later axis numbers shift down.
  int deleted_shape = 0;
  for (auto [axis, local_sz] : to_local) {
    axis -= deleted_shape;
    bool will_delete_shape = k.full_shape()[axis] == SInt(local_sz);
    RETURN_IF_ERROR(k.ApplyOpt(MakeOpt(OptOps::LOCAL, axis, local_sz)));
    if (will_delete_shape) ++deleted_shape;
  }
  return absl::OkStatus();
}

// Step 11: CPU threads. The most threads (<= global_max[0]) that leave about 128K ops each,
// on the first LOOP axis they divide.
absl::Status Threads(Scheduler& k) {
  const Renderer& ren = k.ren();
  if (!(ren.has_threads && ren.global_max.has_value())) return absl::OkStatus();
  SInt ops_per_128k = FloorDiv(Prod(k.full_shape()), SInt(int64_t{128} << 10));
  for (int64_t threads : {32, 16, 12, 8, 6, 5, 4, 3, 2}) {
    if (threads > (*ren.global_max)[0]) continue;
    // resolve(...) defaults to True: a symbolic size that may be too small skips the count
    bool too_few = ops_per_128k.is_int() ? ops_per_128k.value() < threads
                                         : Resolve(ops_per_128k.uop().lt(UOp::Const(dtypes::index, threads)), true);
    if (too_few) continue;
    for (int axis : k.axes_of({AxisType::LOOP})) {
      if (!DimDivisibleBy(k.full_shape()[axis], threads)) continue;
      ASSIGN_OR_RETURN(bool ok, TryOpt(k, MakeOpt(OptOps::THREAD, axis, threads)));
      (void)ok;
      break;
    }
    if (!k.applied_opts().empty() && k.applied_opts().back().op == OptOps::THREAD) break;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Scheduler> HandCodedOptimizations(const Scheduler& k_in) {
  // 1. Tensor cores first: a matmul that fits one gets only TC opts.
  ASSIGN_OR_RETURN(std::optional<Scheduler> tc, TryTensorCores(k_in));
  if (tc.has_value()) return *std::move(tc);

  // A copy: the input is not mutated.
  Scheduler k = k_in;

  // 2. (image dtypes: upcast float4 image axes early, before any local) - this port has no
  // image dtypes, so the step never applies.

  // 3. Matrix-vector kernels on GPUs.
  ASSIGN_OR_RETURN(bool matvec, TryMatvec(k));
  if (matvec) return k;

  // 4. Grouping (needs locals): when the output is small (<= 2048, or 240 without locals) the
  // reduce itself must be split across threads: GROUPTOP 16 on the first reduce axis it fits.
  if (ProdAt(k.output_shape(), k.upcastable_dims()) <= (k.options().nolocals ? 240 : 2048)) {
    for (int64_t axis : {0, 1, 2}) {
      ASSIGN_OR_RETURN(bool ok, TryOpt(k, MakeOpt(OptOps::GROUPTOP, axis, 16)));
      if (ok) break;
    }
  }

  // 5. No more opts for a grouped reduce.
  if (k.group_for_reduces() > 0) return k;

  // Below here the reference notes these "need to be optional and benchmarked".
  // 6. Small masked axes.
  RETURN_IF_ERROR(UpcastMaskedAxes(k));
  // 7. Broadcast (expand) axes.
  RETURN_IF_ERROR(UpcastExpandAxes(k));
  // 8. Reduce unrolling.
  RETURN_IF_ERROR(UnrollReduce(k));

  // 9. If nothing is upcasted yet and the last upcastable axis divides by 4, upcast it by 4.
  std::vector<int> upcastable = k.upcastable_dims();
  if (k.upcasted() == 0 && !upcastable.empty() && k.full_shape()[upcastable.back()].value() % 4 == 0)
    RETURN_IF_ERROR(k.ApplyOpt(MakeOpt(OptOps::UPCAST, upcastable.back(), 4)));

  // 10. Local groups (GPUs).
  if (k.ren().has_local) RETURN_IF_ERROR(LocalGroups(k));

  // 11. Threads (CPUs).
  RETURN_IF_ERROR(Threads(k));
  return k;
}

}  // namespace tg
