// File: tinygrad/codegen/expander.h
// Port of tinygrad/codegen/late/expander.py: UPCAST/UNROLL ranges become vector dtypes.
//
// pm_pre_expander turns an UPCAST/UNROLL RANGE of size s into UNROLL(VCONST(0..s-1)) and fixes
// REDUCE/STORE range lists that now hold UNROLLs; pm_group_for_reduce stages GROUP_REDUCE
// partial sums in local memory; the expander rebuilds every op with UNROLL sources once on
// vectors (do_expand) and resolves CONTRACTs into GEPs.
//
// Example (the "expander" pass of full_rewrite_to_sink):
//   sink = GraphRewrite(sink, Sym() + PmPreExpander() + PmGroupForReduce() + Expander(),
//                       {.name = "expander"});
#ifndef TINYGRAD_CODEGEN_EXPANDER_H_
#define TINYGRAD_CODEGEN_EXPANDER_H_

#include "tinygrad/uop/pattern_matcher.h"

namespace tg {

const PatternMatcher& PmPreExpander();
const PatternMatcher& PmGroupForReduce();
const PatternMatcher& Expander();

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_EXPANDER_H_
