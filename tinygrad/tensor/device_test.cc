// Tensors on devices: the default device, to(), and copies between devices. Runs on the CPU
// alone: "CPU:1" is a second CPU device (its own buffers, its own kernels), which is enough for
// the graph and the copies; tests/e2e/cuda_fake_tensor_test does the same with CUDA.
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

TEST(TensorDeviceTest, TheDefaultDeviceIsTheEnvironments) {
  // The suite sets DEV=CPU (.bazelrc); run by hand without it, the default is the first device
  // that opens here (tests/e2e/cuda_fake_tensor_test checks that choice).
  const char* dev = std::getenv("DEV");
  const bool named = dev != nullptr && *dev != '\0';
  const std::string expected = named ? CanonicalDeviceName(dev) : DefaultDevice();
  if (!named) EXPECT_TRUE(expected == "CPU" || expected == "CUDA") << expected;
  EXPECT_EQ(DefaultDevice(), expected);
  EXPECT_EQ(TensorOpts{}.device, expected);
  EXPECT_EQ(Tensor::Zeros({2}).device(), expected);
}

TEST(TensorDeviceTest, SetDefaultDeviceCanonicalizesAndIsUsedByCreation) {
  const std::string before = DefaultDevice();
  SetDefaultDevice("cpu:1");
  EXPECT_EQ(DefaultDevice(), "CPU:1");
  EXPECT_EQ(Tensor::Ones({3}).device(), "CPU:1");
  EXPECT_EQ(Tensor::FromVector<float>({1, 2}).device(), "CPU:1");
  EXPECT_EQ(Tensor::Arange(4).device(), "CPU:1");
  SetDefaultDevice(before);
  EXPECT_EQ(Tensor::Ones({3}, {.device = "cpu:0"}).device(), "CPU") << "names are canonical";
}

TEST(TensorDeviceTest, ToTheSameDeviceIsTheSameTensor) {
  Tensor t = Tensor::FromVector<float>({1, 2, 3}, {3}, "CPU");
  Tensor same = t.to("cpu");
  EXPECT_EQ(same.uop(), t.uop());
  Tensor other = t.to("CPU:1");
  EXPECT_EQ(other.device(), "CPU:1");
  EXPECT_EQ(other.shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(other.uop().op(), Ops::COPY);
}

TEST(TensorDeviceTest, CopiesBetweenDevicesRoundTrip) {
  std::vector<float> x = {1.5f, -2.0f, 3.25f, 4.0f, 0.0f, -7.5f};
  Tensor a = Tensor::FromVector<float>(x, {2, 3}, "CPU");
  Tensor b = a.to("CPU:1");
  absl::StatusOr<std::vector<float>> on_b = b.to_vector<float>();
  ASSERT_TRUE(on_b.ok()) << on_b.status();
  EXPECT_EQ(*on_b, x);
  // compute on the second device, bring the result back
  Tensor c = (b * 2 + 1).to("CPU");
  EXPECT_EQ(c.device(), "CPU");
  absl::StatusOr<std::vector<float>> back = c.to_vector<float>();
  ASSERT_TRUE(back.ok()) << back.status();
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ((*back)[i], x[i] * 2 + 1) << i;
  // a view moves as what it shows
  absl::StatusOr<std::vector<float>> col = a.permute({1, 0}).to("CPU:1").to_vector<float>();
  ASSERT_TRUE(col.ok()) << col.status();
  EXPECT_EQ(*col, (std::vector<float>{1.5f, 4.0f, -2.0f, 0.0f, 3.25f, -7.5f}));
}

// DEBUG=7 prints each new kernel's machine code (objdump), after its source.
TEST(TensorDeviceTest, Debug7PrintsTheCompiledKernelsMachineCode) {
  Tensor a = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7}, {7}, "CPU");
  ASSERT_TRUE(a.realize().ok());
  Config c = GetConfig();
  c.debug = 7;
  absl::StatusOr<std::vector<float>> v;
  std::string out;
  {
    ScopedConfig scoped(c);
    testing::internal::CaptureStdout();
    v = (a * 3 - 1).to_vector<float>();
    out = testing::internal::GetCapturedStdout();
  }
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, (std::vector<float>{2, 5, 8, 11, 14, 17, 20}));
  if (out.find("DEBUG=7: no disassembly") != std::string::npos) GTEST_SKIP() << out;
  EXPECT_NE(out.find("Disassembly of section .text"), std::string::npos) << out;
  EXPECT_NE(out.find("\tret"), std::string::npos) << "x86's ret/retq, AArch64's ret: " << out;
}

TEST(TensorDeviceTest, MixingDevicesInOneOpIsAnError) {
  Tensor a = Tensor::FromVector<float>({1, 2}, {2}, "CPU");
  Tensor b = Tensor::FromVector<float>({1, 2}, {2}, "CPU:1");
  Tensor c = a + b;
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE((a + b.to("CPU")).ok());
}

TEST(TensorDeviceTest, AnUnknownDeviceIsAnErroredTensor) {
  Tensor t = Tensor::FromVector<float>({1, 2}, {2}, "TPU");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("unknown device 'TPU'"), std::string::npos) << t.status();
  absl::Status s = Tensor::FromVector<float>({1, 2}, {2}, "CPU").to("TPU").realize();
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace tg
