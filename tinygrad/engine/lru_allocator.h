// File: tinygrad/engine/lru_allocator.h
// Port of tinygrad/device.py's LRUAllocator: memory a buffer lets go of is kept, by size, and
// handed to the next allocation of that size instead of going back to the device. On a GPU that
// spares a driver allocation per buffer and, above all, a free: cuMemFree waits for the whole
// GPU, so freeing each realize's intermediates would stall the host behind every queued kernel.
// Kept memory goes back to the device when an allocation runs out of memory (which is then tried
// again, as the reference's free_cache), on Free(), and when the allocator dies.
//
// Reuse needs no synchronization on a device whose work runs in order on one stream (the CUDA
// device's default stream): a kernel queued after the free is queued after the kernels that
// used the memory before it. Thread-safe.
//
// Example (a device's Allocate):
//   LruAllocator lru([this](size_t n) { return AllocateUncached(n); });
//   ASSIGN_OR_RETURN(std::shared_ptr<RawBuffer> b, lru.Allocate(4096));
//   b.reset();                                   // kept
//   ASSIGN_OR_RETURN(b, lru.Allocate(4096));     // the same memory again
#ifndef TINYGRAD_ENGINE_LRU_ALLOCATOR_H_
#define TINYGRAD_ENGINE_LRU_ALLOCATOR_H_

#include <cstddef>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "tinygrad/engine/device.h"

namespace tg {

class LruAllocator {
 public:
  using AllocateFn = std::function<absl::StatusOr<std::shared_ptr<RawBuffer>>(size_t nbytes)>;
  // `allocate` makes new memory; it is called without the allocator's lock held.
  explicit LruAllocator(AllocateFn allocate);
  ~LruAllocator();  // kept memory is freed; buffers still out are freed when they go
  LruAllocator(const LruAllocator&) = delete;
  LruAllocator& operator=(const LruAllocator&) = delete;

  // Kept memory of exactly `nbytes` where there is some, else `allocate`'s; when that runs out
  // of memory (ResourceExhausted), the kept memory is freed and it is asked once more.
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes);
  // Frees the kept memory (tinygrad's free_cache).
  void Free();
  // What is kept now.
  size_t kept_buffers() const;
  size_t kept_bytes() const;

 private:
  struct Pool;
  AllocateFn allocate_;
  std::shared_ptr<Pool> pool_;  // shared with the buffers handed out, which come back to it
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_LRU_ALLOCATOR_H_
