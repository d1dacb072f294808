// Tensor ops on the UOp emulator (DEV=PYTHON) against the same ops on the CPU: the GPU code
// paths (locals, shared-memory reductions, tensor cores in each emulated device's lane layout)
// run and checked on a machine without a GPU. The cases are the real GPU's (op_cases.h).
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/gpu/op_cases.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

struct EmulatedCase {
  std::string emulate;  // EMULATE
  OpCase op;
};

// gtest prints a case as its name, not its bytes.
void PrintTo(const EmulatedCase& c, std::ostream* os) { *os << "EMULATE=" << c.emulate << " " << c.op.name; }

// The CPU device cannot compute bfloat16 here (clang 14 has no __bf16 for x86), so a bfloat16
// matmul is checked against the product of the bfloat16-rounded inputs, rounded to bfloat16,
// computed in double on the host.
std::vector<float> HostBf16Matmul(const OpCase& c) {
  const int64_t m = c.shapes[0][0], k = c.shapes[0][1], n = c.shapes[1][1];
  std::vector<float> a = RandomData(m * k, 1), b = RandomData(k * n, 2), out(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t x = 0; x < k; ++x) acc += RoundToBFloat16(a[i * k + x]) * RoundToBFloat16(b[x * n + j]);
      out[i * n + j] = static_cast<float>(RoundToBFloat16(acc));
    }
  return out;
}

class EmulatedOpsTest : public ::testing::TestWithParam<EmulatedCase> {};

TEST_P(EmulatedOpsTest, MatchesTheCpu) {
  const EmulatedCase& c = GetParam();
  absl::StatusOr<std::vector<float>> cpu =
      c.op.name == "matmul_bf16" ? HostBf16Matmul(c.op) : RunOpCase(c.op, "CPU");
  ASSERT_TRUE(cpu.ok()) << "CPU: " << cpu.status();
  // the device is made from the environment at realize (the edge), as a user's DEV=PYTHON is
  setenv("EMULATE", c.emulate.c_str(), 1);
  absl::StatusOr<std::vector<float>> emulated = RunOpCase(c.op, "PYTHON");
  unsetenv("EMULATE");
  ASSERT_TRUE(emulated.ok()) << "PYTHON (EMULATE=" << c.emulate << "): " << emulated.status();
  for (const std::string& m : OpCaseMismatches(c.op, *cpu, *emulated))
    ADD_FAILURE() << "EMULATE=" << c.emulate << " vs CPU: " << m;
}

std::vector<EmulatedCase> Cases() {
  std::vector<EmulatedCase> out;
  for (const OpCase& op : OpCases()) out.push_back({"CUDA", op});
  // the tensor-core matmuls on every emulated device that has tensor cores for their dtype
  for (const OpCase& op : OpCases()) {
    if (op.name != "matmul_half" && op.name != "matmul_bf16") continue;
    for (const char* emulate : {"", "CUDA_SM75", "CUDA_SM89", "AMD", "AMD_MFMA", "AMD_RDNA4", "METAL", "INTEL", "AMX"}) {
      if (op.name == "matmul_bf16" && std::string(emulate) == "CUDA_SM75") continue;  // sm_75 has no bf16 MMA
      out.push_back({emulate, op});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Ops, EmulatedOpsTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<EmulatedCase>& info) {
                           return (info.param.emulate.empty() ? std::string("NONE") : info.param.emulate) + "_" +
                                  info.param.op.name;
                         });

TEST(EmulatorDeviceTest, AnUnknownEmulateValueIsAnErrorNamingIt) {
  absl::StatusOr<Device*> dev = GetDevice("PYTHON", DeviceOptions{.emulator = {.emulate = "TPU"}});
  ASSERT_FALSE(dev.ok());
  EXPECT_NE(dev.status().message().find("TPU"), std::string::npos) << dev.status();
  setenv("EMULATE", "TPU", 1);
  Tensor t = Tensor::FromVector<float>({1, 2}, {2}, "PYTHON") + 1;
  absl::StatusOr<std::vector<float>> r = t.to_vector<float>();
  unsetenv("EMULATE");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("EMULATE"), std::string::npos) << r.status();
}

}  // namespace
}  // namespace tg
