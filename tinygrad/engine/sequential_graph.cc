// File: tinygrad/engine/sequential_graph.cc
#include "tinygrad/engine/sequential_graph.h"

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

absl::Status SequentialGraph::Update(size_t index, std::span<void* const> bufs,
                                     std::span<const int64_t> vals, const LaunchDims& global,
                                     const std::optional<LaunchDims>& local) {
  if (index >= launches_.size())
    return absl::InvalidArgumentError(
        absl::StrCat("launch ", index, " of a graph of ", launches_.size()));
  GraphLaunch& l = launches_[index];
  l.bufs.assign(bufs.begin(), bufs.end());
  l.vals.assign(vals.begin(), vals.end());
  l.global = global;
  l.local = local;
  return absl::OkStatus();
}

absl::StatusOr<double> SequentialGraph::Run(bool wait) {
  double seconds = 0;
  for (const GraphLaunch& l : launches_) {
    ASSIGN_OR_RETURN(double s, l.program->Run(l.bufs, l.vals, l.global, l.local, wait,
                                              Program::kNoStop));
    seconds += s;
  }
  return seconds;
}

}  // namespace tg
