// File: tinygrad/runtime/cuda/pinned_uploader_test.cc
// PinnedUploader on the fake driver, whose asynchronous copies happen only at the next call
// ordered after them (as on a GPU, where they run later): a copy-in returns before the copy;
// staging memory is reused only once its copy is known to be done, so back-to-back copy-ins land
// what each was given; copies in flight are bounded; large copies go the synchronous way; and
// everything is freed, after the copies in flight, when the uploader goes.
#include "tinygrad/runtime/cuda/pinned_uploader.h"

#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/runtime/cuda/buffer.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/driver_api.h"
#include "tinygrad/runtime/cuda/fake_cuda.h"
#include "tinygrad/runtime/cuda/program.h"

namespace tg {
namespace {

std::vector<float> Filled(size_t n, float v) { return std::vector<float>(n, v); }

std::vector<float> Read(const CudaBuffer& b) {
  std::vector<float> out(b.size() / sizeof(float));
  EXPECT_TRUE(b.CopyOut(std::as_writable_bytes(std::span(out))).ok());
  return out;
}

class PinnedUploaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<FakeCuda> fake = FakeCuda::Open();
    if (!fake.ok()) GTEST_SKIP() << fake.status();
    CudaLibraryOptions libs;
    libs.driver_path = fake->path();
    absl::StatusOr<std::shared_ptr<const CudaDriverApi>> api = CudaDriverApi::Load(libs);
    ASSERT_TRUE(api.ok()) << api.status();
    absl::StatusOr<std::shared_ptr<CudaContext>> ctx = CudaContext::Open(*api, 0);
    ASSERT_TRUE(ctx.ok()) << ctx.status();
    fake_ = std::make_unique<FakeCuda>(*std::move(fake));
    ctx_ = *ctx;
  }
  CudaBuffer Buffer(size_t floats) {
    absl::StatusOr<CudaBuffer> b = CudaBuffer::Allocate(ctx_, floats * sizeof(float));
    EXPECT_TRUE(b.ok()) << b.status();
    return *std::move(b);
  }
  std::unique_ptr<FakeCuda> fake_;
  std::shared_ptr<CudaContext> ctx_;
};

TEST_F(PinnedUploaderTest, ACopyInReturnsBeforeTheCopyAndLandsBeforeWhatFollows) {
  PinnedUploader up(ctx_);
  CudaBuffer b = Buffer(64);
  const FakeAsyncCopies before = fake_->AsyncCopies();
  std::vector<float> src = Filled(64, 3.0f);
  ASSERT_TRUE(up.CopyIn(b.address(), std::as_bytes(std::span(src))).ok());
  src.assign(64, -1.0f);  // the caller's memory is free again at once
  const FakeAsyncCopies queued = fake_->AsyncCopies();
  EXPECT_EQ(queued.copies, before.copies + 1);
  EXPECT_EQ(queued.queued, 1) << "not copied yet: the GPU does it later";
  EXPECT_EQ(up.in_flight(), 1u);
  EXPECT_EQ(Read(b), Filled(64, 3.0f)) << "a copy out is ordered after it";
}

