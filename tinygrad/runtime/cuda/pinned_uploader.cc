// File: tinygrad/runtime/cuda/pinned_uploader.cc
// Port of tinygrad/runtime/ops_cuda.py: CUDAAllocator._copyin through pinned memory.
#include "tinygrad/runtime/cuda/pinned_uploader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

PinnedUploader::PinnedUploader(std::shared_ptr<CudaContext> ctx, PinnedUploaderOptions options)
    : ctx_(std::move(ctx)), options_(options) {}

PinnedUploader::~PinnedUploader() {
  std::lock_guard<std::mutex> l(mu_);
  if (!ctx_->MakeCurrent().ok()) return;  // a context that cannot be used takes the memory along
  // The driver must be done reading staging memory before it is freed.
  if (!in_flight_.empty() && !ctx_->Synchronize().ok()) return;
  for (const InFlight& f : in_flight_) (void)ctx_->api().cuMemFreeHost(f.staging.host);
  for (const auto& [bytes, host] : kept_) (void)ctx_->api().cuMemFreeHost(host);
}

namespace {

// The staging buffer a copy of `n` bytes takes: a power of two, at least a page.
size_t StagingBytes(size_t n) { return std::bit_ceil(std::max<size_t>(n, 4096)); }

}  // namespace

absl::StatusOr<PinnedUploader::Staging> PinnedUploader::TakeStaging(size_t n) {
  const size_t bytes = StagingBytes(n);
  if (auto it = kept_.find(bytes); it != kept_.end()) {
    Staging s{it->second, bytes};
    kept_.erase(it);
    kept_bytes_ -= bytes;
    return s;
  }
  void* host = nullptr;
  // flags 0: plain page-locked memory (the reference passes CU_MEMHOSTALLOC_PORTABLE, which only
  // matters to other contexts; this memory is copied from on this one)
  RETURN_IF_ERROR(ctx_->api().Check(ctx_->api().cuMemHostAlloc(&host, bytes, 0),
                                    absl::StrCat("cuMemHostAlloc(", bytes, " bytes)")));
  ++allocations_;
  return Staging{host, bytes};
}

void PinnedUploader::Keep(Staging s) {
  if (kept_bytes_ + s.bytes > options_.max_kept_bytes) {
    (void)ctx_->api().cuMemFreeHost(s.host);
    return;
  }
  kept_.emplace(s.bytes, s.host);
  kept_bytes_ += s.bytes;
}

absl::Status PinnedUploader::CopyIn(CUdeviceptr dst, std::span<const std::byte> src) {
  if (src.empty()) return absl::OkStatus();
  std::lock_guard<std::mutex> l(mu_);
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  // cuMemcpyHtoD from `src` itself: returns once the GPU has the bytes; needs no staging.
  auto synchronous = [&] {
    return ctx_->api().Check(ctx_->api().cuMemcpyHtoD(dst, src.data(), src.size()), "cuMemcpyHtoD");
  };
  if (src.size() > options_.max_staged_bytes) return synchronous();
  if (in_flight_bytes_ + StagingBytes(src.size()) > options_.max_in_flight_bytes && !in_flight_.empty()) {
    // Enough is queued: wait for it, so that page-locked memory stays bounded.
    RETURN_IF_ERROR(ctx_->Synchronize());
    CompletedLocked(next_seq_);
  }
  absl::StatusOr<Staging> staging = TakeStaging(src.size());
  if (!staging.ok()) {
    // No page-locked memory to be had (used up, or a driver or sandbox that refuses it): the
    // copy goes the synchronous way instead, which needs none.
    ++staging_failures_;
    return synchronous();
  }
  Staging s = *staging;
  std::memcpy(s.host, src.data(), src.size());
  absl::Status queued = ctx_->api().Check(
      ctx_->api().cuMemcpyHtoDAsync(dst, s.host, src.size(), nullptr), "cuMemcpyHtoDAsync");
  if (!queued.ok()) {
    Keep(s);  // nothing reads it
    return queued;
  }
  in_flight_.push_back({next_seq_++, s});
  in_flight_bytes_ += s.bytes;
  return absl::OkStatus();
}

uint64_t PinnedUploader::Mark() const {
  std::lock_guard<std::mutex> l(mu_);
  return next_seq_;
}

void PinnedUploader::Completed(uint64_t mark) {
  std::lock_guard<std::mutex> l(mu_);
  (void)ctx_->MakeCurrent();  // for what Keep gives back to the driver
  CompletedLocked(mark);
}

void PinnedUploader::CompletedLocked(uint64_t mark) {
  while (!in_flight_.empty() && in_flight_.front().seq < mark) {
    in_flight_bytes_ -= in_flight_.front().staging.bytes;
    Keep(in_flight_.front().staging);
    in_flight_.pop_front();
  }
}

size_t PinnedUploader::staging_allocations() const {
  std::lock_guard<std::mutex> l(mu_);
  return allocations_;
}

size_t PinnedUploader::staging_failures() const {
  std::lock_guard<std::mutex> l(mu_);
  return staging_failures_;
}

size_t PinnedUploader::in_flight() const {
  std::lock_guard<std::mutex> l(mu_);
  return in_flight_.size();
}

}  // namespace tg
