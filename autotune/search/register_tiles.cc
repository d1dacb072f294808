// File: autotune/search/register_tiles.cc
#include "autotune/search/register_tiles.h"

#include <algorithm>

#include "autotune/search/simd_actions.h"

namespace tg::autotune {

bool UsesRegisterTiles(const SearchSettings& settings, const VectorIsa& isa) {
  return settings.simd && settings.tiles && isa.known();
}

SearchLimits SearchLimitsFor(const SearchSettings& settings, const VectorIsa& isa) {
  SearchLimits l{.upcast_max = settings.upcast_max, .unroll_max = 0, .uops_max = settings.uops_max};
  if (!UsesRegisterTiles(settings, isa)) return l;
  if (settings.upcast_max == kReferenceUpcastMax) {
    // a reducing kernel's UPCASTs are bounded by the registers (FitsVectorRegisters); this
    // bound is for the others, whose upcast values need not be live at once
    l.upcast_max = std::max<int64_t>(kReferenceUpcastMax, isa.MaxAccumulatorFloats());
    l.unroll_max = kTileUnrollMax;
  }
  // The reference's 3000 uops hold a 256-float tile without UNROLL; a program grows with its
  // tile times its unroll, so the limit grows with the largest tile the registers take.
  if (settings.uops_max == kReferenceUopsMax)
    l.uops_max = std::max<int64_t>(kReferenceUopsMax,
                                   kReferenceUopsMax * isa.MaxAccumulatorFloats() * kTileUnrollMax /
                                       (2 * kReferenceUpcastMax));
  return l;
}

namespace {

// The largest divisor of `n` that is at most `cap`.
int64_t LargestDivisorUpTo(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, cap); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

}  // namespace

std::vector<std::vector<Opt>> RegisterTileSeeds(const Scheduler& s, const VectorIsa& isa) {
  std::vector<std::vector<Opt>> seeds;
  if (!isa.known() || s.unrollable_dims().empty()) return seeds;  // no reduction: no accumulators
  const std::vector<int> out = s.upcastable_dims();
  if (out.size() < 2) return seeds;
  const int n_axis = out[out.size() - 1], m_axis = out[out.size() - 2];
  const std::vector<SInt> shape = s.full_shape();
  const int64_t n = shape[n_axis].value(), m = shape[m_axis].value();  // upcastable: constant
  const int64_t lanes = isa.lanes(), regs = isa.vector_registers;
  auto add = [&](std::vector<Opt> tile) {  // only tiles that apply to `s` and fit the registers
    Scheduler t = s;
    for (const Opt& o : tile)
      if (!t.ApplyOpt(o).ok()) return;
    if (FitsVectorRegisters(t, isa)) seeds.push_back(std::move(tile));
  };
  // A BLAS micro-kernel holds mr x v accumulator vectors, v vectors of B's row and A's
  // broadcast element at once; the accumulators also stay within MaxAccumulatorFloats.
  for (int64_t v = 1; v <= 4; ++v) {
    const int64_t nr = v * lanes;
    if (n % nr != 0) continue;
    const int64_t mr_max = std::min<int64_t>({(regs - v - 1) / v, isa.MaxAccumulatorFloats() / nr, 16});  // 16: UPCAST's limit
    const int64_t mr = LargestDivisorUpTo(m, mr_max);
    // the first UPCAST on the columns makes the vectors (stride 1), the second their count
    std::vector<Opt> columns = {Opt{OptOps::UPCAST, n_axis, lanes}};
    if (v > 1) columns.push_back(Opt{OptOps::UPCAST, n_axis, v});
    if (mr >= 2) {  // a one-row tile is what the UPCAST actions offer already
      std::vector<Opt> tile = columns;
      tile.push_back(Opt{OptOps::UPCAST, m_axis, mr});
      tile.push_back(Opt{OptOps::SIMD, std::nullopt, lanes});
      add(std::move(tile));
    }
    // Where the rows do not divide by the full tile's (6x16 on AVX2 with 1024 rows), the rows
    // padded to two tiles' multiple (so that THREAD on the rows still splits them evenly).
    // Order as measured (tools/bench/cpu_matmul_log.md, "AVX2 register tiles"): SIMD before
    // PADTO (the padded rows' loads are clamped, not gated), the rows' UPCAST before the
    // columns'.
    if (mr < mr_max) {
      std::vector<Opt> tile = {Opt{OptOps::SIMD, std::nullopt, lanes}, Opt{OptOps::PADTO, m_axis, 2 * mr_max},
                               Opt{OptOps::UPCAST, m_axis, mr_max}};
      tile.insert(tile.end(), columns.begin(), columns.end());
      add(std::move(tile));
    }
  }
  return seeds;
}

}  // namespace tg::autotune
