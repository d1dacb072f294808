// File: autotune/farm/farm_measurer.cc
// Cut a batch into jobs, one part each; Measure() waits for all, reassembles them in order and
// redoes the duplicate rule.
#include "autotune/farm/farm_measurer.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <iterator>
#include <memory>
#include <mutex>

namespace tg::autotune::farm {
namespace {

std::atomic<uint64_t> next_search_id{1};

}  // namespace

std::vector<std::pair<size_t, size_t>> PlanChunks(size_t n, int slots, bool interleaved, size_t min_chunk) {
  std::vector<std::pair<size_t, size_t>> out;
  if (n == 0) return out;
  if (interleaved || slots <= 1) return {{0, n}};
  size_t chunks = std::min<size_t>(static_cast<size_t>(slots), std::max<size_t>(1, n / std::max<size_t>(1, min_chunk)));
  // Even sizes: the first n % chunks chunks get one more.
  const size_t base = n / chunks, extra = n % chunks;
  size_t begin = 0;
  for (size_t c = 0; c < chunks; ++c) {
    const size_t len = base + (c < extra ? 1 : 0);
    out.emplace_back(begin, begin + len);
    begin += len;
  }
  return out;
}

FarmMeasurer::FarmMeasurer(Broker* broker, std::string device_class)
    : broker_(broker), device_class_(std::move(device_class)), search_id_(next_search_id++) {}

size_t FarmMeasurer::Submit(std::shared_ptr<const KernelTask> task, std::vector<std::vector<Opt>> candidates,
                            const MeasureOptions& options, uint64_t search_id, PartCallback done) {
  std::vector<std::pair<size_t, size_t>> chunks =
      PlanChunks(candidates.size(), broker_->Slots(device_class_), options.interleaved);
  for (auto [b, e] : chunks) {
    FarmJob job{.device_class = device_class_,
                .task = task,
                .search_id = search_id,
                .candidates = {std::make_move_iterator(candidates.begin() + static_cast<std::ptrdiff_t>(b)),
                               std::make_move_iterator(candidates.begin() + static_cast<std::ptrdiff_t>(e))},
                .options = options};
    std::vector<size_t> indices;
    for (size_t i = b; i < e; ++i) indices.push_back(i);
    broker_->Submit(std::move(job), [done, indices = std::move(indices)](absl::StatusOr<JobResult> r) mutable {
      MeasuredPart part{.indices = std::move(indices)};
      if (r.ok()) {
        part.batch = std::move(r->batch);
        part.measured_by = std::move(r->measured_by);
      } else {
        part.batch = r.status();
      }
      done(std::move(part));
    });
  }
  return chunks.size();
}

absl::StatusOr<MeasureBatch> FarmMeasurer::Measure(const KernelTask& task,
                                                   std::span<const std::vector<Opt>> candidates,
                                                   const MeasureOptions& options) {
  struct Gather {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<MeasuredPart> parts;
  };
  auto g = std::make_shared<Gather>();
  const size_t n = Submit(std::make_shared<const KernelTask>(task), {candidates.begin(), candidates.end()}, options,
                          search_id_, [g](MeasuredPart p) {
                            std::lock_guard<std::mutex> lock(g->mu);
                            g->parts.push_back(std::move(p));
                            g->cv.notify_one();
                          });
  std::unique_lock<std::mutex> lock(g->mu);
  g->cv.wait(lock, [&] { return g->parts.size() == n; });
  MeasureBatch out;
  out.results.resize(candidates.size());
  for (MeasuredPart& p : g->parts) {
    if (!p.batch.ok()) return p.batch.status();
    for (size_t k = 0; k < p.indices.size(); ++k) {
      CandidateResult& cr = p.batch->results[k];
      if (cr.duplicate_of >= 0) cr.duplicate_of = static_cast<int>(p.indices[static_cast<size_t>(cr.duplicate_of)]);
      out.results[p.indices[k]] = std::move(cr);
    }
    out.prepare_wall_s = std::max(out.prepare_wall_s, p.batch->prepare_wall_s);
    out.run_wall_s = std::max(out.run_wall_s, p.batch->run_wall_s);
  }
  DedupAcrossParts(out, options);
  return out;
}

}  // namespace tg::autotune::farm
