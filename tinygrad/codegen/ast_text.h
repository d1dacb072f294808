// File: tinygrad/codegen/ast_text.h (testonly)
// The text forms of the codegen golden files (tools/golden/gen_codegen_*.py, gen_opt_goldens.py):
// kernel ASTs read back, and our graphs, linear programs and launch sizes printed the same way.
#ifndef TINYGRAD_CODEGEN_AST_TEXT_H_
#define TINYGRAD_CODEGEN_AST_TEXT_H_

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tinygrad/codegen/renderer.h"

#include "tinygrad/uop/uop.h"

namespace tg {

// Lines `index | Ops.X | dtype spec | srcs | arg[ | tag=N]`, toposorted: the last node (the
// SINK), or null after a gtest failure naming the bad line.
UOp ParseAst(const std::vector<std::string>& lines);

// The file's lines without blank and '#' comment lines (a test failure if it is missing).
std::vector<std::string> ReadGoldenLines(const std::string& path);

// A renderer with only the capabilities a golden file's `renderer` line names; renders nothing.
class GoldenRenderer : public Renderer {
 public:
  std::string Render(std::span<const UOp>) const override { return ""; }
};

// "x,y,z" launch limits, or "none".
std::optional<LaunchDims> ParseLaunchDims(const std::string& s);

// A graph in ParseAst's line form (toposorted, BufferizeOpts as the dataclass repr, WMMA dtype
// names unquoted as the reference prints them).
std::vector<std::string> DumpAst(const UOp& sink);

// A linear program: `index | Ops.X | dtype | srcs | arg` per uop.
std::vector<std::string> FormatLinearUops(const std::vector<UOp>& uops);

// Launch sizes or estimates, space separated: ints as ints, symbolic ones rendered (a size cast
// back to index is shown as the int expression, as tinygrad keeps it).
std::string FormatSizes(const std::vector<UOp>& sizes);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_AST_TEXT_H_
