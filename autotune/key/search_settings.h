// File: autotune/key/search_settings.h
// The settings that change what a BEAM search finds: the beam width and the reference's knobs
// (tinygrad/codegen/opt/search.py and helpers.py: BEAM, BEAM_UPCAST_MAX, BEAM_LOCAL_MAX,
// BEAM_UOPS_MAX, BEAM_MIN_PROGRESS, BEAM_TIMEOUT_SEC, BEAM_PADTO, NOLOCALS, TC, TC_OPT), plus
// our BEAM_SIMD (the SIMD extension opt, tinygrad/codegen/opt/opt.h), `block` (the BLOCK
// opt, `tg tune --blocking`), `pack` (the PACK opt, `tg tune --pack`) and `tiles` (the ISA's
// register tiles, with BEAM_SIMD).
//
// Port of the getenv() reads of tinygrad/codegen/opt/search.py, gathered into one value: the
// search reads them from here and the tuning database keys its records by them, so a search
// run with other knobs never answers from another's cache entry. Settings that only change
// reporting (BEAM_DEBUG) or whether the cache is used (IGNORE_BEAM_CACHE) are not here.
//
// Example:
//   SearchSettings s = SearchSettings::FromConfig(GetConfig());
//   s.width = 4;
//   s.ToString()   // "width=4 upcast_max=256 local_max=1024 uops_max=3000 min_progress_us=0.01
//   ..."
#ifndef AUTOTUNE_KEY_SEARCH_SETTINGS_H_
#define AUTOTUNE_KEY_SEARCH_SETTINGS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/base/config.h"

namespace tg::autotune {

struct SearchSettings {
  int width = 2;                  // BEAM: beam width (kept candidates per round)
  int upcast_max = 256;           // BEAM_UPCAST_MAX: largest upcast product
  int local_max = 1024;           // BEAM_LOCAL_MAX: largest local size
  int uops_max = 3000;            // BEAM_UOPS_MAX: bigger programs are not timed, 0 off
  double min_progress_us = 0.01;  // BEAM_MIN_PROGRESS: a round must gain this (microseconds)
  int timeout_sec = 10;           // BEAM_TIMEOUT_SEC: compile limit of one candidate
  bool padto = false;             // BEAM_PADTO: PADTO actions
  bool nolocals = false;          // NOLOCALS: the NOLOCALS action
  int tc = 1;                     // TC: use_tensor_cores of the TC actions
  int tc_opt = 2;                 // TC_OPT: opt level of the TC actions (search.py's default 2)
  bool simd = false;              // BEAM_SIMD (ours): SIMD and UPCAST 8/16 actions
  // BEAM_BLOCK (ours, `tg tune --blocking`): BLOCK actions. In the text only when on, so that turning
  // the option in does not change the key of every record stored before it existed.
  bool block = false;
  // `tg tune --pack` (ours): PACK actions, in the text only when on (as block).
  bool pack = false;
  // Register tiles (ours; BEAM_SIMD=1 and `tg tune --simd` turn it on with simd): where the
  // device's vector ISA is known, the search's first round also gets the ISA's BLAS-style
  // register tiles as whole opt lists, and the register file bounds a reducing kernel's tile
  // in place of upcast_max (which counts UNROLL), with uops_max scaled to such tiles: see
  // autotune/search/register_tiles.h (an upcast_max or uops_max other than the reference's
  // default is the user's, and stands). In the text only when on (as block).
  bool tiles = false;

  // The reference defaults overridden by `c` (width from c.beam when it is > 0).
  static SearchSettings FromConfig(const Config& c);

  // Canonical text: every field as name=value in declaration order, one space apart (block,
  // pack and tiles only when on); the tuning key hashes it and the database stores it.
  // Parse(ToString()) == *this.
  std::string ToString() const;
  // Errors name the field that is missing, unknown or malformed.
  static absl::StatusOr<SearchSettings> Parse(std::string_view text);

  friend bool operator==(const SearchSettings&, const SearchSettings&) = default;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_KEY_SEARCH_SETTINGS_H_
