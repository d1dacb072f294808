// File: tinygrad/engine/sequential_graph.h
// The graph of a device whose kernels run in this process (the CPU, as the reference's CPU
// device has HCQGraph): its launches, kept with their arguments, run one after another through
// their programs on the calling thread. A TinyJit replay of one then skips the per-kernel work
// of preparing each launch (buffer addresses, variables, launch shapes) for every kernel whose
// arguments do not change.
#ifndef TINYGRAD_ENGINE_SEQUENTIAL_GRAPH_H_
#define TINYGRAD_ENGINE_SEQUENTIAL_GRAPH_H_

#include <memory>
#include <span>
#include <vector>

#include "tinygrad/engine/device.h"

namespace tg {

class SequentialGraph : public KernelGraph {
 public:
  explicit SequentialGraph(std::span<const GraphLaunch> launches)
      : launches_(launches.begin(), launches.end()) {}

  absl::Status Update(size_t index, std::span<void* const> bufs, std::span<const int64_t> vals,
                      const LaunchDims& global, const std::optional<LaunchDims>& local) override;
  // In order (which keeps every launch after those it follows); with `wait`, the summed times.
  absl::StatusOr<double> Run(bool wait) override;

 private:
  std::vector<GraphLaunch> launches_;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_SEQUENTIAL_GRAPH_H_
