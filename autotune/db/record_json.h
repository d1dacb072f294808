// File: autotune/db/record_json.h
// Tuning records as one line of JSON each (`tg db export` / `tg db import`), so databases can
// be merged across sites and read by any tool:
//
//   {"key":"<32 hex>","ast_hash":"<16 hex>","device":"...","renderer":"...","compiler":"...",
//    "codegen_version":"0.1.0","opt_version":1,"settings":"width=2 ...","kernel_name":"...",
//    "opts":[["UPCAST",0,4]],"time_s":0.00123,"noopt_time_s":null,"heuristic_time_s":0.002,
//    "candidates":73,"device_description":"...","tinygrad_cc_version":"...",
//    "created_unix_ms":1795000000123,"search_wall_s":4.5,"worker":"w1","host":"node7",
//    "samples_s":[0.00125,0.00123],"gpu_arch":""}
//
// nlohmann-json reads and writes the JSON. Doubles are written in a form that reads back to
// the same bits (an integral double as "4.0"), so a record survives the round trip exactly;
// invalid UTF-8 in a string is written as U+FFFD. Reading checks every field's type, that the
// key is the digest of the key's parts, and the times (as Put does); worker, host, samples_s
// and gpu_arch may be missing (unknown: older exports), other fields may not; unknown fields
// are ignored (a newer build's extras). Nothing here throws.
#ifndef AUTOTUNE_DB_RECORD_JSON_H_
#define AUTOTUNE_DB_RECORD_JSON_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/db/tuning_db.h"

namespace tg::autotune {

// One line, without the newline.
std::string RecordToJson(const TuningRecord& r);
// Errors (InvalidArgument) say which field is wrong, or where the JSON breaks (byte offset,
// line and column).
absl::StatusOr<TuningRecord> RecordFromJson(std::string_view line);

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_RECORD_JSON_H_
