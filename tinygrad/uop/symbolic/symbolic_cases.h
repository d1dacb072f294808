// File: tinygrad/uop/symbolic/symbolic_cases.h (testonly)
// The golden table of tinygrad symbolic cases (testdata/symbolic_cases.txt, written by
// tools/golden/gen_symbolic_cases.py) and the reader of its S-expressions, shared by the parity
// test and the simplify benchmark.
#ifndef TINYGRAD_UOP_SYMBOLIC_SYMBOLIC_CASES_H_
#define TINYGRAD_UOP_SYMBOLIC_SYMBOLIC_CASES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/uop/uop.h"

namespace tg {

inline constexpr std::string_view kCasesPath = "tinygrad/uop/symbolic/testdata/symbolic_cases.txt";

struct Case {
  int line = 0;
  std::string name, expr, render, sym_render, sym_vmin, sym_vmax, simp_render, simp_vmin, simp_vmax,
      vmin, vmax;
};

// The path of the table inside a Bazel test or benchmark's runfiles (or relative to the cwd).
std::string CasesPath();
// The table, or one pseudo-case named "LoadError" whose `expr` holds the load error.
std::vector<Case> LoadCases();
// A value as the generator writes it: 3, -1, True, False, 2.0, inf, nan, Invalid, index_min/max.
std::optional<ConstValue> ParseValue(std::string_view s);
// The graph of an S-expression: (DEFINE_VAR dtype name min max) (CONST dtype value)
// (RANGE dtype axis AxisType end) (OP dtype src...); a malformed one is an error naming where.
absl::StatusOr<UOp> ParseExpr(std::string_view text);

}  // namespace tg

#endif  // TINYGRAD_UOP_SYMBOLIC_SYMBOLIC_CASES_H_
