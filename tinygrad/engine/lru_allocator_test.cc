// File: tinygrad/engine/lru_allocator_test.cc
// LruAllocator over a counting allocator with a memory limit: memory comes back and is reused
// by size, an allocation that runs out frees what is kept and tries again, and nothing leaks.
#include "tinygrad/engine/lru_allocator.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

// Host memory with a count of what is alive.
struct Counter {
  int live = 0;
  size_t live_bytes = 0;
  int made = 0;
};
class CountedBuffer : public RawBuffer {
 public:
  CountedBuffer(size_t n, Counter* c) : bytes_(n), counter_(c) {
    ++c->live;
    ++c->made;
    c->live_bytes += n;
  }
  ~CountedBuffer() override {
    --counter_->live;
    counter_->live_bytes -= bytes_.size();
  }
  void* data() override { return bytes_.data(); }
  size_t nbytes() const override { return bytes_.size(); }
  absl::Status CopyIn(std::span<const std::byte>, size_t) override { return absl::OkStatus(); }
  absl::Status CopyOut(std::span<std::byte>, size_t) const override { return absl::OkStatus(); }

 private:
  std::vector<std::byte> bytes_;
  Counter* counter_;
};

// An allocator of `limit` bytes at most, as a GPU's memory.
LruAllocator::AllocateFn Limited(Counter* c, size_t limit) {
  return [c, limit](size_t n) -> absl::StatusOr<std::shared_ptr<RawBuffer>> {
    if (c->live_bytes + n > limit) return absl::ResourceExhaustedError("out of memory");
    return std::make_shared<CountedBuffer>(n, c);
  };
}

TEST(LruAllocatorTest, MemoryLetGoOfIsKeptAndHandedToTheNextAllocationOfItsSize) {
  Counter c;
  LruAllocator lru(Limited(&c, 1 << 20));
  auto a = lru.Allocate(64);
  ASSERT_TRUE(a.ok()) << a.status();
  void* first = (*a)->data();
  EXPECT_EQ((*a)->nbytes(), 64u);
  a->reset();
  EXPECT_EQ(c.live, 1) << "kept, not freed";
  EXPECT_EQ(lru.kept_buffers(), 1u);
  EXPECT_EQ(lru.kept_bytes(), 64u);
  auto other = lru.Allocate(32);  // another size: new memory
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(c.made, 2);
  auto again = lru.Allocate(64);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->data(), first);
  EXPECT_EQ(c.made, 2) << "the kept memory, not a new allocation";
  EXPECT_EQ(lru.kept_buffers(), 0u);
  // copies of the handle share it: it comes back once, when the last goes
  std::shared_ptr<RawBuffer> copy = *again;
  again->reset();
  EXPECT_EQ(lru.kept_buffers(), 0u);
  copy.reset();
  EXPECT_EQ(lru.kept_buffers(), 1u);
  lru.Free();
  EXPECT_EQ(lru.kept_buffers(), 0u);
  EXPECT_EQ(c.live, 1) << "only the 32 bytes still held";
}

TEST(LruAllocatorTest, RunningOutOfMemoryFreesWhatIsKeptAndTriesAgain) {
  Counter c;
  LruAllocator lru(Limited(&c, 100));
  for (size_t n : {40, 50}) ASSERT_TRUE(lru.Allocate(n).ok());  // both let go of: kept
  EXPECT_EQ(lru.kept_bytes(), 90u);
  auto big = lru.Allocate(60);  // 90 kept + 60 > 100
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(lru.kept_bytes(), 0u);
  EXPECT_EQ(c.live, 1);
  auto too_big = lru.Allocate(200);  // out of memory even with nothing kept: the device's error
  EXPECT_EQ(too_big.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(LruAllocatorTest, NothingOutlivesTheAllocatorAndItsBuffers) {
  Counter c;
  std::shared_ptr<RawBuffer> held;
  {
    LruAllocator lru(Limited(&c, 1 << 20));
    ASSERT_TRUE(lru.Allocate(16).ok());  // kept
    held = *lru.Allocate(8);
    EXPECT_EQ(c.live, 2);
  }
  EXPECT_EQ(c.live, 1) << "the kept buffer is freed with the allocator";
  held.reset();
  EXPECT_EQ(c.live, 0) << "one handed out is freed when it goes, not kept";
}

}  // namespace
}  // namespace tg
