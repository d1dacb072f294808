// File: tinygrad/viz/viz_save.cc
#include "tinygrad/viz/viz_save.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/viz/viz_trace.h"
#include "tinygrad/viz/viz_trace_json.h"

namespace tg {

std::string VizTracePath(const Config& c) {
  return c.viz_path.empty() ? c.cache_dir + "/viz.json" : c.viz_path;
}

absl::Status SaveVizTraceIfAsked(const Config& c, std::ostream& out) {
  if (c.viz >= 0) return absl::OkStatus();
  const std::string path = VizTracePath(c);
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(absl::StrCat(path, ": cannot make its directory: ", ec.message()));
  VizTrace t = CaptureVizTrace();
  RETURN_IF_ERROR(SaveVizTrace(t, path));
  out << "VIZ: trace saved to " << path << " (" << t.groups.size() << " groups, " << t.rewrites.size()
      << " rewrites, " << t.nodes.size() << " nodes)\n";
  return absl::OkStatus();
}

}  // namespace tg
