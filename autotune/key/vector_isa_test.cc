// File: autotune/key/vector_isa_test.cc
#include "autotune/key/vector_isa.h"

#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

DeviceClass Cpu(std::vector<std::string> flags) {
  DeviceClass dc;
  dc.device = "CPU";
  dc.isa_flags = std::move(flags);
  return dc;
}

TEST(VectorIsaTest, Avx2) {
  VectorIsa v = VectorIsaOf(Cpu({"avx", "avx2", "fma", "pni", "sse4_2"}));
  EXPECT_EQ(v, (VectorIsa{256, 16}));
  EXPECT_EQ(v.lanes(), 8);
  EXPECT_EQ(v.SimdWidths(), std::vector<int64_t>{8});  // no 16-float (512-bit) vectors
  EXPECT_EQ(v.MaxAccumulatorFloats(), (16 - kReservedVectorRegisters) * 8);
}

TEST(VectorIsaTest, Avx512) {
  VectorIsa v = VectorIsaOf(Cpu({"avx", "avx2", "avx512f", "avx512vl", "fma"}));
  EXPECT_EQ(v, (VectorIsa{512, 32}));
  EXPECT_EQ(v.lanes(), 16);
  EXPECT_EQ(v.SimdWidths(), (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(v.MaxAccumulatorFloats(), (32 - kReservedVectorRegisters) * 16);
}

TEST(VectorIsaTest, OthersAndUnknown) {
  EXPECT_EQ(VectorIsaOf(Cpu({"pni", "ssse3"})), (VectorIsa{128, 16}));
  EXPECT_TRUE(VectorIsaOf(Cpu({"pni"})).SimdWidths().empty());  // 4 lanes: the reference's own width
  EXPECT_EQ(VectorIsaOf(Cpu({"asimd", "asimdhp"})), (VectorIsa{128, 32}));
  EXPECT_FALSE(VectorIsaOf(Cpu({})).known());
  EXPECT_EQ(VectorIsaOf(Cpu({})).MaxAccumulatorFloats(), 0);
  DeviceClass gpu = Cpu({"avx512f"});
  gpu.device = "CUDA";
  EXPECT_FALSE(VectorIsaOf(gpu).known());
}

}  // namespace
}  // namespace tg::autotune
