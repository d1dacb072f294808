// File: tinygrad/codegen/opt/scheduler_pack.cc
// The PACK opt's checks (ours): the copy itself is made in the pipeline after every opt
// (PackOperands, pack_operands.h), where the loop nest it is placed in is final; here an opt
// list learns early that it cannot apply.
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/pack_operands.h"
#include "tinygrad/codegen/opt/scheduler.h"

namespace tg {

absl::Status Scheduler::CheckPackOpt(const Opt& opt) const {
  auto check = [](bool cond, std::string_view msg) { return cond ? absl::OkStatus() : KernelOptError(msg); };
  RETURN_IF_ERROR(check(!ren_->has_local, "PACK is for CPU kernels: on this renderer a local buffer is shared memory"));
  RETURN_IF_ERROR(check(!opt.axis.has_value(), "PACK takes no axis, its arg is the buffer to pack"));
  const int64_t* buffer = std::get_if<int64_t>(&opt.arg);
  RETURN_IF_ERROR(check(buffer != nullptr && *buffer >= 0, "PACK needs a buffer number"));
  for (const Opt& o : applied_opts_)
    RETURN_IF_ERROR(check(!(o.op == OptOps::PACK && o.arg == opt.arg), absl::StrCat("PACK of buffer ", *buffer, " applied twice")));
  return PlanPack(ast_, *buffer).status();
}

}  // namespace tg
