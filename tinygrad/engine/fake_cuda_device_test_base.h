// File: tinygrad/engine/fake_cuda_device_test_base.h
// For tests of what runs on a CUDA engine device: a gtest fixture whose SetUp makes a CUDA
// device of its own on the fake libcuda (runtime/cuda/fake_cuda_driver.cc), with the fake
// reset before and after each test. A device of its own (not the registry's, which lives for
// the process): a kernel fault a test injects loses only it.
//
// Example:
//   class MyCudaTest : public FakeCudaDeviceTest {
//    protected:
//     void SetUp() override {
//       FakeCudaDeviceTest::SetUp();
//       if (HasFatalFailure() || IsSkipped()) return;
//       ...  // dev_ is the device, fake_ its driver's controls
//     }
//   };
#ifndef TINYGRAD_ENGINE_FAKE_CUDA_DEVICE_TEST_BASE_H_
#define TINYGRAD_ENGINE_FAKE_CUDA_DEVICE_TEST_BASE_H_

#include <memory>
#include <optional>

#include "gtest/gtest.h"
#include "tinygrad/engine/cuda_device.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cuda/fake_cuda.h"

namespace tg {

class FakeCudaDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  std::optional<FakeCuda> fake_;
  CudaDeviceOptions options_;  // what dev_ was made with: the fake driver, no disk cache
  std::unique_ptr<Device> dev_;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_FAKE_CUDA_DEVICE_TEST_BASE_H_
