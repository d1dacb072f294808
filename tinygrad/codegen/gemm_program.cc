// File: tinygrad/codegen/gemm_program.cc
#include "tinygrad/codegen/gemm_program.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/gemm_problem.h"
#include "tinygrad/codegen/opt/gemm_opt.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

UOp Index(int64_t v) { return UOp::Const(dtypes::index, v); }

}  // namespace

absl::StatusOr<std::optional<ProgramSpec>> GemmProgram(const UOp& kernel_ast, const Renderer& ren) {
  if (!kernel_ast || !KernelInfo::IsKernelInfo(kernel_ast.arg())) return std::nullopt;
  const KernelInfo ki = KernelInfo::FromArg(kernel_ast.arg());
  if (!ki.opts_to_apply.has_value()) return std::nullopt;
  std::vector<Opt> opts;
  for (const Arg& a : *ki.opts_to_apply) {
    ASSIGN_OR_RETURN(Opt o, OptFromArg(a));
    opts.push_back(o);
  }
  if (std::none_of(opts.begin(), opts.end(), [](const Opt& o) { return o.op == OptOps::GEMM; }))
    return std::nullopt;
  if (opts.size() != 1) return KernelOptError("GEMM is the only opt of a generated matmul");
  ASSIGN_OR_RETURN(GemmTiling tiling, GemmTilingOf(opts[0]));
  const std::optional<GemmProblem> problem = MatchGemm(kernel_ast);
  if (!problem.has_value()) return KernelOptError("GEMM needs a plain half or bfloat16 matmul kernel");
  RETURN_IF_ERROR(CheckGemmOn(ren, *problem, tiling));
  const std::string name = absl::StrCat("gemm_", problem->m, "_", problem->n, "_", problem->k);
  ASSIGN_OR_RETURN(GemmKernel kernel, ren.RenderGemm(*problem, tiling, name));

  ProgramSpec p;
  p.name = name;
  p.function_name = kernel.function_name;
  p.src = std::move(kernel.src);
  p.device = ren.device;
  p.ast = kernel_ast;
  for (int i = 0; i < 3; ++i) p.global_size.push_back(Index(kernel.global_size[i]));
  p.local_size = std::vector<UOp>{Index(kernel.local_size[0]), Index(kernel.local_size[1]),
                                  Index(kernel.local_size[2])};
  p.globals = {0, 1, 2};
  p.outs = {problem->out_slot};
  p.ins = {std::min(problem->a_slot, problem->b_slot), std::max(problem->a_slot, problem->b_slot)};
  const int64_t in_bytes = (problem->m + problem->n) * problem->k * problem->in.itemsize();
  const int64_t out_bytes = problem->m * problem->n * problem->out.itemsize();
  p.estimates = {.ops = Index(2 * problem->m * problem->n * problem->k),
                 .lds = Index(in_bytes + out_bytes),
                 .mem = Index(in_bytes + out_bytes)};
  p.applied_opts = {OptToArg(opts[0])};
  p.dynamic_shared_bytes = kernel.dynamic_shared_bytes;
  p.tensor_maps = std::move(kernel.tensor_maps);
  return p;
}

}  // namespace tg
