// File: tinygrad/workloads/workloads.h
// The built-in workloads: small models written on the public Tensor API, shared by
// `tg run` (which prints their kernels and times) and by the autotuner (which tunes every
// kernel they produce). Shapes are parameters with defaults; inputs are seeded random tensors.
//
// Example:
//   const Workload* w = FindWorkload("matmul");
//   WorkloadParams p = w->Defaults();
//   p["m"] = 1024;
//   WorkloadGraph g = w->build(p);     // g.inputs to realize first, then g.outputs
#ifndef TINYGRAD_WORKLOADS_WORKLOADS_H_
#define TINYGRAD_WORKLOADS_WORKLOADS_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tinygrad/tensor/tensor.h"

namespace tg {

// Parameter name -> value (all workload parameters are integers).
using WorkloadParams = std::map<std::string, int64_t>;

struct WorkloadGraph {
  std::vector<Tensor> inputs;   // random data: realize these before timing
  std::vector<Tensor> outputs;  // the computation itself (lazy)
};

struct Workload {
  std::string_view name;
  std::string_view summary;
  std::vector<std::pair<std::string_view, int64_t>> params;  // name and default, in order
  WorkloadGraph (*build)(const WorkloadParams& p);

  WorkloadParams Defaults() const;
};

std::span<const Workload> Workloads();
const Workload* FindWorkload(std::string_view name);  // nullptr when unknown

}  // namespace tg

#endif  // TINYGRAD_WORKLOADS_WORKLOADS_H_
