// File: autotune/db/record_json.cc
// A tuning record <-> one JSON line, through nlohmann-json. Lines are parsed and their fields
// read by tinygrad/base:json_fields (no exceptions, every type checked before it is read), so
// a bad line is an error that names the field: "time_s: is missing".
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
#include "tinygrad/base/json_fields.h"
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

absl::StatusOr<TuningRecord> RecordFromObject(const Json& doc) {
  if (!doc.is_object()) return absl::InvalidArgumentError("not a JSON object");
  JsonFields f(doc, "");
  TuningRecord r;
  ASSIGN_OR_RETURN(std::string digest, f.String("key"));
  ASSIGN_OR_RETURN(std::string ast, f.String("ast_hash"));
  absl::StatusOr<uint64_t> ast_hash = schema::ParseHex64(ast);
  if (!ast_hash.ok()) return f.Bad("ast_hash", "is not 16 hex digits");
  r.key.ast_hash = *ast_hash;
  ASSIGN_OR_RETURN(r.key.device, f.String("device"));
  ASSIGN_OR_RETURN(r.key.renderer, f.String("renderer"));
  ASSIGN_OR_RETURN(r.key.compiler, f.String("compiler"));
  ASSIGN_OR_RETURN(r.key.codegen_version, f.String("codegen_version"));
  ASSIGN_OR_RETURN(int64_t opt_version,
                   f.Int("opt_version", std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  r.key.opt_version = static_cast<int>(opt_version);
  ASSIGN_OR_RETURN(std::string settings, f.String("settings"));
  absl::StatusOr<SearchSettings> s = SearchSettings::Parse(settings);
  if (!s.ok()) return f.Bad("settings", std::string(s.status().message()));
  r.key.settings = *s;
  // absent or empty: a record from before the codegen options were part of the key
  ASSIGN_OR_RETURN(std::string codegen, f.OptionalString("codegen_options"));
  if (!codegen.empty()) {
    absl::StatusOr<CodegenOptions> o = CodegenOptions::FromKeyText(codegen);
    if (!o.ok()) return f.Bad("codegen_options", std::string(o.status().message()));
    r.key.codegen_options = *o;
  }
  ASSIGN_OR_RETURN(r.kernel_name, f.String("kernel_name"));
  ASSIGN_OR_RETURN(const Json* opts, f.Array("opts"));
  absl::StatusOr<std::vector<Opt>> parsed = OptsFromText(opts->dump());
  if (!parsed.ok()) return f.Bad("opts", std::string(parsed.status().message()));
  r.opts = std::move(*parsed);
  ASSIGN_OR_RETURN(r.time_s, f.Number("time_s"));
  ASSIGN_OR_RETURN(r.noopt_time_s, f.NullableNumber("noopt_time_s"));
  ASSIGN_OR_RETURN(r.heuristic_time_s, f.NullableNumber("heuristic_time_s"));
  ASSIGN_OR_RETURN(r.candidates, f.Int("candidates"));
  ASSIGN_OR_RETURN(r.device_description, f.String("device_description"));
  ASSIGN_OR_RETURN(r.tinygrad_cc_version, f.String("tinygrad_cc_version"));
  ASSIGN_OR_RETURN(r.created_unix_ms, f.Int("created_unix_ms"));
  ASSIGN_OR_RETURN(r.search_wall_s, f.Number("search_wall_s"));
  ASSIGN_OR_RETURN(r.worker, f.OptionalString("worker"));
  ASSIGN_OR_RETURN(r.host, f.OptionalString("host"));
  if (f.Has("samples_s")) {  // absent in records from before the samples were kept
    ASSIGN_OR_RETURN(r.samples_s, f.Numbers("samples_s"));
  }
  ASSIGN_OR_RETURN(r.gpu_arch, f.OptionalString("gpu_arch"));  // absent before schema 4
  if (r.key.Digest() != digest)
    return f.Bad("key", absl::StrCat("is not the digest of the key's parts (", r.key.Digest(), ")"));
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
  ASSIGN_OR_RETURN(Json doc, ParseJson(line));
  return RecordFromObject(doc);
}

}  // namespace tg::autotune
