// File: autotune/farm/farm_measurer.cc
// Cut a batch into jobs, wait for all, reassemble in order, redo the duplicate rule.
#include "autotune/farm/farm_measurer.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace tg::autotune::farm {
namespace {

std::atomic<uint64_t> next_search_id{1};

void MakeDuplicate(CandidateResult& r, int of) {
  r.outcome = Outcome::kDuplicate;
  r.duplicate_of = of;
  r.error = of >= 0 ? absl::StrCat("same program as candidate ", of) : "measured before";
  r.samples_s.clear();
  r.min_s = kInf;
}

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

void DedupAcrossChunks(MeasureBatch& batch, const MeasureOptions& options) {
  absl::flat_hash_map<uint64_t, int> first_of;
  for (size_t i = 0; i < batch.results.size(); ++i) {
    CandidateResult& r = batch.results[i];
    if (r.program_hash == 0) continue;  // never rendered
    if (options.known_programs.contains(r.program_hash)) {
      if (r.outcome != Outcome::kDuplicate || r.duplicate_of >= 0) MakeDuplicate(r, -1);
      continue;
    }
    auto [it, fresh] = first_of.try_emplace(r.program_hash, static_cast<int>(i));
    if (fresh) continue;
    if (r.outcome == Outcome::kDuplicate) {
      r.duplicate_of = it->second;
    } else {
      MakeDuplicate(r, it->second);
    }
  }
}

FarmMeasurer::FarmMeasurer(Broker* broker, std::string device_class)
    : broker_(broker), device_class_(std::move(device_class)), search_id_(next_search_id++) {}

absl::StatusOr<MeasureBatch> FarmMeasurer::Measure(const KernelTask& task,
                                                   std::span<const std::vector<Opt>> candidates,
                                                   const MeasureOptions& options) {
  auto shared_task = std::make_shared<const KernelTask>(task);
  std::vector<std::pair<size_t, size_t>> chunks =
      PlanChunks(candidates.size(), broker_->Slots(device_class_), options.interleaved);
  std::vector<std::future<absl::StatusOr<JobResult>>> futures;
  for (auto [b, e] : chunks) {
    FarmJob job{.device_class = device_class_,
                .task = shared_task,
                .search_id = search_id_,
                .candidates = {candidates.begin() + static_cast<std::ptrdiff_t>(b),
                               candidates.begin() + static_cast<std::ptrdiff_t>(e)},
                .options = options};
    futures.push_back(broker_->Submit(std::move(job)));
  }
  MeasureBatch out;
  out.results.resize(candidates.size());
  absl::Status first_error;
  for (size_t c = 0; c < chunks.size(); ++c) {
    absl::StatusOr<JobResult> r = futures[c].get();
    if (!r.ok()) {
      if (first_error.ok()) first_error = r.status();
      continue;
    }
    const size_t b = chunks[c].first;
    for (size_t i = 0; i < r->batch.results.size(); ++i) {
      CandidateResult& cr = r->batch.results[i];
      if (cr.duplicate_of >= 0) cr.duplicate_of += static_cast<int>(b);
      out.results[b + i] = std::move(cr);
    }
    out.prepare_wall_s = std::max(out.prepare_wall_s, r->batch.prepare_wall_s);
    out.run_wall_s = std::max(out.run_wall_s, r->batch.run_wall_s);
  }
  if (!first_error.ok()) return first_error;
  DedupAcrossChunks(out, options);
  return out;
}

}  // namespace tg::autotune::farm
