// File: autotune/net/str_cat.h
// Cat(...): absl::StrCat that also takes std::string_view. Debian's Abseil 20220623 is built
// with its own absl::string_view (ABSL_OPTION_USE_STD_STRING_VIEW 0), so absl::StrCat rejects
// std::string_view arguments. Internal to autotune/net (listed in srcs, not hdrs).
#ifndef AUTOTUNE_NET_STR_CAT_H_
#define AUTOTUNE_NET_STR_CAT_H_

#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace tg::autotune::net::internal {

template <typename T>
decltype(auto) ToAlphaNum(const T& v) {
  if constexpr (std::is_convertible_v<const T&, std::string_view> &&
                !std::is_convertible_v<const T&, absl::string_view>) {
    const std::string_view s(v);
    return absl::string_view(s.data(), s.size());
  } else {
    return (v);
  }
}

template <typename... T>
std::string Cat(const T&... v) {
  return absl::StrCat(ToAlphaNum(v)...);
}

}  // namespace tg::autotune::net::internal

#endif  // AUTOTUNE_NET_STR_CAT_H_
