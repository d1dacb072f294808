// File: tinygrad/codegen/lower/graph_eval.h
// Test helper: evaluates a scalar UOp graph (consts, DEFINE_VARs, ALU ops, CAST, BITCAST) the
// way a C backend would, each op rounded/wrapped to its dtype, so decompositions can be checked
// numerically against libm.
#ifndef TINYGRAD_CODEGEN_LOWER_GRAPH_EVAL_H_
#define TINYGRAD_CODEGEN_LOWER_GRAPH_EVAL_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/uop/uop.h"

namespace tg::testing {

// A graph toposorted once, evaluated for many inputs.
class ScalarGraph {
 public:
  explicit ScalarGraph(const UOp& root);
  // The root's value given each DEFINE_VAR's value by name (CHECKs every var is given).
  ConstValue Eval(const absl::flat_hash_map<std::string, ConstValue>& vars) const;
  // Convenience: one variable.
  ConstValue Eval(const std::string& var, const ConstValue& v) const { return Eval({{var, v}}); }

 private:
  std::vector<UOp> topo_;
  std::vector<std::vector<int>> src_idx_;
};

// C-like conversions between dtypes (float->int truncates and wraps, NaN -> 0).
ConstValue CastValue(const ConstValue& v, DType to);
// Reinterprets the bits of `v` (of dtype `from`) as dtype `to` (same width).
ConstValue BitcastValue(const ConstValue& v, DType from, DType to);

}  // namespace tg::testing

#endif  // TINYGRAD_CODEGEN_LOWER_GRAPH_EVAL_H_
