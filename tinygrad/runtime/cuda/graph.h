// File: tinygrad/runtime/cuda/graph.h
// A CUDA graph of kernel launches: recorded once, launched again and again with one driver call
// each, with the launches' arguments and sizes changed in place between launches. Port of the
// driver half of tinygrad/runtime/graph/cuda.py's CUDAGraph (the engine's TinyJit batches its
// kernels into these: engine/jit_graph.h). A launch waits only for the launches it names, so
// independent kernels of a graph may run at once.
//
// Example:
//   ASSIGN_OR_RETURN(CudaGraph g, CudaGraph::Create(ctx));
//   ASSIGN_OR_RETURN(size_t a, g.AddKernel(prg, CudaKernelArgs(bufs, vals), dims, {}));
//   ASSIGN_OR_RETURN(size_t b, g.AddKernel(prg, CudaKernelArgs(bufs2, vals), dims, {a}));
//   RETURN_IF_ERROR(g.Instantiate());
//   ASSIGN_OR_RETURN(double s, g.Launch(/*wait=*/true));
//   RETURN_IF_ERROR(g.SetKernel(a, CudaKernelArgs(other_bufs, vals), dims));   // next launches
#ifndef TINYGRAD_RUNTIME_CUDA_GRAPH_H_
#define TINYGRAD_RUNTIME_CUDA_GRAPH_H_

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/program.h"

namespace tg {

class CudaGraph {
 public:
  // An empty graph on `ctx`. Unimplemented when the driver has no graphs (before CUDA 12).
  static absl::StatusOr<CudaGraph> Create(std::shared_ptr<CudaContext> ctx);

  CudaGraph(CudaGraph&& o) noexcept;
  CudaGraph& operator=(CudaGraph&& o) noexcept;
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  ~CudaGraph();

  // Records a launch of `program` (which must outlive the graph) that starts after the launches
  // `after` (indices AddKernel returned) have finished; returns its index. A dimension of zero
  // records a launch that is skipped until SetKernel gives it sizes. Before Instantiate only:
  // FailedPrecondition after; InvalidArgument for an index not yet added; driver errors.
  absl::StatusOr<size_t> AddKernel(const CudaProgram& program, const CudaKernelArgs& args,
                                   const CudaLaunchDims& dims, std::span<const size_t> after);
  // Makes the recorded graph launchable (once; nothing is added after).
  absl::Status Instantiate();
  // Launch `index`'s arguments and sizes for the launches from now on (its program and dynamic
  // shared memory stay as recorded). A dimension of zero skips it (nothing to compute) until set
  // again. After Instantiate only.
  absl::Status SetKernel(size_t index, const CudaKernelArgs& args, const CudaLaunchDims& dims);
  // Queues every launch on the default stream, in an order that keeps each after the launches
  // it names. With `wait`, blocks until all are done and returns their GPU time in seconds;
  // without, 0 once queued (a kernel's fault shows at the next synchronizing call).
  absl::StatusOr<double> Launch(bool wait);

  size_t size() const { return nodes_.size(); }

 private:
  struct Node {
    cuda_abi::CUgraphNode handle = nullptr;
    const CudaProgram* program = nullptr;
    uint32_t shared_bytes = 0;
    bool enabled = true;
  };
  explicit CudaGraph(std::shared_ptr<CudaContext> ctx, cuda_abi::CUgraph graph)
      : ctx_(std::move(ctx)), graph_(graph) {}
  void Destroy();

  std::shared_ptr<CudaContext> ctx_;  // null once moved from
  cuda_abi::CUgraph graph_ = nullptr;
  cuda_abi::CUgraphExec exec_ = nullptr;
  std::vector<Node> nodes_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_GRAPH_H_
