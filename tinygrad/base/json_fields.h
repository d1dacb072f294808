// File: tinygrad/base/json_fields.h
// Checked reading of JSON documents (nlohmann-json) into typed values: parsing that never
// throws, and field reads that check the type (and an integer's range) before nlohmann's
// get<>, which would throw or convert silently. Every error is an InvalidArgument whose
// message starts with the value's path: "rewrites[2].matches[0].ns: is not a non-negative
// integer", "counters.poisoned: is missing". The path of a document's root is what the caller
// names it ("trace"), or "" (then a field's path is its bare name).
//
// Example:
//   ASSIGN_OR_RETURN(nlohmann::json doc, ParseJson(text));
//   JsonFields f(doc, "trace");
//   RETURN_IF_ERROR(f.IsObject());
//   ASSIGN_OR_RETURN(std::string name, f.String("name"));
//   ASSIGN_OR_RETURN(const nlohmann::json* items, f.Array("items"));
//   for (size_t i = 0; i < items->size(); ++i) {
//     JsonFields item((*items)[i], JsonIndexPath(f.At("items"), i));
//     ...
//   }
#ifndef TINYGRAD_BASE_JSON_FIELDS_H_
#define TINYGRAD_BASE_JSON_FIELDS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace tg {

// Limits for documents from outside (0: no limit). Duplicate names are legal JSON that
// nlohmann resolves silently (the last wins); a format that must not guess rejects them.
struct JsonParseLimits {
  int max_depth = 0;
  bool reject_duplicate_names = false;
};

// The document, or why it is not one: "bad JSON at offset 11: parse error at line 1, column
// 12: syntax error while parsing value - invalid literal; last read: 'tru}'", "bad JSON: nests
// deeper than 16 levels", "bad JSON: names 'k' twice". Never throws.
absl::StatusOr<nlohmann::json> ParseJson(std::string_view text, const JsonParseLimits& limits = {});

// InvalidArgument "<where>: <what>" (just <what> when where is "").
absl::Status JsonError(std::string_view where, std::string_view what);
// "<where>[i]", the path of an array's element.
std::string JsonIndexPath(std::string_view where, size_t i);

// Reads of one value, `where` its path.
absl::StatusOr<std::string> JsonString(const nlohmann::json& v, std::string_view where);
absl::StatusOr<bool> JsonBool(const nlohmann::json& v, std::string_view where);
// Any number (an integer too is a number).
absl::StatusOr<double> JsonNumber(const nlohmann::json& v, std::string_view where);
// An integer in [lo, hi]; a fraction, or a number past int64 or uint64, is an error.
absl::StatusOr<int64_t> JsonInt(const nlohmann::json& v, std::string_view where,
                                int64_t lo = INT64_MIN, int64_t hi = INT64_MAX);
// A non-negative integer, up to uint64's maximum.
absl::StatusOr<uint64_t> JsonCount(const nlohmann::json& v, std::string_view where);
// A count below `limit`; `what` names what it indexes ("a node"): "7 is not a node (there are 3)".
absl::StatusOr<size_t> JsonIndex(const nlohmann::json& v, std::string_view where, size_t limit,
                                 std::string_view what);
// Arrays of one type; an element's error names its index ("linear[1]: is not a string").
absl::StatusOr<std::vector<std::string>> JsonStrings(const nlohmann::json& v, std::string_view where);
absl::StatusOr<std::vector<double>> JsonNumbers(const nlohmann::json& v, std::string_view where);

// Typed reads of one object's fields. Holds a reference to the object: it must outlive this.
class JsonFields {
 public:
  JsonFields(const nlohmann::json& object, std::string where)
      : object_(object), where_(std::move(where)) {}
  // A temporary would be gone before the reads: name the document first.
  JsonFields(nlohmann::json&& object, std::string where) = delete;

  const std::string& where() const { return where_; }
  // The path of a field: "<where>.<name>", or "<name>" at an unnamed root.
  std::string At(std::string_view name) const;
  absl::Status IsObject() const;
  bool Has(std::string_view name) const { return object_.is_object() && object_.contains(name); }
  // An error about a field, for checks past its type: Bad("op", "is empty").
  absl::Status Bad(std::string_view name, std::string_view what) const { return JsonError(At(name), what); }

  absl::StatusOr<const nlohmann::json*> Get(std::string_view name) const;
  absl::StatusOr<std::string> String(std::string_view name) const;
  // A string that may be left out ("" then).
  absl::StatusOr<std::string> OptionalString(std::string_view name) const;
  absl::StatusOr<bool> Bool(std::string_view name) const;
  absl::StatusOr<double> Number(std::string_view name) const;
  // A number or null (nullopt); the field itself must be there.
  absl::StatusOr<std::optional<double>> NullableNumber(std::string_view name) const;
  absl::StatusOr<int64_t> Int(std::string_view name, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX) const;
  absl::StatusOr<uint64_t> Count(std::string_view name) const;
  absl::StatusOr<size_t> Index(std::string_view name, size_t limit, std::string_view what) const;
  absl::StatusOr<const nlohmann::json*> Array(std::string_view name) const;
  absl::StatusOr<std::vector<std::string>> Strings(std::string_view name) const;
  absl::StatusOr<std::vector<double>> Numbers(std::string_view name) const;

 private:
  const nlohmann::json& object_;
  std::string where_;
};

}  // namespace tg

#endif  // TINYGRAD_BASE_JSON_FIELDS_H_
