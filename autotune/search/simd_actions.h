// File: autotune/search/simd_actions.h
// What BEAM_SIMD=1 (`tg tune --simd`, ours) adds to the reference's search, sized by the CPU's
// vector unit (autotune/key/vector_isa.h, from the device class in the tuning key):
// - SIMD opts of the widths the ISA has (8 floats on AVX2, 8 and 16 on AVX-512: a 16-float
//   vector on AVX2 is two registers and never a favourite worth offering);
// - UPCASTs that make register tiles: by one and two vectors' lanes (at most 16, the reference's
//   per-opt limit) and by 6 and 8 rows;
// - a register-pressure bound: a reducing kernel's accumulators (the product of its UPCAST
//   axes, in float32 lanes) must fit VectorIsa::MaxAccumulatorFloats(), so tiles that would
//   spill are not candidates.
// With an unknown vector unit (a GPU, an unknown CPU) the extension is what it was before: UPCAST
// 8 and 16, SIMD 8 and 16, no bound. Without BEAM_SIMD none of this applies.
//
// Example:
//   std::vector<Opt> extra = SimdActions({.vector_bits = 256, .vector_registers = 16});
//   if (!FitsVectorRegisters(child, isa)) continue;   // in GetKernelActions
#ifndef AUTOTUNE_SEARCH_SIMD_ACTIONS_H_
#define AUTOTUNE_SEARCH_SIMD_ACTIONS_H_

#include <cstdint>
#include <vector>

#include "autotune/key/vector_isa.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"

namespace tg::autotune {

// The UPCAST amounts BEAM_SIMD adds for `isa`, ascending.
std::vector<int64_t> SimdUpcastAmounts(const VectorIsa& isa);

// The actions BEAM_SIMD appends to the reference's list: UPCAST by SimdUpcastAmounts() on 8
// axes, then a SIMD opt per width.
std::vector<Opt> SimdActions(const VectorIsa& isa);

// The float32 accumulators `s`'s register tile holds: the product of its UPCAST axes when the
// kernel reduces (they live across the reduction loop), else 0 (an elementwise kernel's upcast
// values need not be live at once).
int64_t AccumulatorFloats(const Scheduler& s);

// Whether `s`'s register tile fits `isa`'s vector registers (always, when `isa` is unknown).
bool FitsVectorRegisters(const Scheduler& s, const VectorIsa& isa);

}  // namespace tg::autotune

#endif  // AUTOTUNE_SEARCH_SIMD_ACTIONS_H_
