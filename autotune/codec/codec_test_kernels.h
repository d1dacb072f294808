// File: autotune/codec/codec_test_kernels.h (testonly)
// Kernel ASTs for the codec's tests, benchmark and corpus tool: every workload's kernels, the
// same kernels after the optimizer and after the full rewrite (more ops and arg kinds), and
// hand-built graphs whose digests are pinned (they depend on nothing but the UOp layer).
#ifndef AUTOTUNE_CODEC_CODEC_TEST_KERNELS_H_
#define AUTOTUNE_CODEC_CODEC_TEST_KERNELS_H_

#include <string>
#include <string_view>
#include <vector>

#include "tinygrad/uop/uop.h"

namespace tg::autotune::codec {

struct NamedKernel {
  std::string name;  // "matmul/0"
  UOp ast;
};

// The SINK kernels of every built-in workload at its default parameters (inputs included),
// deduplicated by key.
std::vector<NamedKernel> WorkloadKernels();
// The small Tensor-graph kernels of autotune/measure/test_kernels (a[n] + b[n], x.sum(1),
// a @ b) and a few more (casts, where, a symbolic shape), every SINK kernel of each.
std::vector<NamedKernel> TensorKernels();
// The kernels of one workload.
std::vector<NamedKernel> KernelsOf(std::string_view workload);
// `k` with the heuristic's opts applied (the AST apply_opts returns), and its full rewrite to
// the linearizable sink for the C renderer; empty handles where that fails.
UOp OptimizedAst(const UOp& k);
UOp FullyRewritten(const UOp& k);

// out[i] = a[i] + b[i], 16 floats, built node by node.
UOp HandBuiltAddKernel();
// out[i] = CUSTOMI(c_text, a[i]) over 16 floats: a kernel that carries C source text.
UOp CustomCodeKernel(std::string_view c_text);
// A graph with every Arg alternative (None, bool, int, big int, float, NaN, -0.0, Invalid,
// string, Ops, AxisType, nested tuples), a tag, vector and pointer dtypes, DEFINE_VAR.
UOp HandBuiltArgZoo();

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_CODEC_TEST_KERNELS_H_
