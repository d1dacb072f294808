// File: autotune/key/search_settings.cc
// Port of tinygrad/codegen/opt/search.py's getenv() knobs: conversion from Config and the
// canonical text form.
#include "autotune/key/search_settings.h"

#include <string>
#include <string_view>
#include <vector>

#include "tinygrad/base/field_text.h"

namespace tg::autotune {
namespace {

// Order is the text order.
const std::vector<TextField<SearchSettings>>& Fields() {
  static const auto* kFields = new std::vector<TextField<SearchSettings>>{
      {"width", &SearchSettings::width},
      {"upcast_max", &SearchSettings::upcast_max},
      {"local_max", &SearchSettings::local_max},
      {"uops_max", &SearchSettings::uops_max},
      {"min_progress_us", &SearchSettings::min_progress_us},
      {"timeout_sec", &SearchSettings::timeout_sec},
      {"padto", &SearchSettings::padto},
      {"nolocals", &SearchSettings::nolocals},
      {"tc", &SearchSettings::tc},
      {"tc_opt", &SearchSettings::tc_opt},
      {"simd", &SearchSettings::simd, /*added_later=*/true},
  };
  return *kFields;
}

// Fields() and those printed only when they differ from the default.
const std::vector<TextField<SearchSettings>>& ParsedFields() {
  static const auto* kFields = [] {
    auto* f = new std::vector<TextField<SearchSettings>>(Fields());
    f->push_back({"block", &SearchSettings::block, /*added_later=*/true});
    f->push_back({"pack", &SearchSettings::pack, /*added_later=*/true});
    f->push_back({"tiles", &SearchSettings::tiles, /*added_later=*/true});
    return f;
  }();
  return *kFields;
}

}  // namespace

SearchSettings SearchSettings::FromConfig(const Config& c) {
  SearchSettings s;
  if (c.beam > 0) s.width = c.beam;
  s.upcast_max = c.beam_upcast_max;
  s.local_max = c.beam_local_max;
  s.uops_max = c.beam_uops_max;
  s.min_progress_us = c.beam_min_progress;
  s.timeout_sec = c.beam_timeout_sec;
  s.padto = c.beam_padto;
  s.nolocals = c.nolocals;
  s.tc = c.tc;
  s.tc_opt = c.tc_opt.value_or(2);  // search.py reads TC_OPT with default 2
  s.simd = c.beam_simd;
  s.tiles = c.beam_simd;  // BEAM_SIMD's search is sized by the ISA's register tiles
  s.block = c.beam_block;
  return s;
}

std::string SearchSettings::ToString() const {
  std::string text = FieldsToText(*this, Fields());
  if (block) text += " block=1";
  if (pack) text += " pack=1";
  if (tiles) text += " tiles=1";
  return text;
}

absl::StatusOr<SearchSettings> SearchSettings::Parse(std::string_view text) {
  return FieldsFromText(text, ParsedFields(), "search settings");
}

}  // namespace tg::autotune
