// File: autotune/measure/candidate_ast.h
// What LocalMeasurer lowers for a task: the task's kernel AST with a candidate's opts to apply,
// and the opts that split its unoptimized reference kernel over the device. Public so that
// the farm's decode fuzz test (autotune/codec:lowering_fuzz_test) lowers exactly what a worker
// child lowers.
//
// Example:
//   for (const std::vector<Opt>& split : ReferenceSplits(ren))
//     if (GetProgram(CandidateAst(task.ast, split), ren, task.codegen).ok()) break;
#ifndef AUTOTUNE_MEASURE_CANDIDATE_AST_H_
#define AUTOTUNE_MEASURE_CANDIDATE_AST_H_

#include <vector>

#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

// The function name every candidate is compiled under (stable, so that identical programs
// render to identical sources).
inline constexpr const char* kCandidateKernelName = "beam_candidate";

// `ast` (a SINK) with a KernelInfo arg named kCandidateKernelName whose opts_to_apply are
// `opts`; the rest of the KernelInfo is the AST's own where its arg is one (axis types,
// applied opts, dont_use_locals), the defaults otherwise.
UOp CandidateAst(const UOp& ast, const std::vector<Opt>& opts);

// The opts that split the unoptimized kernel over the device's parallelism without changing
// what any output element computes, most wanted first; the caller falls back to no opts at
// all. Threads: THREAD on the first axis; a GPU: LOCAL on the first axis, 256 down to 2.
std::vector<std::vector<Opt>> ReferenceSplits(const Renderer& ren);

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_CANDIDATE_AST_H_
