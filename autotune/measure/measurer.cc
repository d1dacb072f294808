// File: autotune/measure/measurer.cc
// Port of tinygrad/codegen/opt/postrange.py bufs_from_ast and beam_search's var_vals.
#include "autotune/measure/measurer.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"

namespace tg::autotune {

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kOk: return "ok";
    case Outcome::kInvalidOpts: return "invalid_opts";
    case Outcome::kLoweringError: return "lowering_error";
    case Outcome::kRejected: return "rejected";
    case Outcome::kCompileError: return "compile_error";
    case Outcome::kRuntimeError: return "runtime_error";
    case Outcome::kTimeout: return "timeout";
    case Outcome::kTooSlow: return "too_slow";
    case Outcome::kWrongResult: return "wrong_result";
    case Outcome::kDuplicate: return "duplicate";
    case Outcome::kWorkerLost: return "worker_lost";
  }
  TG_CHECK(false) << "bad Outcome " << static_cast<int>(o);
  return "";
}

absl::StatusOr<KernelTask> KernelTask::FromAst(const UOp& ast) {
  if (!ast || ast.op() != Ops::SINK) return absl::InvalidArgumentError("a kernel task needs a SINK kernel AST");
  KernelTask task;
  task.ast = ast;
  for (const UOp& u : ast.toposort()) {
    if (u.op() == Ops::DEFINE_GLOBAL) {
      if (!u.dtype().is_ptr() || u.dtype().size() < 0)
        return absl::InvalidArgumentError(absl::StrCat("DEFINE_GLOBAL ", u.arg().repr(), " has no size"));
      BufferSpec b{.slot = u.arg().int64(), .dtype = u.dtype().base(), .size = u.dtype().size()};
      if (std::find(task.buffers.begin(), task.buffers.end(), b) == task.buffers.end()) task.buffers.push_back(b);
    } else if (u.op() == Ops::DEFINE_VAR) {
      // (vmax+vmin)//2, as beam_search: a size the kernel can actually be run with
      std::string name = u.arg()[0].str();
      int64_t v = (u.vmin().to_int64() + u.vmax().to_int64()) / 2;
      if (std::none_of(task.var_vals.begin(), task.var_vals.end(), [&](const auto& p) { return p.first == name; }))
        task.var_vals.emplace_back(name, v);
    }
  }
  std::sort(task.buffers.begin(), task.buffers.end(),
            [](const BufferSpec& a, const BufferSpec& b) { return a.slot < b.slot; });
  for (size_t i = 1; i < task.buffers.size(); ++i)
    if (task.buffers[i].slot == task.buffers[i - 1].slot)
      return absl::InvalidArgumentError(absl::StrCat("two DEFINE_GLOBALs for slot ", task.buffers[i].slot));
  std::sort(task.var_vals.begin(), task.var_vals.end());
  return task;
}

}  // namespace tg::autotune
