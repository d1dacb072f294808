// File: tinygrad/workloads/workloads.h
// The built-in workloads: small models written on the public Tensor API, shared by
// `tg run` (which prints their kernels and times) and by the autotuner (which tunes every
// kernel they produce). Shapes are parameters with defaults; inputs are seeded random tensors,
// made in float32 and cast to the workload's dtype (float32 unless asked: half and bfloat16 are
// how tensor-core kernels are asked for), so the computation itself runs in that dtype.
//
// Example:
//   const Workload* w = FindWorkload("matmul");
//   WorkloadParams p = w->Defaults();
//   p["m"] = 1024;
//   WorkloadGraph g = w->build(p);     // g.inputs to realize first, then g.outputs
//   WorkloadGraph h = w->build(p, {.dtype = dtypes::float16});
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

struct WorkloadOptions {
  DType dtype = dtypes::float32;  // of the inputs and weights: a WorkloadDTypes() one
  // Inputs allocated but not filled (Tensor::Empty): for compiling the kernels without running
  // anything (no random numbers to compute, in any dtype the CPU could not compute).
  bool empty_inputs = false;
};

struct Workload {
  std::string_view name;
  std::string_view summary;
  std::vector<std::pair<std::string_view, int64_t>> params;  // name and default, in order
  WorkloadGraph (*build_graph)(const WorkloadParams& p, const WorkloadOptions& o);

  WorkloadParams Defaults() const;
  // The graph for `p`, its inputs (and weights) made as `o` says. Parameters `p` lacks take
  // their defaults; an unknown name or a value < 1 gives a graph whose outputs are errored
  // tensors saying so (as does any size the Tensor ops refuse), never an abort.
  WorkloadGraph build(const WorkloadParams& p, const WorkloadOptions& o = {}) const;
};

std::span<const Workload> Workloads();
// The dtypes a workload may be built in, by the names --dtype takes: float32, half, bfloat16.
std::span<const std::pair<std::string_view, DType>> WorkloadDTypes();
const Workload* FindWorkload(std::string_view name);  // nullptr when unknown

}  // namespace tg

#endif  // TINYGRAD_WORKLOADS_WORKLOADS_H_
