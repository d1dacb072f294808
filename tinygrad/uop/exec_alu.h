// File: tinygrad/uop/exec_alu.h
// Port of tinygrad/uop/ops.py `python_alu` / `exec_alu`: evaluating an ALU op on constants,
// as constant folding does, with the result truncated to the dtype.
#ifndef TINYGRAD_UOP_EXEC_ALU_H_
#define TINYGRAD_UOP_EXEC_ALU_H_

#include <span>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/uop/ops.h"

namespace tg {

// One lane: `op` applied to `operands` (Python semantics of python_alu: IDIV/MOD truncate,
// SHR/SHL on ints, LOG2 of 0 is -inf, SQRT of a negative is NaN, RECIPROCAL of 0 is +-inf,
// ...), then Truncate(result, dtype) unless `truncate_output` is false. For the index dtype a
// binary op with an Invalid operand gives Invalid. `dtype` must be scalar.
ConstValue ExecAlu(Ops op, DType dtype, std::span<const ConstValue> operands,
                   bool truncate_output = true);

}  // namespace tg

#endif  // TINYGRAD_UOP_EXEC_ALU_H_
