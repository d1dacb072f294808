// File: tinygrad/codegen/ast_text.h (testonly)
// Kernel ASTs serialized by the golden generators (tools/golden/gen_codegen_*.py), read back.
#ifndef TINYGRAD_CODEGEN_AST_TEXT_H_
#define TINYGRAD_CODEGEN_AST_TEXT_H_

#include <string>
#include <vector>

#include "tinygrad/uop/uop.h"

namespace tg {

// Lines `index | Ops.X | dtype spec | srcs | arg[ | tag=N]`, toposorted: the last node (the
// SINK), or null after a gtest failure naming the bad line.
UOp ParseAst(const std::vector<std::string>& lines);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_AST_TEXT_H_
