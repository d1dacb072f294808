// File: tinygrad/codegen/opt/postrange.cc
// Port of tinygrad/codegen/opt/postrange.py: apply_opts.
#include "tinygrad/codegen/opt/postrange.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/opt/heuristic.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {

absl::StatusOr<UOp> ApplyOpts(const UOp& ast, const Renderer& ren, const CodegenOptions& options) {
  if (!ast.tag().is_none()) return ast;
  bool has_info = KernelInfo::IsKernelInfo(ast.arg());
  KernelInfo ki = has_info ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  Scheduler k(ast, ren, options);
  k.ConvertLoopToGlobal();
  if (ki.opts_to_apply.has_value()) {
    for (const Arg& a : *ki.opts_to_apply) {
      ASSIGN_OR_RETURN(Opt opt, OptFromArg(a));
      absl::Status s = k.ApplyOpt(opt);
      if (!s.ok()) {
        if (!IsKernelOptError(s)) return s;
        return KernelOptError(absl::StrCat(opt.ToString(), ": ", s.message()));
      }
    }
  } else if (!options.noopt && ki.applied_opts.empty()) {
    // BEAM>=1 lands here too: the search runs in autotune/ and comes back as opts_to_apply.
    // hand_coded_optimizations does not support multiblock (BUFFERIZE) kernels yet.
    const std::vector<UOp> slice = ast.backward_slice();
    if (std::none_of(slice.begin(), slice.end(), [](const UOp& u) { return u.op() == Ops::BUFFERIZE; })) {
      ASSIGN_OR_RETURN(k, HandCodedOptimizations(k));
    }
  }
  std::optional<std::string> name_override;
  if (has_info && ki.name != "test") name_override = ki.name;
  return k.GetOptimizedAst(name_override);
}

}  // namespace tg
