// File: tinygrad/uop/linear_text.h
// A linear program (what codegen hands a renderer) as text, one uop a line:
//   `index | Ops.X | dtype spec | srcs | arg`
// e.g. `3 | Ops.INDEX | float ptr:16:GLOBAL | 0,2 | None`. The golden files of the renderer and
// codegen tests are written in it by tools/golden/gen_clang_golden.py from the reference, and the
// UOp emulator (tinygrad/emulator) keeps a compiled kernel in it: FormatLinearProgram and
// ParseLinearProgram are inverses for every program the pipeline makes.
//
// Parsing never aborts: text that is not a program of this form (truncated, a source that is
// not an earlier line, a dtype that cannot exist, a malformed arg) is an InvalidArgument naming
// the line.
#ifndef TINYGRAD_UOP_LINEAR_TEXT_H_
#define TINYGRAD_UOP_LINEAR_TEXT_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// A dtype spec: "float", "float vec:4", "float ptr:16:GLOBAL", "half vec:4 ptr:-1:REG vec:2"
// (base vector width, pointer size and address space, pointer vector width).
std::string DTypeSpec(DType d);
absl::StatusOr<DType> ParseDTypeSpec(std::string_view spec);
// An arg as Arg::repr() writes it (and the generator): None, True, 3, -1.5, inf, nan, 'gidx0'
// (with Python's escapes), AxisType.LOOP, Ops.ADD, (0, AxisType.LOOP), (1,), KernelInfo('E_16').
absl::StatusOr<Arg> ParseArgText(std::string_view text);

// The program, a line per uop, every arg written out (the SINK's KernelInfo too).
std::string FormatLinearProgram(std::span<const UOp> uops);
// The whole list, in line order ('#' lines and blank lines skipped).
absl::StatusOr<std::vector<UOp>> ParseLinearProgram(std::string_view text);

}  // namespace tg

#endif  // TINYGRAD_UOP_LINEAR_TEXT_H_
