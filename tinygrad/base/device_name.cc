// File: tinygrad/base/device_name.cc
// Port of tinygrad/device.py: _Device._canonicalize and the environment half of DEFAULT.
#include "tinygrad/base/device_name.h"

#include <cctype>
#include <cstdlib>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tg {

std::string CanonicalDeviceName(std::string_view name) {
  if (IsMultiDeviceName(name)) return MultiDeviceName(DeviceNames(name));
  const size_t colon = name.find(':');
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i)
    out.push_back(i < colon ? static_cast<char>(std::toupper(static_cast<unsigned char>(name[i])))
                            : name[i]);
  if (out.size() >= 2 && out.ends_with(":0") && colon == out.size() - 2) out.resize(colon);
  return out;
}

std::string MultiDeviceName(std::span<const std::string> devices) {
  std::vector<std::string> names;
  for (const std::string& d : devices) names.push_back(CanonicalDeviceName(d));
  return absl::StrCat("(", absl::StrJoin(names, ", "), ")");
}

bool IsMultiDeviceName(std::string_view name) {
  return name.size() >= 2 && name.front() == '(' && name.back() == ')';
}

std::vector<std::string> DeviceNames(std::string_view name) {
  if (!IsMultiDeviceName(name)) return {std::string(name)};
  std::vector<std::string> out;
  for (absl::string_view part :
       absl::StrSplit(absl::string_view(name.data() + 1, name.size() - 2), ','))
    if (absl::string_view d = absl::StripAsciiWhitespace(part); !d.empty())
      out.emplace_back(d.data(), d.size());
  return out;
}

std::string_view DeviceKind(std::string_view name) { return name.substr(0, name.find(':')); }

absl::StatusOr<int> DeviceOrdinal(std::string_view name) {
  const size_t colon = name.find(':');
  if (colon == std::string_view::npos) return 0;
  const std::string_view rest = name.substr(colon + 1);
  int ordinal = -1;
  // SimpleAtoi takes a sign and spaces: only digits name a device.
  const bool digits = !rest.empty() && rest.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits || !absl::SimpleAtoi(absl::string_view(rest.data(), rest.size()), &ordinal))
    return absl::InvalidArgumentError(absl::StrCat("device '", std::string(name),
                                                   "': expected <KIND> or <KIND>:<number>"));
  return ordinal;
}

std::optional<std::string> ProcessEnv(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

absl::StatusOr<std::optional<std::string>> DeviceFromEnvironment(const EnvLookup& env) {
  std::vector<std::string> named;  // in the order found, each once
  std::vector<std::string> why;    // the settings that named them
  auto add = [&](std::string device, std::string setting) {
    for (const std::string& d : named)
      if (d == device) return;
    named.push_back(std::move(device));
    why.push_back(std::move(setting));
  };
  for (std::string_view var : {"DEV", "DEVICE"}) {
    std::optional<std::string> v = env(var);
    if (v.has_value() && !v->empty())
      add(CanonicalDeviceName(*v), absl::StrCat(std::string(var), "=", *v));
  }
  for (std::string_view kind : kDeviceKinds) {
    std::optional<std::string> v = env(kind);
    // tinygrad's getenv(d) == 1: an integer 1 ("01" too)
    int value = 0;
    if (v.has_value() && absl::SimpleAtoi(*v, &value) && value == 1)
      add(std::string(kind), absl::StrCat(std::string(kind), "=", *v));
  }
  if (named.size() > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "multiple devices set in the environment (", absl::StrJoin(why, ", "), "): set one"));
  if (named.empty()) return std::nullopt;
  return named[0];
}

}  // namespace tg
