// File: tinygrad/engine/lru_allocator.cc
// Port of tinygrad/device.py: LRUAllocator.
#include "tinygrad/engine/lru_allocator.h"

#include <mutex>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace tg {

struct LruAllocator::Pool {
  mutable std::mutex mu;
  absl::flat_hash_map<size_t, std::vector<std::shared_ptr<RawBuffer>>> kept;  // by size asked
  bool open = true;  // false once the allocator is gone: what comes back is freed

  // Takes back `owner` (of `nbytes` asked); freed outside the lock when the allocator is gone.
  void Return(size_t nbytes, std::shared_ptr<RawBuffer> owner) {
    std::lock_guard<std::mutex> l(mu);
    if (open) kept[nbytes].push_back(std::move(owner));
  }
  std::vector<std::shared_ptr<RawBuffer>> TakeAll() {
    std::vector<std::shared_ptr<RawBuffer>> all;
    std::lock_guard<std::mutex> l(mu);
    for (auto& [size, buffers] : kept)
      for (std::shared_ptr<RawBuffer>& b : buffers) all.push_back(std::move(b));
    kept.clear();
    return all;
  }
};

LruAllocator::LruAllocator(AllocateFn allocate)
    : allocate_(std::move(allocate)), pool_(std::make_shared<Pool>()) {}

LruAllocator::~LruAllocator() {
  {
    std::lock_guard<std::mutex> l(pool_->mu);
    pool_->open = false;
  }
  Free();
}

absl::StatusOr<std::shared_ptr<RawBuffer>> LruAllocator::Allocate(size_t nbytes) {
  std::shared_ptr<RawBuffer> owner;
  {
    std::lock_guard<std::mutex> l(pool_->mu);
    auto it = pool_->kept.find(nbytes);
    if (it != pool_->kept.end() && !it->second.empty()) {
      owner = std::move(it->second.back());
      it->second.pop_back();
    }
  }
  if (owner == nullptr) {
    absl::StatusOr<std::shared_ptr<RawBuffer>> fresh = allocate_(nbytes);
    if (fresh.status().code() == absl::StatusCode::kResourceExhausted) {
      Free();
      fresh = allocate_(nbytes);
    }
    if (!fresh.ok()) return fresh.status();
    owner = *std::move(fresh);
  }
  // What the caller holds: the same memory, which comes back here when the last holder goes.
  RawBuffer* raw = owner.get();
  return std::shared_ptr<RawBuffer>(
      raw, [pool = pool_, nbytes, owner = std::move(owner)](RawBuffer*) mutable {
        pool->Return(nbytes, std::move(owner));
      });
}

void LruAllocator::Free() { pool_->TakeAll(); }  // freed as the taken buffers go

size_t LruAllocator::kept_buffers() const {
  std::lock_guard<std::mutex> l(pool_->mu);
  size_t n = 0;
  for (const auto& [size, buffers] : pool_->kept) n += buffers.size();
  return n;
}

size_t LruAllocator::kept_bytes() const {
  std::lock_guard<std::mutex> l(pool_->mu);
  size_t n = 0;
  for (const auto& [size, buffers] : pool_->kept) n += size * buffers.size();
  return n;
}

}  // namespace tg
