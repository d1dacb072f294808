// File: tinygrad/runtime/cuda/graph.cc
// Port of tinygrad/runtime/graph/cuda.py's CUDAGraph (kernel nodes: their creation, the
// per-launch parameter updates, cuGraphLaunch timed as a kernel is).
#include "tinygrad/runtime/cuda/graph.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

bool HasZero(const CudaLaunchDims& d) {
  for (int i = 0; i < 3; ++i)
    if (d.grid[i] == 0 || d.block[i] == 0) return true;
  return false;
}

// `d` with every zero dimension made 1: what a skipped launch is recorded with (the driver
// takes no empty launch; the node is disabled instead).
CudaLaunchDims WithoutZeros(CudaLaunchDims d) {
  for (int i = 0; i < 3; ++i) {
    if (d.grid[i] == 0) d.grid[i] = 1;
    if (d.block[i] == 0) d.block[i] = 1;
  }
  return d;
}

}  // namespace

absl::StatusOr<CudaGraph> CudaGraph::Create(std::shared_ptr<CudaContext> ctx) {
  const CudaDriverApi& cu = ctx->api();
  if (!cu.HasGraphs())
    return absl::UnimplementedError(
        "this CUDA driver has no graphs (cuGraphAddKernelNode_v2 and the rest: CUDA 12 on)");
  RETURN_IF_ERROR(ctx->MakeCurrent());
  cuda_abi::CUgraph graph = nullptr;
  RETURN_IF_ERROR(cu.Check(cu.cuGraphCreate(&graph, 0), "cuGraphCreate"));
  return CudaGraph(std::move(ctx), graph);
}

CudaGraph::CudaGraph(CudaGraph&& o) noexcept
    : ctx_(std::move(o.ctx_)), graph_(o.graph_), exec_(o.exec_), nodes_(std::move(o.nodes_)) {
  o.graph_ = nullptr;
  o.exec_ = nullptr;
}

CudaGraph& CudaGraph::operator=(CudaGraph&& o) noexcept {
  if (this != &o) {
    Destroy();
    ctx_ = std::move(o.ctx_);
    graph_ = o.graph_;
    exec_ = o.exec_;
    nodes_ = std::move(o.nodes_);
    o.graph_ = nullptr;
    o.exec_ = nullptr;
  }
  return *this;
}

CudaGraph::~CudaGraph() { Destroy(); }

void CudaGraph::Destroy() {
  if (ctx_ != nullptr) {
    const CudaDriverApi& cu = ctx_->api();
    if (exec_ != nullptr) (void)cu.cuGraphExecDestroy(exec_);
    if (graph_ != nullptr) (void)cu.cuGraphDestroy(graph_);
  }
  ctx_.reset();
  graph_ = nullptr;
  exec_ = nullptr;
  nodes_.clear();
}

absl::StatusOr<size_t> CudaGraph::AddKernel(const CudaProgram& program, const CudaKernelArgs& args,
                                            const CudaLaunchDims& dims,
                                            std::span<const size_t> after) {
  if (ctx_ == nullptr) return absl::FailedPreconditionError("CUDA graph was moved from");
  if (exec_ != nullptr)
    return absl::FailedPreconditionError("a CUDA graph takes no launch after Instantiate");
  std::vector<cuda_abi::CUgraphNode> deps;
  for (size_t a : after) {
    if (a >= nodes_.size())
      return absl::InvalidArgumentError(absl::StrCat("a launch of ", program.function_name(),
                                                     " after launch ", a, " of a graph of ",
                                                     nodes_.size()));
    deps.push_back(nodes_[a].handle);
  }
  const CudaLaunchDims recorded = WithoutZeros(dims);
  RETURN_IF_ERROR(program.PrepareLaunch(recorded));
  const cuda_abi::CUDA_KERNEL_NODE_PARAMS_v2 params = program.NodeParams(args, recorded);
  const CudaDriverApi& cu = ctx_->api();
  Node node{.program = &program, .shared_bytes = dims.shared_bytes, .enabled = !HasZero(dims)};
  RETURN_IF_ERROR(
      cu.Check(cu.cuGraphAddKernelNode(&node.handle, graph_, deps.empty() ? nullptr : deps.data(),
                                       deps.size(), &params),
               absl::StrCat("cuGraphAddKernelNode(", program.function_name(), ")")));
  nodes_.push_back(node);
  return nodes_.size() - 1;
}

absl::Status CudaGraph::Instantiate() {
  if (ctx_ == nullptr) return absl::FailedPreconditionError("CUDA graph was moved from");
  if (exec_ != nullptr) return absl::FailedPreconditionError("CUDA graph instantiated twice");
  const CudaDriverApi& cu = ctx_->api();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  RETURN_IF_ERROR(cu.Check(cu.cuGraphInstantiate(&exec_, graph_, 0), "cuGraphInstantiate"));
  for (const Node& n : nodes_)
    if (!n.enabled)
      RETURN_IF_ERROR(
          cu.Check(cu.cuGraphNodeSetEnabled(exec_, n.handle, 0), "cuGraphNodeSetEnabled"));
  return absl::OkStatus();
}

absl::Status CudaGraph::SetKernel(size_t index, const CudaKernelArgs& args,
                                  const CudaLaunchDims& dims) {
  if (ctx_ == nullptr || exec_ == nullptr)
    return absl::FailedPreconditionError("SetKernel on a CUDA graph that is not instantiated");
  if (index >= nodes_.size())
    return absl::InvalidArgumentError(
        absl::StrCat("launch ", index, " of a CUDA graph of ", nodes_.size()));
  Node& n = nodes_[index];
  const CudaDriverApi& cu = ctx_->api();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  const bool enable = !HasZero(dims);
  if (enable) {
    CudaLaunchDims d = dims;
    d.shared_bytes = n.shared_bytes;
    const cuda_abi::CUDA_KERNEL_NODE_PARAMS_v2 params = n.program->NodeParams(args, d);
    RETURN_IF_ERROR(
        cu.Check(cu.cuGraphExecKernelNodeSetParams(exec_, n.handle, &params),
                 absl::StrCat("cuGraphExecKernelNodeSetParams(", n.program->function_name(), ")")));
  }
  if (enable != n.enabled) {
    RETURN_IF_ERROR(cu.Check(cu.cuGraphNodeSetEnabled(exec_, n.handle, enable ? 1 : 0),
                             "cuGraphNodeSetEnabled"));
    n.enabled = enable;
  }
  return absl::OkStatus();
}

absl::StatusOr<double> CudaGraph::Launch(bool wait) {
  if (ctx_ == nullptr || exec_ == nullptr)
    return absl::FailedPreconditionError("Launch of a CUDA graph that is not instantiated");
  const CudaDriverApi& cu = ctx_->api();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  return TimeExecution(cu, absl::StrCat("a CUDA graph of ", nodes_.size(), " kernels"), wait,
                       [&] { return cu.Check(cu.cuGraphLaunch(exec_, nullptr), "cuGraphLaunch"); });
}

}  // namespace tg
