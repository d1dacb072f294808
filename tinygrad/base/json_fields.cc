// File: tinygrad/base/json_fields.cc
// nlohmann reports errors by throwing; ParseJson is where they are caught. Every read checks
// the value's type first, so no get<> below can throw or narrow.
#include "tinygrad/base/json_fields.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

using Json = nlohmann::json;

// nlohmann's what() is "[json.exception.parse_error.101] parse error at line 1, column 5:
// ..."; the tag in brackets is for nlohmann's developers, not for our users.
std::string WithoutTag(const char* what) {
  std::string s = what;
  if (s.starts_with("[json.exception.")) {
    size_t end = s.find("] ");
    if (end != std::string::npos) s.erase(0, end + 2);
  }
  return s;
}

}  // namespace

absl::StatusOr<Json> ParseJson(std::string_view text, const JsonParseLimits& limits) {
  std::vector<std::set<std::string>> names;  // the names seen in each open object
  std::string duplicate;
  bool too_deep = false;
  auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (limits.max_depth > 0 && depth > limits.max_depth) too_deep = true;
    if (limits.reject_duplicate_names) {
      if (event == Json::parse_event_t::object_start) names.emplace_back();
      if (event == Json::parse_event_t::object_end && !names.empty()) names.pop_back();
      if (event == Json::parse_event_t::key && !names.empty() && duplicate.empty() &&
          !names.back().insert(parsed.get<std::string>()).second)
        duplicate = parsed.get<std::string>();
    }
    return !too_deep;  // a value too deep is dropped, not kept
  };
  Json j;
  try {
    if (limits.max_depth > 0 || limits.reject_duplicate_names) {
      j = Json::parse(text.begin(), text.end(), check);
    } else {
      j = Json::parse(text.begin(), text.end());
    }
  } catch (const Json::parse_error& e) {
    // e.byte counts from 1 and is the byte where parsing stopped.
    const size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return absl::InvalidArgumentError(absl::StrCat("bad JSON at offset ", offset, ": ", WithoutTag(e.what())));
  } catch (const Json::exception& e) {
    // e.g. out_of_range.406, a number too big for a double
    return absl::InvalidArgumentError(absl::StrCat("bad JSON: ", WithoutTag(e.what())));
  }
  if (too_deep) return absl::InvalidArgumentError(absl::StrCat("bad JSON: nests deeper than ", limits.max_depth, " levels"));
  if (!duplicate.empty()) return absl::InvalidArgumentError(absl::StrCat("bad JSON: names '", duplicate, "' twice"));
  return j;
}

absl::Status JsonError(std::string_view where, std::string_view what) {
  if (where.empty()) return absl::InvalidArgumentError(std::string(what));
  return absl::InvalidArgumentError(absl::StrCat(std::string(where), ": ", std::string(what)));
}

std::string JsonIndexPath(std::string_view where, size_t i) {
  return absl::StrCat(std::string(where), "[", i, "]");
}

absl::StatusOr<std::string> JsonString(const Json& v, std::string_view where) {
  if (!v.is_string()) return JsonError(where, "is not a string");
  return v.get<std::string>();
}

absl::StatusOr<bool> JsonBool(const Json& v, std::string_view where) {
  if (!v.is_boolean()) return JsonError(where, "is not true or false");
  return v.get<bool>();
}

absl::StatusOr<double> JsonNumber(const Json& v, std::string_view where) {
  if (!v.is_number()) return JsonError(where, "is not a number");
  return v.get<double>();
}

// nlohmann reads an integer too big for int64 as unsigned, and one past uint64 as a double.
absl::StatusOr<int64_t> JsonInt(const Json& v, std::string_view where, int64_t lo, int64_t hi) {
  if (!v.is_number()) return JsonError(where, "is not an integer");
  if (v.is_number_float()) return JsonError(where, absl::StrCat("is not an integer: ", v.dump()));
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    return JsonError(where, absl::StrCat("is out of range: ", v.dump()));
  const int64_t i = v.get<int64_t>();
  if (i < lo || i > hi) return JsonError(where, absl::StrCat("is out of range: ", i, " (not in [", lo, ", ", hi, "])"));
  return i;
}

absl::StatusOr<uint64_t> JsonCount(const Json& v, std::string_view where) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  return JsonError(where, "is not a non-negative integer");
}

absl::StatusOr<size_t> JsonIndex(const Json& v, std::string_view where, size_t limit, std::string_view what) {
  ASSIGN_OR_RETURN(uint64_t i, JsonCount(v, where));
  if (i >= limit) return JsonError(where, absl::StrCat(i, " is not ", std::string(what), " (there are ", limit, ")"));
  return static_cast<size_t>(i);
}

absl::StatusOr<std::vector<std::string>> JsonStrings(const Json& v, std::string_view where) {
  if (!v.is_array()) return JsonError(where, "is not an array");
  std::vector<std::string> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    ASSIGN_OR_RETURN(std::string s, JsonString(v[i], JsonIndexPath(where, i)));
    out.push_back(std::move(s));
  }
  return out;
}

absl::StatusOr<std::vector<double>> JsonNumbers(const Json& v, std::string_view where) {
  if (!v.is_array()) return JsonError(where, "is not an array");
  std::vector<double> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    ASSIGN_OR_RETURN(double d, JsonNumber(v[i], JsonIndexPath(where, i)));
    out.push_back(d);
  }
  return out;
}

std::string JsonFields::At(std::string_view name) const {
  if (where_.empty()) return std::string(name);
  return absl::StrCat(where_, ".", std::string(name));
}

absl::Status JsonFields::IsObject() const {
  return object_.is_object() ? absl::OkStatus() : JsonError(where_, "is not an object");
}

absl::StatusOr<const Json*> JsonFields::Get(std::string_view name) const {
  RETURN_IF_ERROR(IsObject());
  auto it = object_.find(name);
  if (it == object_.end()) return Bad(name, "is missing");
  return &*it;
}

absl::StatusOr<std::string> JsonFields::String(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonString(*v, At(name));
}

absl::StatusOr<std::string> JsonFields::OptionalString(std::string_view name) const {
  RETURN_IF_ERROR(IsObject());
  if (!Has(name)) return std::string();
  return String(name);
}

absl::StatusOr<bool> JsonFields::Bool(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonBool(*v, At(name));
}

absl::StatusOr<double> JsonFields::Number(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonNumber(*v, At(name));
}

absl::StatusOr<std::optional<double>> JsonFields::NullableNumber(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  if (v->is_null()) return std::optional<double>();
  ASSIGN_OR_RETURN(double d, JsonNumber(*v, At(name)));
  return std::optional<double>(d);
}

absl::StatusOr<int64_t> JsonFields::Int(std::string_view name, int64_t lo, int64_t hi) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonInt(*v, At(name), lo, hi);
}

absl::StatusOr<uint64_t> JsonFields::Count(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonCount(*v, At(name));
}

absl::StatusOr<size_t> JsonFields::Index(std::string_view name, size_t limit, std::string_view what) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonIndex(*v, At(name), limit, what);
}

absl::StatusOr<const Json*> JsonFields::Array(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  if (!v->is_array()) return Bad(name, "is not an array");
  return v;
}

absl::StatusOr<std::vector<std::string>> JsonFields::Strings(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonStrings(*v, At(name));
}

absl::StatusOr<std::vector<double>> JsonFields::Numbers(std::string_view name) const {
  ASSIGN_OR_RETURN(const Json* v, Get(name));
  return JsonNumbers(*v, At(name));
}

}  // namespace tg
