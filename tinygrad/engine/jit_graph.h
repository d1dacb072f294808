// File: tinygrad/engine/jit_graph.h
// Port of tinygrad/engine/jit.py's apply_graph_to_jit and GraphRunner: at a CapturedJit's first
// replay its kernels are batched into device graphs (Device::MakeGraph: CUDA graphs; on the CPU
// a SequentialGraph, as the reference's CPU device has HCQGraph), so that each later replay pays
// one launch per batch instead of one per kernel.
//
// What batches, as in the reference: the kernels of one device that has graphs between two
// copies, at most JIT_BATCH_SIZE in the first batch and twice as many in each next (0: no limit);
// a copy ends every batch (the reference graphs GPU-to-GPU copies too; ours run between batches);
// views run nothing and end nothing; a batch of one kernel runs alone unless GRAPH_ONE_KERNEL.
// A multi-device step interleaves its devices' kernels; as a kernel touches only its device's
// memory, each device's batch takes its kernels across the others' (the reference instead puts
// several devices in one graph where its graph class can), and the batches run one device after
// another. A batch whose
// graph cannot be made (a driver without graphs) runs its kernels one at a time, as the
// reference falls back on a GraphException; DEBUG=2 says which batches were graphed.
// Within a graph a kernel waits only for the earlier kernels of its batch whose memory it reads
// or writes where one of them writes (the reference's _access_resources), so independent
// kernels may overlap on the GPU; batches run one after another.
#ifndef TINYGRAD_ENGINE_JIT_GRAPH_H_
#define TINYGRAD_ENGINE_JIT_GRAPH_H_

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/engine/exec_item.h"

namespace tg {

struct JitGraphOptions {
  // JIT_BATCH_SIZE: the first graph's kernels at most, each next graph twice as many; 0 no limit.
  int batch_size = 32;
  bool one_kernel = false;  // GRAPH_ONE_KERNEL: a batch of one kernel is graphed too
};

// Kernels of one device run as one graph; before each run, the launches whose arguments a replay
// changes (new input buffers, variables) are updated in it.
class GraphedBatch {
 public:
  // The graph of items[i] for i in `batch` (kernels of one device, in run order), with the
  // buffers they hold and `var_vals`. `changing`: the items whose launches a replay changes.
  static absl::StatusOr<std::unique_ptr<GraphedBatch>> Make(
      const std::vector<ExecItem>& items, std::vector<size_t> batch, const VarVals& var_vals,
      const ExecOptions& options, const absl::flat_hash_set<size_t>& changing);

  // One run of the graph with the buffers `items` hold now, counted as one kernel of the
  // EngineStats with every kernel's ops (the reference's "<batched N>" line at DEBUG=2).
  absl::Status Run(const std::vector<ExecItem>& items, const VarVals& var_vals,
                   const ExecOptions& options);

  const std::vector<size_t>& items() const { return batch_; }

 private:
  GraphedBatch(std::vector<size_t> batch, std::vector<size_t> changing,
               std::unique_ptr<KernelGraph> graph)
      : batch_(std::move(batch)), changing_(std::move(changing)), graph_(std::move(graph)) {}
  std::vector<size_t> batch_;     // the items, in launch order
  std::vector<size_t> changing_;  // positions in batch_ updated before each run
  std::unique_ptr<KernelGraph> graph_;
};

// One step of a replay: items[item] alone, or a graph (batch set).
struct JitStep {
  size_t item = 0;
  std::unique_ptr<GraphedBatch> batch;
};

// apply_graph_to_jit: the steps that run `items` (every one, in their order), kernels batched
// into graphs as above. The only error is a device lost while making a graph; any other failure
// to make one leaves its kernels to run alone (which report what was wrong with them).
absl::StatusOr<std::vector<JitStep>> PlanGraphs(const std::vector<ExecItem>& items,
                                                const VarVals& var_vals, const ExecOptions& options,
                                                const JitGraphOptions& graph_options,
                                                const absl::flat_hash_set<size_t>& changing);

// For each kernel of `batch` (indices into `items`, in run order), the positions in `batch` of
// the earlier kernels it must follow: those that touch overlapping bytes of the same memory,
// where either writes them (a kernel writes its spec's outs). Exposed for tests.
std::vector<std::vector<size_t>> GraphDependencies(const std::vector<ExecItem>& items,
                                                   std::span<const size_t> batch);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_JIT_GRAPH_H_
