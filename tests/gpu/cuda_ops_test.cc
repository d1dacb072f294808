// Tensor ops on a real NVIDIA GPU against the same ops on the CPU: every op of the list is
// computed on "CUDA" from the same inputs as on "CPU" and compared element by element. Skips,
// saying why, where there is no CUDA device (no driver, no GPU, no NVRTC). A self-contained
// binary (static) for the GPU bundle (tools/gpu_check).
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
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

struct OpCase {
  std::string name;
  std::vector<std::vector<int64_t>> shapes;         // of the float inputs, random in [-1, 1)
  std::function<Tensor(const std::vector<Tensor>&)> fn;
  double atol = 1e-5, rtol = 1e-4;
};

std::vector<float> RandomData(int64_t n, uint64_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (float& x : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<float>((s >> 40) & 0xffffff) / 8388608.0f - 1.0f;
  }
  return v;
}

// The op's result on `device`, read back as floats.
absl::StatusOr<std::vector<float>> RunOn(const OpCase& c, const std::string& device) {
  std::vector<Tensor> ins;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    int64_t n = 1;
    for (int64_t d : c.shapes[i]) n *= d;
    ins.push_back(Tensor::FromVector<float>(RandomData(n, i + 1), c.shapes[i], device));
  }
  Tensor out = c.fn(ins);
  if (!out.ok()) return out.status();
  if (out.device() != device) return absl::InternalError("the result is on " + out.device());
  return out.cast(dtypes::float32).to_vector<float>();
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
  absl::StatusOr<std::vector<float>> cpu = RunOn(c, "CPU");
  ASSERT_TRUE(cpu.ok()) << "CPU: " << cpu.status();
  absl::StatusOr<std::vector<float>> gpu = RunOn(c, "CUDA");
  ASSERT_TRUE(gpu.ok()) << "CUDA: " << gpu.status();
  ASSERT_EQ(gpu->size(), cpu->size());
  int bad = 0;
  for (size_t i = 0; i < cpu->size() && bad < 10; ++i) {
    const double want = (*cpu)[i], got = (*gpu)[i];
    const bool ok = (std::isnan(want) && std::isnan(got)) || want == got ||
                    std::abs(got - want) <= c.atol + c.rtol * std::abs(want);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << c.name << "[" << i << "]: CUDA " << got << ", CPU " << want;
    }
  }
}


std::vector<OpCase> Cases() {
  using V = const std::vector<Tensor>&;
  return {
      {"add", {{1000}, {1000}}, [](V v) { return v[0] + v[1]; }},
      {"mul_broadcast", {{64, 1}, {1, 48}}, [](V v) { return v[0] * v[1]; }},
      {"div", {{513}, {513}}, [](V v) { return v[0] / (v[1].abs() + 0.5); }},
      {"exp_log_sqrt", {{4096}}, [](V v) { return v[0].exp() + (v[0].abs() + 1).log() + v[0].abs().sqrt(); }, 1e-5, 1e-4},
      {"sin_cos", {{2048}}, [](V v) { return (v[0] * 10).sin() + (v[0] * 3).cos(); }, 1e-5, 1e-4},
      {"relu_sigmoid_gelu", {{3000}}, [](V v) { return v[0].relu() + v[0].sigmoid() + v[0].gelu(); }, 1e-5, 1e-4},
      {"where_gt", {{777}, {777}}, [](V v) { return v[0].gt(v[1]).where(v[0], v[1] * 2); }},
      {"big_elementwise", {{1 << 22}}, [](V v) { return v[0] * 2 + 1; }},
      {"sum_axis", {{96, 130}}, [](V v) { return v[0].sum(1); }, 1e-4, 1e-4},
      {"sum_all_large", {{1 << 20}}, [](V v) { return v[0].sum(); }, 1e-2, 1e-3},
      {"max_mean", {{33, 257}}, [](V v) { return v[0].max(1) + v[0].mean(1); }, 1e-5, 1e-4},
      {"argmax", {{40, 300}}, [](V v) { return v[0].argmax(1); }},
      {"softmax", {{16, 1000}}, [](V v) { return v[0].softmax(-1); }, 1e-6, 1e-4},
      {"log_softmax", {{7, 333}}, [](V v) { return v[0].log_softmax(-1); }, 1e-5, 1e-4},
      {"cumsum", {{5, 200}}, [](V v) { return v[0].cumsum(1); }, 1e-4, 1e-4},
      {"layernorm", {{8, 512}}, [](V v) { return v[0].layernorm(-1); }, 1e-4, 1e-3},
      {"matmul_64", {{64, 64}, {64, 64}}, [](V v) { return v[0].matmul(v[1]); }, 1e-4, 1e-4},
      {"matmul_rect", {{256, 512}, {512, 128}}, [](V v) { return v[0].matmul(v[1]); }, 1e-3, 1e-4},
      {"matmul_odd", {{33, 65}, {65, 17}}, [](V v) { return v[0].matmul(v[1]); }, 1e-4, 1e-4},
      {"matmul_half", {{256, 256}, {256, 256}},
       [](V v) { return v[0].cast(dtypes::float16).matmul(v[1].cast(dtypes::float16)); }, 5e-2, 1e-2},
      {"matmul_bf16", {{128, 256}, {256, 64}},
       [](V v) { return v[0].cast(dtypes::bfloat16).matmul(v[1].cast(dtypes::bfloat16)); }, 1e-1, 2e-2},
      {"conv2d", {{2, 3, 16, 16}, {8, 3, 3, 3}},
       [](V v) { return v[0].conv2d(v[1], std::nullopt, Conv2dOpts{.padding = {1}}); }, 1e-4, 1e-4},
      {"max_pool2d", {{2, 4, 16, 16}}, [](V v) { return v[0].max_pool2d(); }},
      {"transpose_pad", {{30, 40}}, [](V v) { return v[0].permute({1, 0}).pad({{1, 2}, {0, 3}}).contiguous(); }},
      {"int_math", {{1000}},
       [](V v) {
         Tensor i = (v[0] * 1000).cast(dtypes::int32);
         return (i * 3 + 7).idiv(Tensor::Full({1000}, 5, {.dtype = dtypes::int32, .device = v[0].device()}));
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(Ops, CudaOpsTest, ::testing::ValuesIn(Cases()),
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
