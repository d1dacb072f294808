// File: tinygrad/nn/safetensors_format.cc
// The header is parsed by tinygrad/base:json_fields (no exceptions, limits on depth and
// duplicate names); every field is type-checked before it is read.
#include "tinygrad/nn/safetensors_format.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "tinygrad/base/json_fields.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

// Lengths and tensor bytes are little-endian in the file and copied as they are.
static_assert(std::endian::native == std::endian::little, "safetensors IO assumes little-endian");

using Json = nlohmann::json;

struct NamedDType {
  std::string_view name;
  DType dtype;
};
// The reference's safe_dtypes, plus the format's fp8 names.
constexpr std::array<NamedDType, 15> kDTypes = {{
    {"BOOL", dtypes::bool_},     {"I8", dtypes::int8},       {"U8", dtypes::uint8},
    {"I16", dtypes::int16},      {"U16", dtypes::uint16},    {"I32", dtypes::int32},
    {"U32", dtypes::uint32},     {"I64", dtypes::int64},     {"U64", dtypes::uint64},
    {"F16", dtypes::float16},    {"BF16", dtypes::bfloat16}, {"F32", dtypes::float32},
    {"F64", dtypes::float64},    {"F8_E4M3", dtypes::fp8e4m3}, {"F8_E5M2", dtypes::fp8e5m2},
}};

constexpr std::string_view kMetadataKey = "__metadata__";
// A header is three levels deep (header, entry, shape); anything far deeper is not one.
constexpr int kMaxJsonDepth = 16;

// Errors name the file, then (where there is one) the tensor.
class Complaint {
 public:
  explicit Complaint(std::string_view file) : file_(file) {}
  absl::Status operator()(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("safetensors file '", std::string(file_), "': ", std::string(what)));
  }
  absl::Status operator()(std::string_view tensor, std::string_view what) const {
    return (*this)(absl::StrCat("tensor '", std::string(tensor), "': ", std::string(what)));
  }

 private:
  std::string_view file_;
};

// A JSON number that is a non-negative integer, else nullopt (negative, fractional, too big
// for u64 — nlohmann reads those as floats — or not a number).
std::optional<uint64_t> NonNegativeInt(const Json& v) {
  absl::StatusOr<uint64_t> n = JsonCount(v, "");
  return n.ok() ? std::optional<uint64_t>(*n) : std::nullopt;
}

absl::StatusOr<SafetensorsEntry> ParseEntry(const std::string& name, const Json& v,
                                            const Complaint& bad) {
  if (!v.is_object()) return bad(name, "entry is not an object");
  SafetensorsEntry e;
  auto dtype = v.find("dtype");
  if (dtype == v.end() || !dtype->is_string()) return bad(name, "no \"dtype\" string");
  std::optional<DType> dt = DTypeFromSafetensorsName(dtype->get<std::string>());
  if (!dt) return bad(name, absl::StrCat("unknown dtype '", dtype->get<std::string>(), "'"));
  e.dtype = *dt;

  auto shape = v.find("shape");
  if (shape == v.end() || !shape->is_array()) return bad(name, "no \"shape\" array");
  // Each dim, and the product of the non-zero ones (strides are made of those), fit an int64.
  uint64_t numel = 1, nonzero = 1;
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  for (const Json& d : *shape) {
    std::optional<uint64_t> n = NonNegativeInt(d);
    if (!n) return bad(name, absl::StrCat("shape ", shape->dump(), " has a dim that is not a non-negative integer"));
    if (*n > 0 && (__builtin_mul_overflow(nonzero, *n, &nonzero) || nonzero > kMax))
      return bad(name, absl::StrCat("shape ", shape->dump(), " has more elements than an int64 counts"));
    numel *= *n;  // <= nonzero, or 0
    e.shape.push_back(static_cast<int64_t>(*n));
  }

  auto offsets = v.find("data_offsets");
  if (offsets == v.end() || !offsets->is_array() || offsets->size() != 2)
    return bad(name, "no \"data_offsets\" array of two numbers");
  std::optional<uint64_t> begin = NonNegativeInt((*offsets)[0]), end = NonNegativeInt((*offsets)[1]);
  if (!begin || !end || *begin > *end)
    return bad(name, absl::StrCat("data_offsets ", offsets->dump(),
                                  " are not non-negative integers [begin, end] with begin <= end"));
  e.begin = *begin;
  e.end = *end;
  uint64_t nbytes;
  if (__builtin_mul_overflow(numel, static_cast<uint64_t>(e.dtype.itemsize()), &nbytes) ||
      nbytes != e.nbytes())
    return bad(name, absl::StrCat("shape ", shape->dump(), " of ", dtype->get<std::string>(),
                                  " does not fill data_offsets ", offsets->dump(), " (",
                                  e.nbytes(), " bytes)"));
  return e;
}

absl::StatusOr<std::map<std::string, std::string>> ParseMetadata(const Json& v, const Complaint& bad) {
  if (!v.is_object()) return bad("\"__metadata__\" is not an object");
  std::map<std::string, std::string> out;
  for (const auto& [k, value] : v.items())
    out[k] = value.is_string() ? value.get<std::string>() : value.dump();
  return out;
}

