// File: tinygrad/codegen/opt/pack_operands.cc
#include "tinygrad/codegen/opt/pack_operands.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

bool IsLaunchAxis(AxisType t) {
  return t == AxisType::THREAD || t == AxisType::GLOBAL || t == AxisType::LOCAL || t == AxisType::WARP;
}

// Where a range goes in the packed array: loops (outside the reduce) outermost, then the
// reduces, then UNROLL, and UPCAST innermost (the register tile's vectors).
int LayoutClass(const UOp& r) {
  switch (RangeAxisType(r)) {
    case AxisType::UPCAST: return 3;
    case AxisType::UNROLL: return 2;
    case AxisType::REDUCE: return 1;
    default: return 0;
  }
}

// The array's order of two ranges of one class. Loops and reduces nest in id order. An
// UPCAST or UNROLL that splits an already split axis takes the part above the earlier one
// (shift_to: rng -> rng' * amount + new), so among those the later (larger id) is the outer:
// the first UPCAST of B's columns stays innermost, as its lanes are contiguous in B.
bool LayoutLess(const UOp& a, const UOp& b) {
  if (LayoutClass(a) != LayoutClass(b)) return LayoutClass(a) < LayoutClass(b);
  return LayoutClass(a) >= 2 ? RangeArgLess(b.arg(), a.arg()) : RangeArgLess(a.arg(), b.arg());
}

bool IsBufferRead(const UOp& u, int64_t buffer) {
  return u.op() == Ops::INDEX && u.src(0).op() == Ops::DEFINE_GLOBAL && u.src(0).arg().int64() == buffer;
}

// The largest first id among the kernel's ranges.
int64_t MaxRangeId(const std::vector<UOp>& topo) {
  int64_t id = 0;
  for (const UOp& u : topo)
    if (u.op() == Ops::RANGE) id = std::max(id, u.arg()[0].int64());
  return id;
}

// sum(r_i * stride_i), row-major over `rngs` with the sizes `sizes`.
UOp Flatten(const std::vector<UOp>& rngs, const std::vector<int64_t>& sizes) {
  UOp idx = UOp::Const(dtypes::index, 0);
  int64_t stride = 1;
  for (size_t i = rngs.size(); i-- > 0;) {
    idx = rngs[i].alu(Ops::MUL, {rngs[i].const_like(stride)}).alu(Ops::ADD, {idx});
    stride *= sizes[i];
  }
  return idx;
}

}  // namespace

absl::StatusOr<UOp> PackedLoad(const UOp& sink, int64_t buffer) {
  absl::flat_hash_set<UOp> loads;
  UOp load;
  for (const UOp& u : sink.toposort()) {
    if (!IsBufferRead(u, buffer)) continue;
    if (u.dtype().is_ptr()) return KernelOptError(absl::StrCat("PACK: buffer ", buffer, " is written by the kernel"));
    loads.insert(u);
    load = u;
  }
  if (loads.empty()) return KernelOptError(absl::StrCat("PACK: the kernel reads no buffer ", buffer));
  if (loads.size() > 1)
    return KernelOptError(absl::StrCat("PACK: the kernel reads buffer ", buffer, " ", loads.size(),
                                       " times; PACK copies a buffer read once"));
  return load;
}

absl::StatusOr<PackPlan> PlanPack(const UOp& sink, int64_t buffer) {
  const std::vector<UOp> topo = sink.toposort();
  PackPlan plan;
  ASSIGN_OR_RETURN(plan.load, PackedLoad(sink, buffer));
  const std::vector<UOp>& used = plan.load.ranges();
  auto uses = [&](const UOp& r) { return std::find(used.begin(), used.end(), r) != used.end(); };
  // launch ranges are outside everything; then the output loops in nest order while L uses them
  std::vector<UOp> loops;
  for (const UOp& u : topo) {
    if (u.op() != Ops::RANGE) continue;
    if (IsLaunchAxis(RangeAxisType(u))) {
      if (uses(u)) plan.outer.push_back(u);
    } else if (RangeAxisType(u) == AxisType::LOOP) {
      loops.push_back(u);
    }
  }
  std::sort(loops.begin(), loops.end(), [](const UOp& a, const UOp& b) { return RangeArgLess(a.arg(), b.arg()); });
  for (const UOp& r : loops) {
    if (!uses(r)) break;
    plan.outer.push_back(r);
  }
  for (const UOp& r : used)
    if (std::find(plan.outer.begin(), plan.outer.end(), r) == plan.outer.end()) plan.inner.push_back(r);
  if (plan.inner.empty())
    return KernelOptError(absl::StrCat("PACK: every loop that reads buffer ", buffer, " is outside the copy"));
  std::stable_sort(plan.inner.begin(), plan.inner.end(), LayoutLess);
  plan.elements = 1;
  for (const UOp& r : plan.inner) {
    if (r.src(0).op() != Ops::CONST)
      return KernelOptError(absl::StrCat("PACK: buffer ", buffer, " is read through a symbolic range"));
    plan.elements *= r.src(0).arg().int64();
    if (plan.elements > kMaxPackElements)
      return KernelOptError(absl::StrCat("PACK: the copy of buffer ", buffer, " would hold more than ",
                                         kMaxPackElements, " elements: block the loops that read it (BLOCK)"));
  }
  return plan;
}

absl::StatusOr<UOp> PackOperands(const UOp& sink) {
  if (!KernelInfo::IsKernelInfo(sink.arg())) return sink;
  std::vector<int64_t> buffers;
  for (const Arg& a : KernelInfo::FromArg(sink.arg()).applied_opts) {
    absl::StatusOr<Opt> o = OptFromArg(a);
    if (o.ok() && o->op == OptOps::PACK) buffers.push_back(std::get<int64_t>(o->arg));
  }
  UOp out = sink;
  int64_t next_id = MaxRangeId(sink.toposort()) + 1;
  for (size_t n = 0; n < buffers.size(); ++n) {
    ASSIGN_OR_RETURN(PackPlan plan, PlanPack(out, buffers[n]));
    std::vector<int64_t> sizes;
    std::vector<UOp> fresh;
    SubstituteMap to_fresh;
    for (const UOp& r : plan.inner) {
      sizes.push_back(r.src(0).arg().int64());
      fresh.push_back(UOp::Range(sizes.back(), next_id++, AxisType::LOOP));
      to_fresh[r] = fresh.back();
    }
    // the stack array (ids of their own: CPU kernels have no other locals)
    const DType dt = plan.load.dtype();
    UOp local = UOp::Make(Ops::DEFINE_LOCAL, dt.ptr(plan.elements, AddrSpace::LOCAL), {}, Arg(static_cast<int64_t>(n)));
    const UOp fresh_idx = Flatten(fresh, sizes);
    UOp copy = local.index(std::span<const UOp>(&fresh_idx, 1), /*ptr=*/true).store(Substitute(plan.load, to_fresh));
    copy = copy.end(fresh);
    const UOp read_idx = Flatten(plan.inner, sizes);
    UOp read = local.after(std::span<const UOp>(&copy, 1)).index(std::span<const UOp>(&read_idx, 1));
    out = Substitute(out, {{plan.load, read}});
  }
  return out;
}

}  // namespace tg
