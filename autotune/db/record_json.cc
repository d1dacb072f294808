// File: autotune/db/record_json.cc
// A tuning record <-> one JSON line, through nlohmann-json. nlohmann reports errors by
// throwing; this file is where they are caught and become absl::Status, and the fields are
// read with type checks first, so a bad line is an error that names the field.
#include "autotune/db/record_json.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/db/opts_text.h"
#include "autotune/db/schema.h"
#include "nlohmann/json.hpp"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {
namespace {

using Json = nlohmann::json;
// Written with ordered_json: the fields come out in the order of the header's example (the
// key first, which scripts rely on), not sorted.
using OrderedJson = nlohmann::ordered_json;

// The opts array as opts_text writes it (the one definition of the opts format).
OrderedJson OptsJson(const std::vector<Opt>& opts) {
  OrderedJson j = OrderedJson::parse(OptsToText(opts), nullptr, /*allow_exceptions=*/false);
  TG_CHECK(!j.is_discarded()) << "OptsToText wrote bad JSON: " << OptsToText(opts);
  return j;
}

OrderedJson OptionalNumber(const std::optional<double>& v) {
  return v ? OrderedJson(*v) : OrderedJson(nullptr);
}

// Debian's Abseil has its own string_view: `why` is one, so Status messages pass as they are.
absl::Status Bad(std::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("field '", std::string(field), "': ", why));
}

// nlohmann's what() is "[json.exception.parse_error.101] parse error at line 1, column 5:
// syntax error ..."; the tag in brackets is for nlohmann's developers, not for our users.
std::string WithoutTag(const char* what) {
  std::string s = what;
  if (s.starts_with("[json.exception.")) {
    size_t end = s.find("] ");
    if (end != std::string::npos) s.erase(0, end + 2);
  }
  return s;
}

// Typed access to an object's fields. Every type is checked before nlohmann's get<>, which
// would otherwise throw (or, for a number out of an integer's range, convert silently).
class Fields {
 public:
  explicit Fields(const Json& obj) : obj_(obj) {}

