// File: autotune/search/simd_actions.cc
#include "autotune/search/simd_actions.h"

#include <algorithm>
#include <set>

namespace tg::autotune {

std::vector<int64_t> SimdUpcastAmounts(const VectorIsa& isa) {
  if (!isa.known()) return {8, 16};
  // the reference allows at most 16 per UPCAST; wider tiles take two (16, then 2 from its list)
  std::set<int64_t> amounts = {6, 8};  // rows of a register tile (6x16 on AVX2, 8x32 on AVX-512)
  for (int64_t v = 1; v <= 2; ++v)
    if (isa.lanes() * v <= 16) amounts.insert(isa.lanes() * v);  // its columns: whole vectors
  return {amounts.begin(), amounts.end()};
}

std::vector<Opt> SimdActions(const VectorIsa& isa) {
  std::vector<Opt> a;
  // full-width vectors need a whole register's lanes in one upcast axis
  for (int64_t amt : SimdUpcastAmounts(isa))
    for (int axis = 0; axis < 8; ++axis) a.push_back(Opt{OptOps::UPCAST, axis, amt});
  const std::vector<int64_t> widths = isa.known() ? isa.SimdWidths() : std::vector<int64_t>{8, 16};
  for (int64_t width : widths) a.push_back(Opt{OptOps::SIMD, std::nullopt, width});
  return a;
}

int64_t AccumulatorFloats(const Scheduler& s) {
  const std::vector<AxisType> types = s.axis_types();
  if (std::none_of(types.begin(), types.end(), [](AxisType t) {
        return t == AxisType::REDUCE || t == AxisType::UNROLL || t == AxisType::GROUP_REDUCE;
      }))
    return 0;
  const std::vector<SInt> shape = s.full_shape();
  int64_t acc = 1;
  for (size_t k = 0; k < shape.size() && k < types.size(); ++k)
    if (types[k] == AxisType::UPCAST) acc *= shape[k].is_int() ? shape[k].value() : shape[k].vmax();
  return acc;
}

bool FitsVectorRegisters(const Scheduler& s, const VectorIsa& isa) {
  return !isa.known() || AccumulatorFloats(s) <= isa.MaxAccumulatorFloats();
}

}  // namespace tg::autotune
