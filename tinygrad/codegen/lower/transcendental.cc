// File: tinygrad/codegen/lower/transcendental.cc
// Port of tinygrad/uop/decompositions.py: xexp2, xlog2, xsin (Cody-Waite and Payne-Hanek
// reductions), xpow, threefry2x32 and their bit-manipulation helpers.
#include "tinygrad/codegen/lower/transcendental.h"

namespace tg {
}  // namespace tg
