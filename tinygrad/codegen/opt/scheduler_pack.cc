// File: tinygrad/codegen/opt/scheduler_pack.cc
// The PACK opt in the Scheduler (ours). The copy itself is made in the pipeline after every
// opt (PackOperands, pack_operands.h), where the loop nest it is placed in is final; here an
// opt list learns early that it cannot apply, and one loop may move.
//
// Without a loop outside it, a copy is all that the kernel reads of the buffer (all of B for a
// matmul), mostly more than a copy may hold. Then, unless a BLOCK was applied, PACK first
// moves the outermost output loop that reads the buffer outside the others, as BLOCK axis:1
// does (a matmul's column-tile loop: one K x nr panel per column tile, reused by every row
// tile), when that makes the copy fit. So one BEAM action packs a register tile found before.
#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/pack_operands.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/uop/graph_util.h"

namespace tg {

absl::Status Scheduler::ApplyPackOpt(const Opt& opt) {
  auto check = [](bool cond, std::string_view msg) { return cond ? absl::OkStatus() : KernelOptError(msg); };
  RETURN_IF_ERROR(check(!ren_->has_local, "PACK is for CPU kernels: on this renderer a local buffer is shared memory"));
  RETURN_IF_ERROR(check(!opt.axis.has_value(), "PACK takes no axis, its arg is the buffer to pack"));
  const int64_t* buffer = std::get_if<int64_t>(&opt.arg);
  RETURN_IF_ERROR(check(buffer != nullptr && *buffer >= 0, "PACK needs a buffer number"));
  for (const Opt& o : applied_opts_)
    RETURN_IF_ERROR(check(!(o.op == OptOps::PACK && o.arg == opt.arg), absl::StrCat("PACK of buffer ", *buffer, " applied twice")));
  const bool blocked = OutputBlocked();
  ASSIGN_OR_RETURN(UOp load, PackedLoad(ast_, *buffer));
  const absl::Status fits = PlanPack(ast_, *buffer).status();
  if (fits.ok() || blocked) return fits;
  // the outermost output loop that reads the buffer, moved outermost
  const std::vector<UOp>& used = load.ranges();
  std::optional<UOp> first;
  for (const UOp& r : GlobalizableRngs())
    if (std::find(used.begin(), used.end(), r) != used.end() && (!first || RangeArgLess(r.arg(), first->arg()))) first = r;
  if (!first) return fits;
  const std::vector<UOp> all = rngs();
  const int64_t axis = std::find(all.begin(), all.end(), *first) - all.begin();
  if (!ApplyBlockOpt(Opt{OptOps::BLOCK, axis, int64_t{1}}).ok() || !PlanPack(ast_, *buffer).ok()) return fits;
  return absl::OkStatus();
}

}  // namespace tg
