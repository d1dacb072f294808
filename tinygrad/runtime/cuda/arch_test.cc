// File: tinygrad/runtime/cuda/arch_test.cc
#include "tinygrad/runtime/cuda/arch.h"

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(CudaArchTest, ParsesComputeCapabilityAndVariant) {
  struct Case {
    const char* name;
    CudaArch want;
  };
  for (const Case& c :
       {Case{"sm_75", {7, 5, 0}}, Case{"sm_80", {8, 0, 0}}, Case{"sm_89", {8, 9, 0}},
        Case{"sm_90", {9, 0, 0}}, Case{"sm_90a", {9, 0, 'a'}}, Case{"sm_100", {10, 0, 0}},
        Case{"sm_100f", {10, 0, 'f'}}, Case{"sm_120", {12, 0, 0}}}) {
    absl::StatusOr<CudaArch> arch = ParseCudaArch(c.name);
    ASSERT_TRUE(arch.ok()) << c.name << ": " << arch.status();
    EXPECT_EQ(*arch, c.want) << c.name;
    EXPECT_EQ(arch->name(), c.name);
  }
  EXPECT_EQ(ParseCudaArch("sm_120")->sm(), 120);
  EXPECT_EQ(CudaArch::FromComputeCapability(9, 0).name(), "sm_90");
}

TEST(CudaArchTest, RejectsMalformedNames) {
  for (const char* bad : {"", "sm_", "sm_9", "sm_1000", "compute_90", "SM_90", "sm_90b", "sm_9x",
                          "sm_090", "90", "sm_90aa", "gfx1100"}) {
    absl::StatusOr<CudaArch> arch = ParseCudaArch(bad);
    ASSERT_FALSE(arch.ok()) << bad;
    EXPECT_EQ(arch.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(arch.status().message().find("bad CUDA arch"), std::string::npos);
  }
}

TEST(CudaArchTest, AnSm90GpuCompilesForSm90aAndEveryOtherForItself) {
  EXPECT_EQ(CompileArch(*ParseCudaArch("sm_90")).name(), "sm_90a");
  for (const char* arch : {"sm_90a", "sm_89", "sm_80", "sm_100", "sm_100f", "sm_120"})
    EXPECT_EQ(CompileArch(*ParseCudaArch(arch)).name(), arch);
}

TEST(CudaArchTest, PtxIsaVersionIsTheReferencesRaisedToWhatTheTargetNeeds) {
  struct Case {
    const char* arch;
    const char* version;
  };
  for (const Case& c : {// the reference's values
                        Case{"sm_75", "7.5"}, Case{"sm_80", "7.5"}, Case{"sm_86", "7.5"},
                        Case{"sm_89", "7.8"}, Case{"sm_90", "7.8"}, Case{"sm_120", "8.7"},
                        // raised: the reference's would be rejected by ptxas for these targets
                        Case{"sm_90a", "8.0"}, Case{"sm_100", "8.6"}, Case{"sm_100a", "8.6"},
                        Case{"sm_101", "8.6"}, Case{"sm_103", "8.8"}, Case{"sm_110", "9.0"},
                        Case{"sm_121", "8.8"}, Case{"sm_100f", "8.8"}, Case{"sm_120a", "8.7"}}) {
    EXPECT_EQ(PtxIsaVersion(*ParseCudaArch(c.arch)), c.version) << c.arch;
  }
}

}  // namespace
}  // namespace tg
