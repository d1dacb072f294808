// File: tinygrad/renderer/c/float_patterns.h
// Port of tinygrad/renderer/cstyle.py: the rewrite rules C-like renderers add before
// linearizing (their `extra_matcher` pieces), shared by Clang and later CUDA/HIP/LLVM.
#ifndef TINYGRAD_RENDERER_C_FLOAT_PATTERNS_H_
#define TINYGRAD_RENDERER_C_FLOAT_PATTERNS_H_

#include <vector>

#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/pattern_matcher.h"

namespace tg {

// tinygrad's no_vectorized_alu (codegen/late/devectorizer.py): a vector ALU/CAST/... becomes a
// VECTORIZE of its scalar lanes; null for scalars and for image-index WHEREs (Invalid else).
UOp NoVectorizedAlu(const UOp& alu);

// tinygrad's extra_pm: devectorize bool ALUs, casts from bool, and every WHERE.
const PatternMatcher& CStyleExtraPm();

// tinygrad's create_non_native_float_pats(dts, casting): math on `dts` (floats the target
// has no arithmetic for) is done in float32; with `casting`, casts to/from `dts` go through
// float32.
PatternMatcher CreateNonNativeFloatPats(std::vector<DType> dts, bool casting = true);

// tinygrad's pm_manual_bf16_cast: float <-> bfloat16 casts with integer ops (no compiler
// intrinsics; round to nearest even, NaN kept quiet).
const PatternMatcher& PmManualBf16Cast();

// tinygrad's cast_float_to_bf16.
UOp CastFloatToBf16(const UOp& x);

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_FLOAT_PATTERNS_H_
