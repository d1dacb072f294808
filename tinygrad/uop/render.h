// File: tinygrad/uop/render.h
// Port of tinygrad/uop/ops.py `renderer` / `renderer_infer`: the C-like one-line expression
// string of an index or symbolic expression ("((a*3)+b)", "(a//2)", "max(a, 3)"), the form
// tinygrad's symbolic tests compare against, and evaluation of such expressions.
#ifndef TINYGRAD_UOP_RENDER_H_
#define TINYGRAD_UOP_RENDER_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// tinygrad's UOp.render(simplify=False). For the simplified form, Render(Simplify(u)).
std::string Render(const UOp& u);

// tinygrad's sym_infer: evaluates `u` (ints, bools and index math over DEFINE_VARs, with C
// division semantics) given each variable's value by name. A variable missing from `vars`, or
// a division by zero, is an error naming it.
absl::StatusOr<ConstValue> SymInfer(const UOp& u,
                                    const absl::flat_hash_map<std::string, ConstValue>& vars);

}  // namespace tg

#endif  // TINYGRAD_UOP_RENDER_H_
