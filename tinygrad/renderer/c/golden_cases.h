// File: tinygrad/renderer/c/golden_cases.h (testonly)
// The golden cases of the GPU renderers' tests (testdata/ written by
// tools/golden/gen_cuda_golden.py and gen_hip_golden.py): per case `<case>.uops` (a linear
// program), the reference's source for it, `<case>.meta` (arch, opts) and, for pipeline cases,
// `<case>.ast` (the scheduled kernel AST).
//
// Example:
//   for (const std::string& c : GoldenCaseNames(dir, ".ast")) {
//     GoldenMeta meta = ReadGoldenMeta(dir + "/" + c + ".meta");
//     UOp ast = GoldenAstWithOpts(ReadGoldenAst(dir + "/" + c + ".ast"), meta);
//     ... GetProgram(ast, renderer_for(meta.arch), GoldenCodegenOptions(meta)) ...
#ifndef TINYGRAD_RENDERER_C_GOLDEN_CASES_H_
#define TINYGRAD_RENDERER_C_GOLDEN_CASES_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/arg.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// <case>.meta: `arch <name>`, and for pipeline cases `opts heuristic|given`, `applied (...)`
// (the reference's applied opts as (op name, axis, arg) tuples), `allow_tf32 0|1`.
struct GoldenMeta {
  std::string arch;
  bool heuristic = true;  // the reference's hand-coded optimizer chose `applied`
  std::vector<Arg> applied;
  bool allow_tf32 = false;
};

// The whole file (empty if missing: the comparison then fails visibly).
std::string ReadGoldenFile(const std::string& path);
// The stems of the files in `dir` ending in `ext` (".uops"), sorted.
std::vector<std::string> GoldenCaseNames(const std::string& dir, const std::string& ext);
// A gtest failure names a bad line.
GoldenMeta ReadGoldenMeta(const std::string& path);
// The AST (null after a gtest failure).
UOp ReadGoldenAst(const std::string& path);
// For given opts, the AST with a KernelInfo whose opts_to_apply are `meta.applied` (as the
// reference's get_program(ast, renderer, opts) does); heuristic cases are returned as they are.
UOp GoldenAstWithOpts(const UOp& ast, const GoldenMeta& meta);
// The reference's defaults with the case's ALLOW_TF32.
CodegenOptions GoldenCodegenOptions(const GoldenMeta& meta);
// `src` without the process-wide dedup suffix of the kernel's name ("E_16n3(" -> "E_16(", in PTX
// ".entry E_16n3 (" -> ".entry E_16 ("), which depends on what else the process lowered.
std::string WithoutKernelNameSuffix(const std::string& src);

// The pipeline case `<dir>/<name>` lowered by our GetProgram with the renderer made for its arch:
// gtest failures unless its applied opts are the reference's and its source (kernel-name suffix
// aside) is `<name><source_ext>`.
void ExpectLowersLikeGolden(const std::string& dir, const std::string& name, const std::string& source_ext,
                            const std::function<std::unique_ptr<Renderer>(const std::string& arch)>& renderer_for);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_GOLDEN_CASES_H_
