// File: autotune/search_settings.cc
// Port of tinygrad/codegen/opt/search.py's getenv() knobs: conversion from Config and the
// canonical text form.
#include "autotune/search_settings.h"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tg::autotune {
namespace {

using FieldPtr =
    std::variant<int SearchSettings::*, double SearchSettings::*, bool SearchSettings::*>;

struct Field {
  std::string_view name;
  FieldPtr ptr;
  // Added after records were first stored: text without it means the default.
  bool added_later = false;
};

// One table drives printing and parsing, so the two cannot disagree. Order is the text order.
const std::vector<Field>& Fields() {
  static const auto* kFields = new std::vector<Field>{
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

// Shortest text that parses back to the same double (the key must not depend on printf's
// rounding).
std::string DoubleText(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : absl::StrCat(v);
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
  return s;
}

std::string SearchSettings::ToString() const {
  std::string out;
  for (const Field& f : Fields()) {
    if (!out.empty()) out += ' ';
    out.append(f.name).append("=");
    std::visit(
        [&](auto ptr) {
          using T = std::remove_cvref_t<decltype(this->*ptr)>;
          if constexpr (std::is_same_v<T, double>) {
            out += DoubleText(this->*ptr);
          } else {
            absl::StrAppend(&out, static_cast<int>(this->*ptr));
          }
        },
        f.ptr);
  }
  return out;
}

absl::StatusOr<SearchSettings> SearchSettings::Parse(std::string_view text) {
  SearchSettings s;
  std::vector<bool> seen(Fields().size(), false);
  while (!text.empty()) {
    size_t space = text.find(' ');
    std::string_view item = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::pair<std::string_view, std::string_view> kv = {
        item.substr(0, eq),
        eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1)};
    const Field* field = nullptr;
    size_t index = 0;
    for (size_t i = 0; i < Fields().size(); ++i)
      if (Fields()[i].name == kv.first) field = &Fields()[index = i];
    if (field == nullptr)
      return absl::InvalidArgumentError(
          absl::StrCat("search settings: unknown field '", std::string(kv.first), "'"));
    if (seen[index])
      return absl::InvalidArgumentError(
          absl::StrCat("search settings: '", std::string(kv.first), "' given twice"));
    bool ok = std::visit(
        [&](auto ptr) -> bool {
          using T = std::remove_cvref_t<decltype(s.*ptr)>;
          if constexpr (std::is_same_v<T, double>) {
            return absl::SimpleAtod(absl::string_view(kv.second.data(), kv.second.size()),
                                    &(s.*ptr)) &&
                   std::isfinite(s.*ptr);
          } else {
            int v = 0;
            if (!absl::SimpleAtoi(absl::string_view(kv.second.data(), kv.second.size()), &v))
              return false;
            if (std::is_same_v<T, bool> && v != 0 && v != 1) return false;
            s.*ptr = static_cast<T>(v);
            return true;
          }
        },
        field->ptr);
    if (!ok)
      return absl::InvalidArgumentError(absl::StrCat(
          "search settings: bad value '", std::string(kv.second), "' for ", std::string(kv.first)));
    seen[index] = true;
  }
  for (size_t i = 0; i < Fields().size(); ++i)
    if (!seen[i] && !Fields()[i].added_later)
      return absl::InvalidArgumentError(
          absl::StrCat("search settings: missing ", std::string(Fields()[i].name)));
  return s;
}

}  // namespace tg::autotune
