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

absl::StatusOr<UOp> WithChosenOpts(const UOp& ast, Device& dev, const CodegenOptions& codegen) {
  KernelOptChooser* chooser = GetKernelOptChooser();
  if (chooser == nullptr) return ast;
  if (ast.op() != Ops::SINK || !ast.tag().is_none()) return ast;
  KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  if (ki.opts_to_apply.has_value()) return ast;
  ASSIGN_OR_RETURN(std::optional<std::vector<Opt>> opts, chooser->Choose(ast, dev, codegen));
  if (!opts.has_value()) return ast;
  std::vector<Arg> args;
  for (const Opt& o : *opts) args.push_back(OptToArg(o));
  ki.opts_to_apply = std::move(args);
  return ast.replace_arg(ki.ToArg());
}

}  // namespace tg
