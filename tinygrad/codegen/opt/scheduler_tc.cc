// File: tinygrad/codegen/opt/scheduler_tc.cc
// Port of tinygrad/codegen/opt/postrange.py: Scheduler._apply_tc_opt, the TC opt (a matmul-like
// REDUCE of a MUL becomes a WMMA over warp/upcast/unroll pieces of its N, M and K ranges).
#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/symbolic/helpers.h"

namespace tg {
namespace {

// sorted(us, key=lambda x: x.arg[0], reverse=True): stable, larger first.
std::vector<UOp> SortByIdDesc(std::vector<UOp> us) {
  std::stable_sort(us.begin(), us.end(),
                   [](const UOp& a, const UOp& b) { return a.arg()[0].int64() > b.arg()[0].int64(); });
  return us;
}

// [u for u in a.ranges if u not in b.ranges]
std::vector<UOp> RangesNotIn(const UOp& a, const UOp& b) {
  std::vector<UOp> out;
  const std::vector<UOp>& rb = b.ranges();
  for (const UOp& u : a.ranges())
    if (std::find(rb.begin(), rb.end(), u) == rb.end()) out.push_back(u);
  return out;
}

std::vector<int> Argsort(const std::vector<int>& p) {
  std::vector<int> idx(p.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return p[a] < p[b]; });
  return idx;
}

int64_t Log2(int64_t v) {
  int64_t r = 0;
  while ((int64_t{1} << (r + 1)) <= v) ++r;
  return r;
}

}  // namespace

