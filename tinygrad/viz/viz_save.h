// File: tinygrad/viz/viz_save.h
// VIZ=-1 (tinygrad's "save the trace, do not serve it"): at the end of a run, the rewrite trace
// goes to a file that `tg viz FILE` opens later.
//
// Example (the end of `tg run`):
//   if (absl::Status s = SaveVizTraceIfAsked(config, std::cout); !s.ok()) ...
#ifndef TINYGRAD_VIZ_VIZ_SAVE_H_
#define TINYGRAD_VIZ_VIZ_SAVE_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "tinygrad/base/config.h"

namespace tg {

// Where VIZ=-1 saves: VIZ_PATH, else <cache dir>/viz.json.
std::string VizTracePath(const Config& c);

// With c.viz < 0: captures the trace, saves it to VizTracePath(c) (making its directory) and
// prints "VIZ: trace saved to PATH (G groups, R rewrites, N nodes)" to `out`. Otherwise nothing.
absl::Status SaveVizTraceIfAsked(const Config& c, std::ostream& out);

}  // namespace tg

#endif  // TINYGRAD_VIZ_VIZ_SAVE_H_
