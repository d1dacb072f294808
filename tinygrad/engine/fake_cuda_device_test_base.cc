// File: tinygrad/engine/fake_cuda_device_test_base.cc
#include "tinygrad/engine/fake_cuda_device_test_base.h"

namespace tg {

void FakeCudaDeviceTest::SetUp() {
  absl::StatusOr<FakeCuda> fake = FakeCuda::Open();
  ASSERT_TRUE(fake.ok()) << fake.status();
  fake_.emplace(*std::move(fake));
  fake_->Reset();
  options_.libs.driver_path = fake_->path();
  options_.cachelevel = 0;
  absl::StatusOr<std::unique_ptr<Device>> dev = MakeCudaDevice("CUDA", options_);
  ASSERT_TRUE(dev.ok()) << dev.status();
  dev_ = *std::move(dev);
}

void FakeCudaDeviceTest::TearDown() {
  if (fake_) fake_->Reset();
}

}  // namespace tg
