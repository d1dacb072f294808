// File: tinygrad/codegen/lower/fast_idiv.cc
// Port of tinygrad/uop/decompositions.py: magicgu and fast_idiv.
#include "tinygrad/codegen/lower/transcendental.h"

namespace tg {
}  // namespace tg
