// File: tinygrad/uop/min_max.h (internal to //tinygrad/uop)
// Port of tinygrad UOp._min_max: the value range of a node from its children's ranges.
#ifndef TINYGRAD_UOP_MIN_MAX_H_
#define TINYGRAD_UOP_MIN_MAX_H_

#include <span>
#include <utility>

#include "tinygrad/uop/uop.h"

namespace tg::uop_internal {

// (vmin, vmax) of a node with these fields; the sources' ranges are already known.
std::pair<ConstValue, ConstValue> ComputeMinMax(Ops op, DType dtype, std::span<const UOp> src,
                                                const Arg& arg);

}  // namespace tg::uop_internal

#endif  // TINYGRAD_UOP_MIN_MAX_H_
