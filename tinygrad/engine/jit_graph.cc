// File: tinygrad/engine/jit_graph.cc
// Port of tinygrad/engine/jit.py: apply_graph_to_jit, GraphRunner (_access_resources, the
// launches a replay updates).
#include "tinygrad/engine/jit_graph.h"

#include <algorithm>
#include <iostream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/engine/buffer.h"

namespace tg {
namespace {

// The bytes of memory a buffer covers: its root buffer and a byte range in it.
struct Region {
  const Buffer* root;
  int64_t begin, end;
  bool Overlaps(const Region& o) const { return root == o.root && begin < o.end && o.begin < end; }
};

Region RegionOf(const Buffer& b) {
  const Buffer* root = &b;
  int64_t offset = 0;
  while (root->base() != nullptr) {
    offset += root->offset();
    root = root->base().get();
  }
  return {root, offset, offset + static_cast<int64_t>(b.nbytes())};
}

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

std::vector<std::vector<size_t>> GraphDependencies(const std::vector<ExecItem>& items,
                                                   std::span<const size_t> batch) {
  struct Access {
    Region region;
    bool write;
    size_t position;
  };
  std::vector<Access> seen;
  std::vector<std::vector<size_t>> after(batch.size());
  for (size_t k = 0; k < batch.size(); ++k) {
    const ExecItem& ei = items[batch[k]];
    const ProgramSpec& spec = ei.runner->spec;
    std::vector<Access> mine;
    for (int64_t slot : spec.globals) {
      if (slot < 0 || slot >= static_cast<int64_t>(ei.bufs.size()) || ei.bufs[slot] == nullptr)
        continue;  // PrepareKernelLaunch reports it
      mine.push_back({RegionOf(*ei.bufs[slot]), Contains(spec.outs, slot), k});
    }
    for (const Access& a : mine)
      for (const Access& s : seen)
        if ((a.write || s.write) && a.region.Overlaps(s.region)) after[k].push_back(s.position);
    std::sort(after[k].begin(), after[k].end());
    after[k].erase(std::unique(after[k].begin(), after[k].end()), after[k].end());
    seen.insert(seen.end(), mine.begin(), mine.end());
  }
  return after;
}

absl::StatusOr<std::unique_ptr<GraphedBatch>> GraphedBatch::Make(
    const std::vector<ExecItem>& items, std::vector<size_t> batch, const VarVals& var_vals,
    const ExecOptions& options, const absl::flat_hash_set<size_t>& changing) {
  if (batch.empty()) return absl::InvalidArgumentError("a graph of no kernels");
  Device* device = items[batch.front()].device;
  std::vector<std::vector<size_t>> after = GraphDependencies(items, batch);
  std::vector<GraphLaunch> launches;
  std::vector<size_t> updated;
  for (size_t k = 0; k < batch.size(); ++k) {
    const ExecItem& ei = items[batch[k]];
    if (ei.kind != ExecItem::Kind::kKernel || ei.device != device)
      return absl::InvalidArgumentError("a graph takes kernels of one device only");
    ASSIGN_OR_RETURN(KernelLaunch l, PrepareKernelLaunch(ei, var_vals, options));
    launches.push_back({.program = ei.runner->program.get(),
                        .bufs = std::move(l.args),
                        .vals = std::move(l.vals),
                        .global = l.shape.global,
                        .local = l.shape.local,
                        .after = std::move(after[k])});
    if (changing.contains(batch[k])) updated.push_back(k);
  }
  ASSIGN_OR_RETURN(std::unique_ptr<KernelGraph> graph, device->MakeGraph(launches));
  return std::unique_ptr<GraphedBatch>(
      new GraphedBatch(std::move(batch), std::move(updated), std::move(graph)));
}

absl::Status GraphedBatch::Run(const std::vector<ExecItem>& items, const VarVals& var_vals,
                               const ExecOptions& options) {
  size_t nargs = 0;
  for (size_t k : changing_) {
    ASSIGN_OR_RETURN(KernelLaunch l, PrepareKernelLaunch(items[batch_[k]], var_vals, options));
    RETURN_IF_ERROR(graph_->Update(k, l.args, l.vals, l.shape.global, l.shape.local));
  }
  ASSIGN_OR_RETURN(double et, graph_->Run(/*wait=*/options.debug >= 1));
  std::vector<const ExecItem*> run;
  for (size_t i : batch_) {
    run.push_back(&items[i]);
    nargs += items[i].runner->spec.globals.size();
  }
  CountKernelRun(run, Colored(absl::StrCat("<batched ", batch_.size(), ">"), "cyan"), nargs, et,
                 var_vals, options);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<JitStep>> PlanGraphs(const std::vector<ExecItem>& items,
                                                const VarVals& var_vals, const ExecOptions& options,
                                                const JitGraphOptions& graph_options,
                                                const absl::flat_hash_set<size_t>& changing) {
  std::vector<JitStep> steps;
  // The open batch of each device. A kernel touches only its own device's buffers, so the
  // kernels of different devices between two copies do not depend on each other: each device's
  // batch grows across the others' kernels (a multi-device step interleaves them), and batches
  // run one device after another.
  std::vector<std::vector<size_t>> open;
  int64_t max_batch = graph_options.batch_size;
  auto flush = [&](std::vector<size_t>& batch) -> absl::Status {
    if (batch.empty()) return absl::OkStatus();
    const std::string device = items[batch.front()].device->name();
    absl::Status why = absl::OkStatus();
    if (batch.size() == 1 && !graph_options.one_kernel) {
      why = absl::FailedPreconditionError("only one kernel doesn't graph");
    } else {
      absl::StatusOr<std::unique_ptr<GraphedBatch>> g =
          GraphedBatch::Make(items, batch, var_vals, options, changing);
      if (g.ok()) {
        if (options.debug >= 2)
          std::cout << "JIT GRAPHing batch with " << batch.size() << " kernels on device " << device
                    << "\n";
        steps.push_back({.item = batch.front(), .batch = *std::move(g)});
        max_batch *= 2;
        batch.clear();
        return absl::OkStatus();
      }
      if (IsDeviceLost(g.status())) return g.status();
      why = g.status();
    }
    if (options.debug >= 2)
      std::cout << "JIT GRAPHing failed batch with " << batch.size() << " kernels on device "
                << device << ": " << why.message() << "\n";
    for (size_t i : batch) steps.push_back({.item = i});
    batch.clear();
    return absl::OkStatus();
  };
  // Every open batch, in the order they began.
  auto flush_all = [&]() -> absl::Status {
    std::sort(open.begin(), open.end(), [](const std::vector<size_t>& a, const std::vector<size_t>& b) {
      return a.front() < b.front();
    });
    for (std::vector<size_t>& batch : open) RETURN_IF_ERROR(flush(batch));
    open.clear();
    return absl::OkStatus();
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const ExecItem& ei = items[i];
    if (ei.kind == ExecItem::Kind::kView) {  // runs nothing: no reason to end a batch
      steps.push_back({.item = i});
      continue;
    }
    const bool graphable =
        ei.kind == ExecItem::Kind::kKernel && ei.device != nullptr && ei.device->has_graphs();
    if (!graphable) {  // a copy (between devices), or a kernel of a device without graphs
      RETURN_IF_ERROR(flush_all());
      steps.push_back({.item = i});
      continue;
    }
    auto mine = std::find_if(open.begin(), open.end(),
                             [&](const std::vector<size_t>& b) { return items[b.front()].device == ei.device; });
    if (mine != open.end() && max_batch > 0 && static_cast<int64_t>(mine->size()) >= max_batch) {
      RETURN_IF_ERROR(flush(*mine));
      open.erase(mine);
      mine = open.end();
    }
    if (mine == open.end()) mine = open.insert(open.end(), std::vector<size_t>{});
    mine->push_back(i);
  }
  RETURN_IF_ERROR(flush_all());
  return steps;
}

}  // namespace tg
