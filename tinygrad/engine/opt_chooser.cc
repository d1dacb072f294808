// File: tinygrad/engine/opt_chooser.cc
// The installed KernelOptChooser and how its choice reaches the kernel's KernelInfo.
#include "tinygrad/engine/opt_chooser.h"

#include <atomic>

#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

std::atomic<KernelOptChooser*> g_chooser{nullptr};

}  // namespace

void SetKernelOptChooser(KernelOptChooser* chooser) { g_chooser.store(chooser); }

KernelOptChooser* GetKernelOptChooser() { return g_chooser.load(); }

absl::StatusOr<ChosenKernel> WithChosenOpts(const UOp& ast, Device& dev,
                                            const CodegenOptions& codegen, int beam) {
  KernelOptChooser* chooser = GetKernelOptChooser();
  if (chooser == nullptr) return ChosenKernel{ast};
  if (ast.op() != Ops::SINK || !ast.tag().is_none()) return ChosenKernel{ast};
  KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  if (ki.opts_to_apply.has_value()) return ChosenKernel{ast};
  ASSIGN_OR_RETURN(std::optional<ChosenOpts> chosen, chooser->Choose(ast, dev, codegen, beam));
  if (!chosen.has_value()) return ChosenKernel{ast};
  std::vector<Arg> args;
  for (const Opt& o : chosen->opts) args.push_back(OptToArg(o));
  ki.opts_to_apply = std::move(args);
  return ChosenKernel{ast.replace_arg(ki.ToArg()), std::move(chosen)};
}

}  // namespace tg
