// File: tinygrad/uop/pyrender.h
// Port of tinygrad/uop/ops.py pyrender / pm_pyrender: a UOp graph as the Python code that
// builds it, which is what tinygrad prints at DEBUG>=5 for each kernel AST codegen receives:
//
//   c0 = UOp(Ops.DEFINE_GLOBAL, dtypes.float.ptr(64), (), 0)
//   c2 = UOp.range(64, 1, AxisType.LOOP)
//   c9 = c4.index((c2*32+c7))
//   c10 = c9.reduce(c7, arg=Ops.ADD)
//   ast = c12.sink()
//
// Nodes used once are inlined into their consumer; shared ones, and those tinygrad always
// names (DEFINE_GLOBAL, RANGE, LOAD, WHERE, END, ...), get a line of their own, numbered by
// their toposort position; the root is `ast`.
#ifndef TINYGRAD_UOP_PYRENDER_H_
#define TINYGRAD_UOP_PYRENDER_H_

#include <string>

#include "tinygrad/uop/uop.h"

namespace tg {

// tinygrad's pyrender(ast). TODO(parity): movement ops render in the generic
// UOp(Ops.RESHAPE, ...) form, not as .reshape(...) sugar (kernel ASTs have none).
std::string PyRender(const UOp& ast);

}  // namespace tg

#endif  // TINYGRAD_UOP_PYRENDER_H_
