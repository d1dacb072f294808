// File: autotune/search/register_tiles.h
// BEAM_SIMD's register tiles (SearchSettings::tiles, on with `tg tune --simd`): what lets a
// narrow beam (BEAM=2, 4) find the BLAS-style tiles that the reference's limits and its
// one-opt-per-round greed keep out of reach.
// - Limits: where the vector ISA is known, a reducing kernel's register tile is bounded by the
//   register file (FitsVectorRegisters, simd_actions.h) instead of BEAM_UPCAST_MAX, which
//   counts UNROLL too (a 4x64 tile with UNROLL 4 is 1024 against 256); UNROLL gets a bound of
//   its own, and BEAM_UOPS_MAX grows with the tile the registers allow. A BEAM_UPCAST_MAX or
//   BEAM_UOPS_MAX other than the reference's default is the user's and stands.
// - Seeds: the first round also gets, as whole opt lists, the mr x nr tiles a BLAS kernel
//   would use on the ISA: nr = v vectors of B's row (v = 1..4), mr the most rows whose
//   accumulators fit beside those v vectors and A's broadcast element (AVX-512: 16x16, 8x32,
//   4x64 on a 1024 matmul; AVX2: 8x8, 4x16, 2x32), only where the kernel's axes divide by them;
//   where the rows do not divide by the full tile's, also the full tile with its rows padded
//   (PADTO after SIMD: AVX2's 6x16, tools/bench/cpu_matmul_log.md, "AVX2 register tiles").
//   They are candidates like any other: measured, checked against the unoptimized kernel, and
//   kept in the beam only if fast; later rounds add THREAD, UNROLL, PACK to them as usual.
// Without BEAM_SIMD, or with an unknown ISA, none of this applies: the reference's limits.
//
// Example:
//   SearchLimits l = SearchLimitsFor(settings, isa);   // l.unroll_max > 0: UNROLL apart
//   for (const std::vector<Opt>& seed : RegisterTileSeeds(root, isa)) ...
#ifndef AUTOTUNE_SEARCH_REGISTER_TILES_H_
#define AUTOTUNE_SEARCH_REGISTER_TILES_H_

#include <cstdint>
#include <vector>

#include "autotune/key/search_settings.h"
#include "autotune/key/vector_isa.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"

namespace tg::autotune {

// The reference's defaults (search.py): a value other than these was set by the user.
inline constexpr int kReferenceUpcastMax = 256;
inline constexpr int kReferenceUopsMax = 3000;
// UNROLL's own bound with register tiles: the 8x32 and 4x64 tiles that come near BLAS on
// AVX-512 unroll the reduction by 4 (tools/bench/cpu_matmul_log.md, "With packed panels").
inline constexpr int64_t kTileUnrollMax = 8;

// The limits a candidate must respect.
struct SearchLimits {
  int64_t upcast_max = kReferenceUpcastMax;  // the product of UPCAST (and UNROLL when unroll_max is 0)
  int64_t unroll_max = 0;                    // the product of UNROLL; 0: counted in upcast_max
  int64_t uops_max = kReferenceUopsMax;      // BEAM_UOPS_MAX as the measurer applies it
  friend bool operator==(const SearchLimits&, const SearchLimits&) = default;
};

// Whether `settings` with `isa` search with register tiles (simd, tiles and a known ISA).
bool UsesRegisterTiles(const SearchSettings& settings, const VectorIsa& isa);

// The settings' limits; with register tiles, those above where the user left the defaults.
SearchLimits SearchLimitsFor(const SearchSettings& settings, const VectorIsa& isa);

// The ISA's register tiles for `s` (the unoptimized kernel, loops made global) as opt lists,
// each valid on `s` and fitting the registers: none for an unknown ISA or a kernel without a
// reduction or without two output axes to tile. The columns (nr) are the last output axis,
// the rows (mr) the one before it.
std::vector<std::vector<Opt>> RegisterTileSeeds(const Scheduler& s, const VectorIsa& isa);

}  // namespace tg::autotune

#endif  // AUTOTUNE_SEARCH_REGISTER_TILES_H_
