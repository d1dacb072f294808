// Tensor ops on a real NVIDIA GPU against the same ops on the CPU: every op of the list is
// computed on "CUDA" from the same inputs as on "CPU" and compared element by element. Skips,
// saying why, where there is no CUDA device (no driver, no GPU, no NVRTC). A self-contained
// binary (static) for the GPU bundle (tools/gpu_check).
#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/gpu/op_cases.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

// Why there is no GPU to test on ("" when there is one).
const std::string& NoGpu() {
  static const std::string* why = [] {
    absl::StatusOr<Device*> dev = GetDevice("CUDA");
    if (!dev.ok()) return new std::string(dev.status().ToString());
    if ((*dev)->compiler_id().starts_with("nvrtc unavailable"))
      return new std::string((*dev)->compiler_id());
    const GpuDescription* g = (*dev)->gpu();
    std::printf("GPU: %s, %s, %d SMs, %zu MiB, %s, %s\n", g->name.c_str(), g->arch.c_str(), g->compute_units,
                g->memory_bytes >> 20, g->driver.c_str(), g->runtime.c_str());
    return new std::string();
  }();
  return *why;
}

// Why the CPU cannot compute the references here ("" when it can): the GPU bundle's binaries
// carry no in-process compiler, and a GPU machine may have no C compiler either (there
// tools/gpu_check compares CUDA against CPU results recorded where the bundle was built:
// device_compare).
const std::string& NoCpu() {
  static const std::string* why = [] {
    absl::StatusOr<std::vector<float>> r = (Tensor::FromVector<float>({1, 2}, {2}, "CPU") + 1).to_vector<float>();
    return new std::string(r.ok() ? "" : r.status().ToString());
  }();
  return *why;
}

class CudaOpsTest : public ::testing::TestWithParam<OpCase> {
 protected:
  void SetUp() override {
    if (!NoGpu().empty()) GTEST_SKIP() << "no CUDA device here: " << NoGpu();
    if (!NoCpu().empty()) GTEST_SKIP() << "the CPU cannot compute the references here: " << NoCpu();
  }
};

TEST_P(CudaOpsTest, MatchesTheCpu) {
  const OpCase& c = GetParam();
  absl::StatusOr<std::vector<float>> cpu = RunOpCase(c, "CPU");
  ASSERT_TRUE(cpu.ok()) << "CPU: " << cpu.status();
  absl::StatusOr<std::vector<float>> gpu = RunOpCase(c, "CUDA");
  ASSERT_TRUE(gpu.ok()) << "CUDA: " << gpu.status();
  for (const std::string& m : OpCaseMismatches(c, *cpu, *gpu)) ADD_FAILURE() << "CUDA vs CPU: " << m;
}

INSTANTIATE_TEST_SUITE_P(Ops, CudaOpsTest, ::testing::ValuesIn(OpCases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

// Copies between host, CPU and GPU keep every bit, for every size class of element.
TEST(CudaCopyTest, RoundTripsKeepEveryBit) {
  if (!NoGpu().empty()) GTEST_SKIP() << "no CUDA device here: " << NoGpu();
  std::vector<float> x = RandomData(100003, 9);
  absl::StatusOr<std::vector<float>> back = Tensor::FromVector<float>(x, {100003}).to("CUDA").to("CPU").to_vector<float>();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, x);
  std::vector<int64_t> big = {1, -2, int64_t{1} << 40};
  absl::StatusOr<std::vector<int64_t>> b64 = Tensor::FromVector<int64_t>(big, {3}, "CUDA").to_vector<int64_t>();
  ASSERT_TRUE(b64.ok()) << b64.status();
  EXPECT_EQ(*b64, big);
}

}  // namespace
}  // namespace tg
