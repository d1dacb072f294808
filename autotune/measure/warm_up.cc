// File: autotune/measure/warm_up.cc
#include "autotune/measure/warm_up.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

absl::StatusOr<KernelTask> WarmUpTask() {
  const DType p = dtypes::float32.ptr(4);
  const UOp out = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 0);
  const UOp in = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 1);
  const UOp r = UOp::Make(Ops::RANGE, dtypes::index, {UOp::Const(dtypes::index, 4)},
                          Arg::Tuple({0, AxisType::LOOP}));
  const UOp x = UOp::Make(Ops::LOAD, dtypes::float32, {UOp::Make(Ops::INDEX, p, {in, r})});
  const UOp y = UOp::Make(Ops::ADD, dtypes::float32, {x, UOp::Const(dtypes::float32, 1.0)});
  const UOp st = UOp::Make(Ops::STORE, dtypes::void_, {UOp::Make(Ops::INDEX, p, {out, r}), y});
  const UOp end = UOp::Make(Ops::END, dtypes::void_, {st, r});
  return KernelTask::FromAst(
      UOp::Make(Ops::SINK, dtypes::void_, {end}, KernelInfo{.name = "warm_up"}.ToArg()));
}

absl::Status WarmUp(Measurer& m) {
  ASSIGN_OR_RETURN(KernelTask task, WarmUpTask());
  const std::vector<std::vector<Opt>> unoptimized{{}};
  ASSIGN_OR_RETURN(MeasureBatch b, m.Measure(task, unoptimized, MeasureOptions{.runs = 1}));
  const CandidateResult& r = b.results.at(0);
  if (r.outcome != Outcome::kOk) {
    return absl::FailedPreconditionError(
        absl::StrCat("the warm-up kernel: ", std::string(OutcomeName(r.outcome)), ": ", r.error));
  }
  return absl::OkStatus();
}

}  // namespace tg::autotune
