// File: autotune/measure/candidate_ast.cc
// The candidate kernels LocalMeasurer lowers (see the header).
#include "autotune/measure/candidate_ast.h"

#include "tinygrad/uop/kernel_info.h"

namespace tg::autotune {

UOp CandidateAst(const UOp& ast, const std::vector<Opt>& opts) {
  KernelInfo ki = KernelInfo::IsKernelInfo(ast.arg()) ? KernelInfo::FromArg(ast.arg()) : KernelInfo{};
  ki.name = kCandidateKernelName;
  std::vector<Arg> args;
  for (const Opt& o : opts) args.push_back(OptToArg(o));
  ki.opts_to_apply = std::move(args);
  return ast.replace_arg(ki.ToArg());
}

std::vector<std::vector<Opt>> ReferenceSplits(const Renderer& ren) {
  if (ren.has_threads && ren.global_max && (*ren.global_max)[0] > 1)
    return {{Opt{OptOps::THREAD, 0, int64_t{(*ren.global_max)[0]}}}};
  std::vector<std::vector<Opt>> out;
  if (ren.has_local && !ren.has_threads)
    for (int64_t amt : {256, 128, 64, 32, 16, 8, 4, 2}) out.push_back({Opt{OptOps::LOCAL, 0, amt}});
  return out;
}

}  // namespace tg::autotune
