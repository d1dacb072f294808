// File: tinygrad/codegen/lower/lower_index.h
// Port of tinygrad/uop/ops.py pm_lower_index_dtype: the unbounded `index` dtype of index math
// becomes int32, or int64 where a value's range does not fit int32 (select_dtype).
//
// Example (the "lower all index dtypes" pass of full_rewrite_to_sink):
//   sink = GraphRewrite(sink, PmLowerIndexDtype() + LoadStoreIndexing(),
//                       {.name = "lower all index dtypes"});
//
// Each lowered value is wrapped in CAST(index) so its consumers still type-check; the casts
// meet and cancel at binary ops, INDEX, SINK, NOOP and END. The rules read no context.
#ifndef TINYGRAD_CODEGEN_LOWER_LOWER_INDEX_H_
#define TINYGRAD_CODEGEN_LOWER_LOWER_INDEX_H_

#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/uop.h"

namespace tg {

const PatternMatcher& PmLowerIndexDtype();

// select_dtype: int32 (of u's vector width) unless u's range overflows int32, then int64.
DType SelectIndexDtype(const UOp& u);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_LOWER_LOWER_INDEX_H_
