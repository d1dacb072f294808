// File: tinygrad/codegen/opt/padded_reduce.h
// Whether PADTO may pad a reduce axis: the iterations it adds must add nothing.
//
// PADTO gates every buffer read whose index uses the padded range, so those reads give 0 on
// the added iterations; a reduce over that range is unchanged only when what it adds is then
// 0 too. The reference checks only the kernel's first reduce, and only for ops with f(0) != 0
// by nature (UnsafePad: RECIPROCAL, EXP2, LOG2, IDIV, POW): a variance's sum((x - mean)^2)
// passes that check and sums mean^2 once per added iteration (found by
// autotune/search:gpu_action_sweep_test; the reference gives the same wrong values). Ours also
// refuses every reduce over the range that is not a sum of values provably 0 there.
#ifndef TINYGRAD_CODEGEN_OPT_PADDED_REDUCE_H_
#define TINYGRAD_CODEGEN_OPT_PADDED_REDUCE_H_

#include "tinygrad/uop/uop.h"

namespace tg {

// Whether every REDUCE in `ast` over the RANGE `rng` is an ADD whose source is 0 wherever the
// reads indexed by `rng` are 0. Conservative: an op it has no rule for is not known to be 0.
bool PaddedReducesAddZeros(const UOp& ast, const UOp& rng);

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_PADDED_REDUCE_H_
