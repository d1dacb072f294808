// File: tinygrad/codegen/opt/gemm_opt.cc
#include "tinygrad/codegen/opt/gemm_opt.h"

#include <algorithm>
#include <array>
#include <string>

#include "absl/strings/str_cat.h"

namespace tg {

absl::StatusOr<GemmTiling> GemmTilingOf(const Opt& opt) {
  const auto* arg = std::get_if<std::array<int64_t, 3>>(&opt.arg);
  if (opt.op != OptOps::GEMM || arg == nullptr || opt.axis.has_value())
    return KernelOptError(
        absl::StrCat(opt.ToString(), ": GEMM takes no axis and (bm, bn, stages)"));
  return GemmTiling{.bm = (*arg)[0], .bn = (*arg)[1], .stages = (*arg)[2]};
}

Opt GemmOpt(const GemmTiling& t) {
  return Opt{OptOps::GEMM, std::nullopt, std::array<int64_t, 3>{t.bm, t.bn, t.stages}};
}

absl::Status CheckGemmOn(const Renderer& ren, const GemmProblem& p, const GemmTiling& t) {
  if (std::find(ren.gemm_tilings.begin(), ren.gemm_tilings.end(), t) == ren.gemm_tilings.end())
    return KernelOptError(absl::StrCat(ren.device, " generates no ", t.bm, "x", t.bn, " GEMM with ",
                                       t.stages, " stages"));
  if (absl::Status s = ren.CheckGemm(p, t); !s.ok())
    return KernelOptError(std::string(s.message()));
  return absl::OkStatus();
}

}  // namespace tg
