// File: tinygrad/base/field_text.h
// A settings struct as one canonical line of `name=value` items, and back: the form cache
// keys hash and databases store (search settings, codegen options). One table of fields
// drives printing and parsing, so the two cannot disagree.
//
// Example:
//   const std::vector<TextField<Opts>> kFields = {{"devectorize", &Opts::devectorize}, ...};
//   std::string text = FieldsToText(opts, kFields);          // "devectorize=1 ..."
//   ASSIGN_OR_RETURN(Opts back, FieldsFromText<Opts>(text, kFields, "codegen options"));
#ifndef TINYGRAD_BASE_FIELD_TEXT_H_
#define TINYGRAD_BASE_FIELD_TEXT_H_

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tg {

template <typename T>
struct TextField {
  std::string_view name;
  std::variant<int T::*, double T::*, bool T::*> ptr;
  // Added after texts were first stored: a text without it means the default.
  bool added_later = false;
};

// Shortest text that parses back to the same double (a key must not depend on printf's
// rounding).
inline std::string ExactDoubleText(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : absl::StrCat(v);
}

// Every field as name=value in the table's order, one space apart.
template <typename T>
std::string FieldsToText(const T& value, const std::vector<TextField<T>>& fields) {
  std::string out;
  for (const TextField<T>& f : fields) {
    if (!out.empty()) out += ' ';
    out.append(f.name.data(), f.name.size()).append("=");
    std::visit(
        [&](auto ptr) {
          using V = std::remove_cvref_t<decltype(value.*ptr)>;
          if constexpr (std::is_same_v<V, double>) {
            out += ExactDoubleText(value.*ptr);
          } else {
            absl::StrAppend(&out, static_cast<int>(value.*ptr));
          }
        },
        f.ptr);
  }
  return out;
}

// The inverse of FieldsToText, in any order. Fields left out of the text keep their default
// only when added_later. Errors say `what` and name the field that is missing, unknown, given
// twice or malformed.
template <typename T>
absl::StatusOr<T> FieldsFromText(std::string_view text, const std::vector<TextField<T>>& fields,
                                 std::string_view what) {
  T out{};
  std::vector<bool> seen(fields.size(), false);
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view item = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string_view name = item.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    size_t index = fields.size();
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i].name == name) index = i;
    if (index == fields.size())
      return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": unknown field '", std::string(name), "'"));
    if (seen[index])
      return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": '", std::string(name), "' given twice"));
    const absl::string_view v(value.data(), value.size());
    const bool ok = std::visit(
        [&](auto ptr) -> bool {
          using V = std::remove_cvref_t<decltype(out.*ptr)>;
          if constexpr (std::is_same_v<V, double>) {
            return absl::SimpleAtod(v, &(out.*ptr)) && std::isfinite(out.*ptr);
          } else {
            int n = 0;
            if (!absl::SimpleAtoi(v, &n)) return false;
            if (std::is_same_v<V, bool> && n != 0 && n != 1) return false;
            out.*ptr = static_cast<V>(n);
            return true;
          }
        },
        fields[index].ptr);
    if (!ok)
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(what), ": bad value '", std::string(value), "' for ", std::string(name)));
    seen[index] = true;
  }
  for (size_t i = 0; i < fields.size(); ++i)
    if (!seen[i] && !fields[i].added_later)
      return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": missing ", std::string(fields[i].name)));
  return out;
}

}  // namespace tg

#endif  // TINYGRAD_BASE_FIELD_TEXT_H_
