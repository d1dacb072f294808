// File: tinygrad/runtime/hip/arch.cc
#include "tinygrad/runtime/hip/arch.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tg {

std::string AmdGpuTarget::name() const {
  if (features.empty()) return processor;
  return absl::StrCat(processor, ":", absl::StrJoin(features, ":"));
}

std::string AmdGpuTarget::IsaName() const { return absl::StrCat("amdgcn-amd-amdhsa--", name()); }

int AmdGpuTarget::major() const {
  const std::string digits = id().substr(0, id().size() - 2);
  int major = 0;
  for (char c : digits) major = major * 10 + (c - '0');
  return major;
}

absl::StatusOr<AmdGpuTarget> ParseAmdGpuTarget(std::string_view name) {
  auto bad = [&](const char* why) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad AMD GPU target \"", std::string(name), "\": ", why,
                     " (expected gfx<id>[:feature+|-...], e.g. gfx1100, gfx90a:xnack-)"));
  };
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t colon = name.find(':', start);
    parts.push_back(name.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  std::string_view processor = parts.front();
  if (processor.substr(0, 3) != "gfx") return bad("no gfx prefix");
  std::string_view id = processor.substr(3);
  if (id.size() < 3 || id.size() > 4) return bad("the processor id has 3 or 4 characters");
  // The generation digits are decimal (gfx1100, gfx942); the last two may be hex (gfx90a).
  for (size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    const bool ok = i + 2 < id.size() ? absl::ascii_isdigit(c)
                                      : absl::ascii_isdigit(c) || (c >= 'a' && c <= 'f');
    if (!ok) return bad("the processor id is not a gfx number");
  }
  if (id.front() == '0') return bad("the processor id starts with 0");
  AmdGpuTarget t{.processor = std::string(processor), .features = {}};
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string_view f = parts[i];
    if (f.size() < 2 || (f.back() != '+' && f.back() != '-')) return bad("a feature ends in + or -");
    for (char c : f.substr(0, f.size() - 1))
      if (!absl::ascii_islower(static_cast<unsigned char>(c)) &&
          !absl::ascii_isdigit(static_cast<unsigned char>(c)))
        return bad("a feature name is lower-case letters and digits");
    t.features.emplace_back(f);
  }
  return t;
}

}  // namespace tg