// Every byte of the data section in exactly one tensor (the entries are inside it already).
absl::Status CheckCoverage(const SafetensorsHeader& h, uint64_t data_size, const Complaint& bad) {
  std::vector<std::pair<const std::string*, const SafetensorsEntry*>> order;
  for (const auto& [name, e] : h.tensors) order.push_back({&name, &e});
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return std::pair(a.second->begin, a.second->end) < std::pair(b.second->begin, b.second->end);
  });
  uint64_t covered = 0;
  const std::string* last = nullptr;
  for (const auto& [name, e] : order) {
    if (e->begin < covered)
      return bad(*name, absl::StrCat("data_offsets [", e->begin, ", ", e->end,
                                     ") overlap those of tensor '", *last, "'"));
    if (e->begin > covered)
      return bad(*name, absl::StrCat("data_offsets [", e->begin, ", ", e->end,
                                     ") leave the bytes [", covered, ", ", e->begin,
                                     ") of the data section unused"));
    covered = e->end;
    if (e->nbytes() > 0) last = name;
  }
  if (covered != data_size)
    return bad(absl::StrCat("the data section's last ", data_size - covered, " of ", data_size,
                            " bytes belong to no tensor"));
  return absl::OkStatus();
}

}  // namespace

std::optional<std::string_view> SafetensorsDTypeName(DType dt) {
  for (const NamedDType& d : kDTypes)
    if (d.dtype == dt) return d.name;
  return std::nullopt;
}

std::optional<DType> DTypeFromSafetensorsName(std::string_view name) {
  for (const NamedDType& d : kDTypes)
    if (d.name == name) return d.dtype;
  return std::nullopt;
}

absl::StatusOr<SafetensorsHeader> ParseSafetensors(std::span<const std::byte> file,
                                                   std::string_view file_name) {
  Complaint bad(file_name);
  if (file.size() < 8)
    return bad(absl::StrCat("file of ", file.size(), " bytes is shorter than the 8-byte header length"));
  uint64_t n;
  std::memcpy(&n, file.data(), 8);
  if (n > file.size() - 8)
    return bad(absl::StrCat("header length ", n, " goes past the end of the file (",
                            file.size(), " bytes)"));
  if (n > kMaxSafetensorsHeaderBytes)
    return bad(absl::StrCat("header length ", n, " is over the format's limit of ",
                            kMaxSafetensorsHeaderBytes, " bytes"));
  std::string_view text(reinterpret_cast<const char*>(file.data()) + 8, n);
  // Duplicate names (at any level) are errors, which JSON leaves open and nlohmann resolves
  // silently; so is nesting beyond kMaxJsonDepth.
  absl::StatusOr<Json> parsed =
      ParseJson(text, {.max_depth = kMaxJsonDepth, .reject_duplicate_names = true});
  if (!parsed.ok()) return bad(absl::StrCat("header: ", std::string(parsed.status().message())));
  const Json& j = *parsed;
  if (!j.is_object()) return bad("header JSON is not an object");

  SafetensorsHeader h;
  h.data_start = 8 + n;
  const uint64_t data_size = file.size() - h.data_start;
  for (const auto& [name, v] : j.items()) {
    if (name == kMetadataKey) {
      ASSIGN_OR_RETURN(h.metadata, ParseMetadata(v, bad));
      continue;
    }
    ASSIGN_OR_RETURN(SafetensorsEntry e, ParseEntry(name, v, bad));
    if (e.end > data_size)
      return bad(name, absl::StrCat("data_offsets [", e.begin, ", ", e.end,
                                    ") go past the end of the data section (", data_size, " bytes)"));
    h.tensors.emplace(name, std::move(e));
  }
  RETURN_IF_ERROR(CheckCoverage(h, data_size, bad));
  return h;
}

absl::StatusOr<std::string> SafetensorsHeaderBytes(
    std::vector<std::pair<std::string, SafetensorsEntry>>& tensors,
    const std::map<std::string, std::string>& metadata) {
  // The reference's json.dumps order: metadata first, then the tensors as given.
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!metadata.empty()) j[std::string(kMetadataKey)] = metadata;
  uint64_t offset = 0;
  for (auto& [name, e] : tensors) {
    if (name == kMetadataKey)
      return absl::InvalidArgumentError("safe_save: a tensor can't be named \"__metadata__\"");
    std::optional<std::string_view> dt = SafetensorsDTypeName(e.dtype);
    if (!dt)
      return absl::InvalidArgumentError(absl::StrCat("safe_save: tensor '", name, "': dtype ",
                                                     e.dtype.repr(), " has no safetensors name"));
    uint64_t numel = 1;
    for (int64_t d : e.shape) numel *= static_cast<uint64_t>(d);
    e.begin = offset;
    e.end = offset + numel * e.dtype.itemsize();
    offset = e.end;
    j[name] = {{"dtype", std::string(*dt)}, {"shape", e.shape}, {"data_offsets", {e.begin, e.end}}};
  }
  // ASCII-only like Python's json.dumps; invalid UTF-8 in a name is an error, not a bad file.
  std::string text;
  try {
    text = j.dump(-1, ' ', /*ensure_ascii=*/true);
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("safe_save: a name is not UTF-8: ", e.what()));
  }
  text.append((8 - text.size() % 8) % 8, ' ');
  uint64_t n = text.size();
  std::string out(8, '\0');
  std::memcpy(out.data(), &n, 8);
  return out + text;
}

}  // namespace tg