  absl::StatusOr<const Json*> Get(std::string_view name) const {
    auto it = obj_.find(name);
    if (it == obj_.end()) return Bad(name, "missing");
    return &*it;
  }
  absl::StatusOr<std::string> Str(std::string_view name, bool optional = false) const {
    if (optional && !obj_.contains(name)) return std::string();
    ASSIGN_OR_RETURN(const Json* v, Get(name));
    if (!v->is_string()) return Bad(name, "wrong type");
    return v->get<std::string>();
  }
  absl::StatusOr<double> Double(std::string_view name) const {
    ASSIGN_OR_RETURN(const Json* v, Get(name));
    if (!v->is_number()) return Bad(name, "wrong type");
    return v->get<double>();
  }
  absl::StatusOr<std::optional<double>> OptionalDouble(std::string_view name) const {
    ASSIGN_OR_RETURN(const Json* v, Get(name));
    if (v->is_null()) return std::optional<double>();
    ASSIGN_OR_RETURN(double d, Double(name));
    return std::optional<double>(d);
  }
  // nlohmann reads an integer too big for int64 as unsigned, or as a double past uint64.
  absl::StatusOr<int64_t> Int(std::string_view name) const {
    ASSIGN_OR_RETURN(const Json* v, Get(name));
    if (!v->is_number()) return Bad(name, "wrong type");
    if (v->is_number_float()) return Bad(name, absl::StrCat("not an integer: ", v->dump()));
    if (v->is_number_unsigned() &&
        v->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return Bad(name, absl::StrCat("out of range: ", v->dump()));
    return v->get<int64_t>();
  }
  absl::StatusOr<std::vector<double>> Doubles(std::string_view name) const {
    if (!obj_.contains(name)) return std::vector<double>();
    ASSIGN_OR_RETURN(const Json* v, Get(name));
    if (!v->is_array()) return Bad(name, "wrong type");
    std::vector<double> out;
    for (const Json& item : *v) {
      if (!item.is_number()) return Bad(name, "not a list of numbers");
      out.push_back(item.get<double>());
    }
    return out;
  }

 private:
  const Json& obj_;
};

absl::StatusOr<TuningRecord> RecordFromObject(const Json& doc) {
  if (!doc.is_object()) return absl::InvalidArgumentError("not a JSON object");
  Fields f(doc);
  TuningRecord r;
  ASSIGN_OR_RETURN(std::string digest, f.Str("key"));
  ASSIGN_OR_RETURN(std::string ast, f.Str("ast_hash"));
  absl::StatusOr<uint64_t> ast_hash = schema::ParseHex64(ast);
  if (!ast_hash.ok()) return Bad("ast_hash", "not 16 hex digits");
  r.key.ast_hash = *ast_hash;
  ASSIGN_OR_RETURN(r.key.device, f.Str("device"));
  ASSIGN_OR_RETURN(r.key.renderer, f.Str("renderer"));
  ASSIGN_OR_RETURN(r.key.compiler, f.Str("compiler"));
  ASSIGN_OR_RETURN(r.key.codegen_version, f.Str("codegen_version"));
  ASSIGN_OR_RETURN(int64_t opt_version, f.Int("opt_version"));
  if (opt_version < std::numeric_limits<int>::min() || opt_version > std::numeric_limits<int>::max())
    return Bad("opt_version", absl::StrCat("out of range: ", opt_version));
  r.key.opt_version = static_cast<int>(opt_version);
  ASSIGN_OR_RETURN(std::string settings, f.Str("settings"));
  absl::StatusOr<SearchSettings> s = SearchSettings::Parse(settings);
  if (!s.ok()) return Bad("settings", s.status().message());
  r.key.settings = *s;
  // absent or empty: a record from before the codegen options were part of the key
  ASSIGN_OR_RETURN(std::string codegen, f.Str("codegen_options", /*optional=*/true));
  if (!codegen.empty()) {
    absl::StatusOr<CodegenOptions> o = CodegenOptions::FromKeyText(codegen);
    if (!o.ok()) return Bad("codegen_options", o.status().message());
    r.key.codegen_options = *o;
  }
  ASSIGN_OR_RETURN(r.kernel_name, f.Str("kernel_name"));
  ASSIGN_OR_RETURN(const Json* opts, f.Get("opts"));
  if (!opts->is_array()) return Bad("opts", "wrong type");
  absl::StatusOr<std::vector<Opt>> parsed = OptsFromText(opts->dump());
  if (!parsed.ok()) return Bad("opts", parsed.status().message());
  r.opts = std::move(*parsed);
  ASSIGN_OR_RETURN(r.time_s, f.Double("time_s"));
  ASSIGN_OR_RETURN(r.noopt_time_s, f.OptionalDouble("noopt_time_s"));
  ASSIGN_OR_RETURN(r.heuristic_time_s, f.OptionalDouble("heuristic_time_s"));
  ASSIGN_OR_RETURN(r.candidates, f.Int("candidates"));
  ASSIGN_OR_RETURN(r.device_description, f.Str("device_description"));
  ASSIGN_OR_RETURN(r.tinygrad_cc_version, f.Str("tinygrad_cc_version"));
  ASSIGN_OR_RETURN(r.created_unix_ms, f.Int("created_unix_ms"));
  ASSIGN_OR_RETURN(r.search_wall_s, f.Double("search_wall_s"));
  ASSIGN_OR_RETURN(r.worker, f.Str("worker", /*optional=*/true));
  ASSIGN_OR_RETURN(r.host, f.Str("host", /*optional=*/true));
  ASSIGN_OR_RETURN(r.samples_s, f.Doubles("samples_s"));
  ASSIGN_OR_RETURN(r.gpu_arch, f.Str("gpu_arch", /*optional=*/true));  // absent before schema 4
  if (r.key.Digest() != digest)
    return Bad("key", absl::StrCat("is not the digest of the key's parts (", r.key.Digest(), ")"));
  RETURN_IF_ERROR(schema::ValidateRecord(r));
  return r;
}

}  // namespace

std::string RecordToJson(const TuningRecord& r) {
  OrderedJson o = {
      {"key", r.key.Digest()},
      {"ast_hash", r.key.AstHex()},
      {"device", r.key.device},
      {"renderer", r.key.renderer},
      {"compiler", r.key.compiler},
      {"codegen_version", r.key.codegen_version},
      {"opt_version", r.key.opt_version},
      {"settings", r.key.settings.ToString()},
      {"codegen_options", r.key.codegen_options ? r.key.codegen_options->KeyText() : ""},
      {"kernel_name", r.kernel_name},
      {"opts", OptsJson(r.opts)},
      {"time_s", r.time_s},
      {"noopt_time_s", OptionalNumber(r.noopt_time_s)},
      {"heuristic_time_s", OptionalNumber(r.heuristic_time_s)},
      {"candidates", r.candidates},
      {"device_description", r.device_description},
      {"tinygrad_cc_version", r.tinygrad_cc_version},
      {"created_unix_ms", r.created_unix_ms},
      {"search_wall_s", r.search_wall_s},
      {"worker", r.worker},
      {"host", r.host},
      {"samples_s", r.samples_s},
      {"gpu_arch", r.gpu_arch},
  };
  // Invalid UTF-8 (in a kernel or device name) becomes U+FFFD instead of an exception.
  return o.dump(/*indent=*/-1, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

absl::StatusOr<TuningRecord> RecordFromJson(std::string_view line) {
  try {
    return RecordFromObject(Json::parse(line));
  } catch (const Json::parse_error& e) {
    // e.byte counts from 1 and is the byte where parsing stopped.
    const size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return absl::InvalidArgumentError(absl::StrCat("bad JSON at offset ", offset, ": ", WithoutTag(e.what())));
  } catch (const Json::exception& e) {
    // e.g. out_of_range.406, a number too big for a double
    return absl::InvalidArgumentError(absl::StrCat("bad JSON: ", WithoutTag(e.what())));
  }
}

}  // namespace tg::autotune
