// File: tinygrad/renderer/c/uops_text.h (testonly)
// Reads the linear UOp lists of testdata/*.uops, written by tools/golden/gen_clang_golden.py
// from the reference tinygrad: one uop per line, `index | OP | dtype spec | srcs | arg`.
#ifndef TINYGRAD_RENDERER_C_UOPS_TEXT_H_
#define TINYGRAD_RENDERER_C_UOPS_TEXT_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// A dtype spec: "float", "float vec:4", "float ptr:16:GLOBAL", "half vec:4 ptr:-1:REG vec:2".
absl::StatusOr<DType> ParseDTypeSpec(std::string_view spec);
// An arg as the generator writes it: None, True, 3, -1.5, inf, nan, 'gidx0', AxisType.LOOP,
// Ops.ADD, (0, AxisType.LOOP), (1,), KernelInfo('E_16').
absl::StatusOr<Arg> ParseArgText(std::string_view text);
// The whole list, in file order.
absl::StatusOr<std::vector<UOp>> ParseLinearUOps(std::string_view text);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_UOPS_TEXT_H_