TEST_F(PinnedUploaderTest, StagingMemoryIsReusedOnlyOnceItsCopyIsDone) {
  PinnedUploader up(ctx_);
  std::vector<CudaBuffer> bufs;
  for (int i = 0; i < 4; ++i) bufs.push_back(Buffer(256));
  // Four copy-ins of one size with nothing in between: each needs staging memory of its own, or
  // a later one would overwrite what an earlier copy has not read yet.
  for (int i = 0; i < 4; ++i) {
    std::vector<float> src = Filled(256, static_cast<float>(i));
    ASSERT_TRUE(up.CopyIn(bufs[i].address(), std::as_bytes(std::span(src))).ok());
  }
  EXPECT_EQ(up.staging_allocations(), 4u);
  const uint64_t mark = up.Mark();
  ASSERT_TRUE(ctx_->Synchronize().ok());
  up.Completed(mark);
  EXPECT_EQ(up.in_flight(), 0u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(Read(bufs[i]), Filled(256, static_cast<float>(i))) << i;
  // Done copies give their staging memory back: the next copy-ins allocate nothing.
  for (int i = 0; i < 4; ++i) {
    std::vector<float> src = Filled(256, 10.0f + i);
    ASSERT_TRUE(up.CopyIn(bufs[i].address(), std::as_bytes(std::span(src))).ok());
  }
  EXPECT_EQ(up.staging_allocations(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(Read(bufs[i]), Filled(256, 10.0f + i)) << i;
}

TEST_F(PinnedUploaderTest, CompletedFreesOnlyTheCopiesBeforeItsMark) {
  PinnedUploader up(ctx_);
  CudaBuffer a = Buffer(16), b = Buffer(16);
  std::vector<float> src = Filled(16, 1.0f);
  ASSERT_TRUE(up.CopyIn(a.address(), std::as_bytes(std::span(src))).ok());
  const uint64_t mark = up.Mark();
  ASSERT_TRUE(up.CopyIn(b.address(), std::as_bytes(std::span(src))).ok());  // after the mark
  ASSERT_TRUE(ctx_->Synchronize().ok());
  up.Completed(mark);
  EXPECT_EQ(up.in_flight(), 1u);
}

TEST_F(PinnedUploaderTest, CopiesInFlightAreBoundedByWaitingForTheGpu) {
  PinnedUploader up(ctx_, {.max_in_flight_bytes = 2 * 4096});
  std::vector<CudaBuffer> bufs;
  for (int i = 0; i < 5; ++i) bufs.push_back(Buffer(1024));  // 4096 bytes each
  for (int i = 0; i < 5; ++i) {
    std::vector<float> src = Filled(1024, static_cast<float>(i));
    ASSERT_TRUE(up.CopyIn(bufs[i].address(), std::as_bytes(std::span(src))).ok());
    EXPECT_LE(up.in_flight(), 2u) << "copy " << i;
  }
  EXPECT_LE(up.staging_allocations(), 2u) << "waiting frees staging memory for reuse";
  for (int i = 0; i < 5; ++i) EXPECT_EQ(Read(bufs[i]), Filled(1024, static_cast<float>(i))) << i;
}

TEST_F(PinnedUploaderTest, LargeCopiesAreSynchronous) {
  PinnedUploader up(ctx_, {.max_staged_bytes = 1024});
  CudaBuffer b = Buffer(1024);
  const int copies = fake_->AsyncCopies().copies;
  std::vector<float> src = Filled(1024, 7.0f);
  ASSERT_TRUE(up.CopyIn(b.address(), std::as_bytes(std::span(src))).ok());
  EXPECT_EQ(fake_->AsyncCopies().copies, copies);
  EXPECT_EQ(up.in_flight(), 0u);
  EXPECT_EQ(up.staging_allocations(), 0u);
  EXPECT_EQ(Read(b), Filled(1024, 7.0f));
}

// Without page-locked memory (a driver out of it, or one that refuses it) copies still land,
// synchronously, and staging is tried again for the next.
TEST_F(PinnedUploaderTest, WithoutPinnedMemoryCopiesGoSynchronously) {
  PinnedUploader up(ctx_);
  CudaBuffer b = Buffer(16);
  const int copies = fake_->AsyncCopies().copies;
  fake_->FailHostAllocs(2);  // CUDA_ERROR_OUT_OF_MEMORY
  std::vector<float> src = Filled(16, 4.0f);
  absl::Status s = up.CopyIn(b.address(), std::as_bytes(std::span(src)));
  fake_->FailHostAllocs(0);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(up.staging_failures(), 1u);
  EXPECT_EQ(fake_->AsyncCopies().copies, copies);
  EXPECT_EQ(Read(b), Filled(16, 4.0f));
  src.assign(16, 5.0f);
  ASSERT_TRUE(up.CopyIn(b.address(), std::as_bytes(std::span(src))).ok());
  EXPECT_EQ(fake_->AsyncCopies().copies, copies + 1);
  EXPECT_EQ(Read(b), Filled(16, 5.0f));
}

// The fake refuses to free pinned memory a queued copy still reads, so an uploader that did
// not wait for its copies would leave it behind.
TEST_F(PinnedUploaderTest, EverythingIsFreedAfterTheCopiesInFlight) {
  CudaBuffer b = Buffer(64);
  const int live = fake_->LiveObjects();
  {
    PinnedUploader up(ctx_, {.max_kept_bytes = 0});
    std::vector<float> src = Filled(64, 2.0f);
    ASSERT_TRUE(up.CopyIn(b.address(), std::as_bytes(std::span(src))).ok());
    ASSERT_TRUE(up.CopyIn(b.address(), std::as_bytes(std::span(src))).ok());
    EXPECT_EQ(fake_->LiveObjects(), live + 2);
  }
  EXPECT_EQ(fake_->LiveObjects(), live);
  EXPECT_EQ(fake_->AsyncCopies().queued, 0);
  EXPECT_EQ(Read(b), Filled(64, 2.0f));
}

// A GPU whose context a kernel fault poisoned refuses the copy: the error comes back, with its
// staging memory kept for later (nothing in flight).
TEST_F(PinnedUploaderTest, ADriverErrorPassesThrough) {
  PinnedUploader up(ctx_);
  CudaBuffer b = Buffer(4);
  absl::StatusOr<CudaProgram> fault = CudaProgram::Load(ctx_, "fault", "tg-fake-module\nfault\n");
  ASSERT_TRUE(fault.ok()) << fault.status();
  ASSERT_TRUE(fault->Launch({}, {}, {}, /*wait=*/false).ok());
  std::vector<float> src = Filled(4, 1.0f);
  absl::Status s = up.CopyIn(b.address(), std::as_bytes(std::span(src)));
  fake_->Reset();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal) << s;
  EXPECT_EQ(up.in_flight(), 0u);
}

}  // namespace
}  // namespace tg