absl::StatusOr<std::optional<std::vector<UOp>>> Scheduler::ApplyTcOpt(int64_t use_tensor_cores, int64_t axis,
                                                                      int64_t tc_select, int64_t opt_level) {
  std::vector<UOp> reduceops_list = reduceops();
  if (reduceops_list.empty()) return KernelOptError("no reduce ops for TensorCore");
  UOp reduceop = reduceops_list[0];
  if (!(use_tensor_cores && reduceop.arg().ops() == Ops::ADD)) return std::optional<std::vector<UOp>>();
  UOp mul = reduceop.src(0).op() != Ops::CAST ? reduceop.src(0) : reduceop.src(0).src(0);
  if (mul.op() != Ops::MUL) return std::optional<std::vector<UOp>>();
  UOp in0 = mul.src(0), in1 = mul.src(1);
  std::vector<TensorCore> tensor_cores;
  if (tc_select == -1) {
    tensor_cores = ren_->tensor_cores;
  } else {
    if (tc_select < 0 || tc_select >= static_cast<int64_t>(ren_->tensor_cores.size()))
      return KernelOptError(absl::StrCat("invalid tensor core choice ", tc_select));
    tensor_cores = {ren_->tensor_cores[tc_select]};
  }
  for (const TensorCore& tc : tensor_cores) {
    if ((ren_->device == "CUDA" || ren_->device == "NV") && tc.dtype_in == dtypes::float32 && !options_.allow_tf32)
      continue;
    if (!(tc.dtype_in == in0.dtype().scalar() && tc.dtype_in == in1.dtype().scalar() &&
          tc.dtype_out == reduceop.dtype().scalar()))
      continue;
    // tensor cores have three ranges. X, Y, and REDUCE
    std::vector<UOp> in0_ranges = SortByIdDesc(RangesNotIn(in0, in1));
    std::vector<UOp> in1_ranges = SortByIdDesc(RangesNotIn(in1, in0));
    std::vector<UOp> red_src(reduceop.src().begin() + 1, reduceop.src().end());
    std::vector<UOp> red_ranges = SortByIdDesc(red_src);
    if (in0_ranges.empty() || in1_ranges.empty() || red_ranges.empty()) continue;
    // pick ranges: itertools.product(in1_ranges, in0_ranges, red_ranges)[axis]
    int64_t n_choices = static_cast<int64_t>(in1_ranges.size() * in0_ranges.size() * red_ranges.size());
    if (!(axis < n_choices)) continue;
    // TODO(parity): Python indexes the product list with a negative axis too; rejected here.
    if (axis < 0) continue;
    int64_t per1 = static_cast<int64_t>(in0_ranges.size() * red_ranges.size());
    int64_t nr = static_cast<int64_t>(red_ranges.size());
    std::vector<UOp> axes = {in1_ranges[axis / per1], in0_ranges[(axis % per1) / nr], red_ranges[axis % nr]};

    // tag the reduceop
    ast_ = Substitute(ast_, {{reduceop, reduceop.replace_tag(Arg("TC"))}});

    // do optimizations and save the ranges
    bool failed = false;
    for (size_t i = 0; i < axes.size() && !failed; ++i) {
      std::vector<UOp> rs = rngs();
      auto it = std::find(rs.begin(), rs.end(), axes[i]);
      if (it == rs.end())  // tinygrad: ValueError from list.index -> KernelOptError
        return KernelOptError(absl::StrCat("range ", axes[i].arg().repr(), " is not in list"));
      int idx = static_cast<int>(it - rs.begin());
      if ((axes[i].vmax() + ConstValue(1)).to_int64() % tc.dims[i] != 0) {
        if (opt_level < 2) {
          failed = true;  // "tc padding requires opt_level >= 2"
          break;
        }
        // PADTO might fail (then the next tensor core is tried, with what was done so far kept)
        absl::StatusOr<std::vector<UOp>> p = ApplyOptImpl(Opt{OptOps::PADTO, idx, tc.dims[i]}, false);
        if (!p.ok()) {
          if (!IsKernelOptError(p.status())) return p.status();
          failed = true;
          break;
        }
        axes[i] = rngs()[idx];
      }
    }
    if (failed) continue;

    // we create the warp as a whole thing, in case some of these ranges are moved/removed later
    UOp warp = UOp::Range(tc.threads, -1, AxisType::WARP);
    std::vector<UOp> ne;
    for (const std::string& o : tc.opts) {
      int d = o[1] - '0';
      if (o[0] == 'l') {
        ASSIGN_OR_RETURN(auto pr, ShiftTo(axes[d], 2, AxisType::LOCAL, false, warp % ConstValue(2)));
        axes[d] = pr.first;
        ne.push_back(pr.second);
        warp = warp.idiv(ConstValue(2));
      } else {
        TG_CHECK(o[0] == 'u') << "unsupported opt " << o << " in tensor cores";
        ASSIGN_OR_RETURN(auto pr, ShiftTo(axes[d], 2, AxisType::UPCAST));
        axes[d] = pr.first;
        ne.push_back(pr.second);
      }
    }
    for (const auto& [_, amt] : tc.GetReduceAxes()) {
      ASSIGN_OR_RETURN(auto pr, ShiftTo(axes[2], amt, AxisType::UNROLL));
      axes[2] = pr.first;
      ne.push_back(pr.second);
    }

    if (use_tensor_cores != 2) {
      // fix the srcs
      std::optional<UOp> tagged;
      for (const UOp& x : ast_.toposort()) {
        if (x.op() != Ops::REDUCE || x.tag() != Arg("TC")) continue;
        TG_CHECK(!tagged) << "more than one TC-tagged REDUCE";
        tagged = x;
      }
      TG_CHECK(tagged) << "TC-tagged REDUCE is gone";
      reduceop = *tagged;
      std::vector<UOp> tne;
      SubstituteMap to_tagged;
      for (const UOp& x : ne) {
        tne.push_back(x.replace_tag(Arg(1)));
        to_tagged[x] = tne.back();
      }
      UOp ret = Substitute(reduceop, to_tagged);
      UOp inner = ret.src(0).op() != Ops::CAST ? ret.src(0) : ret.src(0).src(0);
      std::vector<UOp> srcs(inner.src().begin(), inner.src().end());
      auto [p0, p1] = tc.PermutesForShapeStr(tc.BaseShapeStr());
      const std::vector<int>* perms[2] = {&p0, &p1};
      for (size_t s = 0; s < srcs.size() && s < 2; ++s) {
        std::vector<int> order = Argsort(*perms[s]);
        SubstituteMap back;
        for (size_t i = 0; i < tne.size(); ++i) back[tne[i]] = ne[order[i]];
        srcs[s] = Substitute(srcs[s], back);
      }

      // get reduce/upcast axes for the tensor cores
      std::vector<std::string> rnames;
      for (size_t i = 0; i < tc.GetReduceAxes().size(); ++i) rnames.push_back("r" + std::to_string(i));
      std::vector<int> tc_reduce_pos = shape_str_to_axis(rnames);
      std::vector<int> base_upcast = shape_str_to_axis(tc.BaseUpcastAxes());
      std::vector<UOp> rs = rngs();
      std::vector<Arg> upcast_args[3];
      for (int i = 0; i < 3; ++i) {
        int64_t n = Log2(tc.elements_per_thread[i]);
        for (int64_t j = 0; j < n && j < static_cast<int64_t>(base_upcast.size()); ++j)
          upcast_args[i].push_back(Arg::Tuple({rs[base_upcast[j]].arg()[0], 2}));
      }
      std::vector<int64_t> tc_reduce_axes;
      for (int a : tc_reduce_pos) tc_reduce_axes.push_back(rs[a].arg()[0].int64());
      Arg tc_upcast_axes = Arg::Tuple({Arg::Tuple(upcast_args[0]), Arg::Tuple(upcast_args[1]), Arg::Tuple(upcast_args[2])});

      // construct the op
      // TODO(parity): tinygrad puts DType objects in the arg; Arg has no DType, so their repr
      // ("dtypes.half") stands in.
      Arg wmma_arg = Arg::Tuple({tc.ToString(), Arg::Tuple({tc.dims[0], tc.dims[1], tc.dims[2]}), tc.dtype_in.repr(),
                                 tc.dtype_out.repr(), ren_->device, tc.threads, tc_upcast_axes, Arg::Tuple({})});
      DType out_vec = tc.dtype_out.vec(static_cast<int>(tc.elements_per_thread[2]));
      UOp c0 = UOp::Make(Ops::CONTRACT, srcs[0].dtype().vec(static_cast<int>(tc.elements_per_thread[0])), {srcs[0]},
                         Arg::Tuple(upcast_args[0]), Arg(1));
      UOp c1 = UOp::Make(Ops::CONTRACT, srcs[1].dtype().vec(static_cast<int>(tc.elements_per_thread[1])), {srcs[1]},
                         Arg::Tuple(upcast_args[1]), Arg(1));
      UOp wmma = UOp::Make(Ops::WMMA, out_vec, {c0, c1, UOp::Const(out_vec, ConstValue(0.0))}, wmma_arg, Arg(1));
      UOp tc_uop = UOp::Make(Ops::UNROLL, tc.dtype_out, {wmma}, Arg::Tuple(upcast_args[2]), Arg(1));

      // preserve extra reduces
      std::vector<UOp> red_srcs(reduceop.src().begin() + 1, reduceop.src().end());
      std::vector<UOp> reduce_ranges;
      for (const UOp& x : UOp::Sink(red_srcs).toposort())
        if (x.op() == Ops::RANGE &&
            std::find(tc_reduce_axes.begin(), tc_reduce_axes.end(), x.arg()[0].int64()) == tc_reduce_axes.end())
          reduce_ranges.push_back(x);
      if (!reduce_ranges.empty()) {
        std::vector<UOp> src{tc_uop};
        src.insert(src.end(), reduce_ranges.begin(), reduce_ranges.end());
        tc_uop = UOp::Make(Ops::REDUCE, tc_uop.dtype(), src, Arg(Ops::ADD));
      }
      ast_ = Substitute(ast_, {{reduceop, tc_uop}});
    }
    tensor_core_ = tc;
    return std::optional<std::vector<UOp>>(axes);
  }
  return std::optional<std::vector<UOp>>();
}

}  // namespace tg
