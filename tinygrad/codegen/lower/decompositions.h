// File: tinygrad/codegen/lower/decompositions.h
// Port of tinygrad/uop/decompositions.py get_late_rewrite_patterns: the rules that rewrite the
// ops a renderer does not render natively into ones it does, plus the cheaper forms (shifts,
// fast integer division, MULACC, NEG/SUB, FDIV) of ops it does support.
//
// Example (the "decompositions" pass of full_rewrite_to_sink):
//   PatternMatcher pm = SymbolicSimple() +
//       GetLateRewritePatterns(ren.code_for_op, options.transcendental >= 2,
//                              options.disable_fast_idiv);     // CodegenOptions
//   sink = GraphRewrite(sink, pm, {.name = "decompositions"});
//
// The rules read no context. TODO(parity): tinygrad asks is_dtype_supported(next int dtype,
// device) before widening a fast division; we assume every target has 64-bit ints (all of ours
// do; tinygrad's only exception is WEBGPU).
#ifndef TINYGRAD_CODEGEN_LOWER_DECOMPOSITIONS_H_
#define TINYGRAD_CODEGEN_LOWER_DECOMPOSITIONS_H_

#include "tinygrad/uop/ops.h"
#include "tinygrad/uop/pattern_matcher.h"

namespace tg {

// Rules for the ops not in `supported_ops` (the keys of the renderer's code_for_op).
// force_transcendental (TRANSCENDENTAL>=2) decomposes EXP2/LOG2/SIN even when supported;
// disable_fast_idiv (DISABLE_FAST_IDIV) keeps integer division by constants as IDIV/MOD.
PatternMatcher GetLateRewritePatterns(OpSet supported_ops, bool force_transcendental,
                                      bool disable_fast_idiv);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_LOWER_DECOMPOSITIONS_H_
