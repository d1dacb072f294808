// File: autotune/db/opts_text.h
// Opt lists as stable JSON text, for the tuning database and its JSON-lines export.
//
// The reference pickles opt lists into its cache (tinygrad/helpers.py diskcache_put); pickles
// are Python-only and change with class layouts, so we store text that any language reads and
// that never depends on our enum values:
//
//   [["UPCAST",0,4],["TC",0,[-1,2,1]],["NOLOCALS",null,null]]
//
// Each opt is [op name, axis or null, arg] with arg null, an integer, or TC's three integers.
//
// Example:
//   std::string text = OptsToText(opts);
//   ASSIGN_OR_RETURN(std::vector<Opt> back, OptsFromText(text));   // back == opts
#ifndef AUTOTUNE_DB_OPTS_TEXT_H_
#define AUTOTUNE_DB_OPTS_TEXT_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::autotune {

std::string OptsToText(std::span<const Opt> opts);
// Whitespace between tokens is allowed. Errors give the offset and what was expected.
absl::StatusOr<std::vector<Opt>> OptsFromText(std::string_view text);

// For people (tg tune's table, the tuning pages): "UPCAST0:4 UNROLL0:4 TC0:-1,2,1 NOLOCALS",
// "" for none. Not read back.
std::string OptsToShortText(std::span<const Opt> opts);

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_OPTS_TEXT_H_
