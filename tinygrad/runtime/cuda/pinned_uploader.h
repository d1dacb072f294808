// File: tinygrad/runtime/cuda/pinned_uploader.h
// Port of the copy-in half of tinygrad/runtime/ops_cuda.py's CUDAAllocator (_copyin and
// CUDADevice.pending_copyin): host memory goes to the GPU through pinned (page-locked) staging
// buffers and cuMemcpyHtoDAsync on the default stream, so a copy-in returns as soon as the bytes
// are in staging memory instead of first waiting for every kernel queued before it (what
// cuMemcpyHtoD from pageable memory does). A training loop's next batch and a TinyJit replay's
// random-number counters then queue behind the running step without stalling the host.
//
// A staging buffer is reused once the copy from it is known to be done: after a synchronize,
// or a synchronous copy out, that was issued after it (Mark, then Completed). Copies in flight
// are bounded (past the bound a copy-in first waits for the GPU), kept staging memory too; a
// copy larger than a staging buffer may be, or one for which no page-locked memory can be had
// (cuMemHostAlloc fails), goes the synchronous way. Thread-safe.
//
// Example (a device's copy-in, copy-out and synchronize):
//   PinnedUploader up(ctx);
//   RETURN_IF_ERROR(up.CopyIn(buf.address(), bytes));      // returns before the GPU copies
//   uint64_t mark = up.Mark();
//   RETURN_IF_ERROR(ctx->Synchronize());
//   up.Completed(mark);                                     // its staging memory is free again
#ifndef TINYGRAD_RUNTIME_CUDA_PINNED_UPLOADER_H_
#define TINYGRAD_RUNTIME_CUDA_PINNED_UPLOADER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "tinygrad/runtime/cuda/context.h"

namespace tg {

struct PinnedUploaderOptions {
  // Larger copies are synchronous (cuMemcpyHtoD): staging them would double a big upload's
  // host work and hold that much page-locked memory.
  size_t max_staged_bytes = size_t{16} << 20;
  // Staging memory of copies not known to be done; a copy past it first synchronizes.
  size_t max_in_flight_bytes = size_t{64} << 20;
  // Free staging memory kept for reuse; the rest goes back to the driver.
  size_t max_kept_bytes = size_t{64} << 20;
};

class PinnedUploader {
 public:
  using CUdeviceptr = cuda_abi::CUdeviceptr;

  explicit PinnedUploader(std::shared_ptr<CudaContext> ctx, PinnedUploaderOptions options = {});
  ~PinnedUploader();  // waits for copies in flight (errors dropped), frees the staging memory
  PinnedUploader(const PinnedUploader&) = delete;
  PinnedUploader& operator=(const PinnedUploader&) = delete;

  // Queues a copy of `src` to device memory `dst` of this context, ordered on the default
  // stream with the kernels and copies queued before and after it; returns once `src` may be
  // reused. The caller checks that `dst` holds src.size() bytes. Driver errors pass through.
  absl::Status CopyIn(CUdeviceptr dst, std::span<const std::byte> src);
  // Names the copies queued so far: pass it to Completed once an operation issued after this
  // call has waited for the GPU.
  uint64_t Mark() const;
  // The copies queued before `mark` are done: their staging memory is reused.
  void Completed(uint64_t mark);

  // Staging buffers made so far (cuMemHostAlloc calls), copies that went synchronously because
  // none could be made, and the staging buffers of copies in flight now.
  size_t staging_allocations() const;
  size_t staging_failures() const;
  size_t in_flight() const;

 private:
  struct Staging {
    void* host = nullptr;
    size_t bytes = 0;  // a power of two, at least one page
  };
  struct InFlight {
    uint64_t seq;
    Staging staging;
  };
  absl::StatusOr<Staging> TakeStaging(size_t n);  // mu_ held
  void Keep(Staging s);                           // mu_ held
  void CompletedLocked(uint64_t mark);            // mu_ held

  std::shared_ptr<CudaContext> ctx_;
  const PinnedUploaderOptions options_;
  mutable std::mutex mu_;
  uint64_t next_seq_ = 0;
  std::deque<InFlight> in_flight_;  // in queue order
  size_t in_flight_bytes_ = 0;
  std::multimap<size_t, void*> kept_;  // free staging buffers by size
  size_t kept_bytes_ = 0;
  size_t allocations_ = 0;
  size_t staging_failures_ = 0;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_PINNED_UPLOADER_H_
