// File: tinygrad/engine/diagnostics.h
// The debug settings that act process-wide, wired in one place: SPEC's per-rewrite check and
// TRACK_MATCH_STATS (tinygrad/uop/ops.py: the tracked rewrites and print_match_stats at exit).
//
// The entry points call ApplyDiagnostics with their Config: the engine's Realize (the Tensor
// API's edge) and tools/tg's main. Nothing below them reads these settings from a Config.
//
// Example:
//   ApplyDiagnostics(GetConfig());   // TRACK_MATCH_STATS=1: the rule table prints at exit
#ifndef TINYGRAD_ENGINE_DIAGNOSTICS_H_
#define TINYGRAD_ENGINE_DIAGNOSTICS_H_

#include <ostream>

#include "tinygrad/base/config.h"

namespace tg {

// Sets the rewriter's SPEC level and the matcher's TRACK_MATCH_STATS level from `c`; at
// TRACK_MATCH_STATS >= 1 also arranges, once per process, for PrintRewriteReport on stdout at
// exit, as the reference's atexit hook does.
void ApplyDiagnostics(const Config& c);

// What the reference prints at exit: at TRACK_MATCH_STATS >= 2 how many graphs were rewritten
// and matches made (the trace itself stays in memory for a viewer), then the per-rule table.
void PrintRewriteReport(std::ostream& os);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_DIAGNOSTICS_H_
