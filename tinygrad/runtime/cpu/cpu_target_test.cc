// File: tinygrad/runtime/cpu/cpu_target_test.cc
#include "tinygrad/runtime/cpu/cpu_target.h"

#include <algorithm>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// A CPU with exactly `flags`.
std::function<bool(std::string_view)> Has(std::set<std::string> flags) {
  return [flags](std::string_view f) { return flags.contains(std::string(f)); };
}

const std::set<std::string> kAvx2Cpu = {"popcnt", "sse4_2", "ssse3", "avx2", "bmi2", "fma"};

TEST(CpuTargetTest, NativeAndLevelsAreKnown) {
  EXPECT_TRUE(IsKnownCpuTarget(""));
  EXPECT_TRUE(IsKnownCpuTarget("native"));
  for (const char* t : {"x86-64-v2", "x86-64-v3", "x86-64-v4"}) EXPECT_TRUE(IsKnownCpuTarget(t)) << t;
  EXPECT_FALSE(IsKnownCpuTarget("x86-64"));  // the baseline is not a target
  EXPECT_FALSE(IsKnownCpuTarget("avx2"));
  EXPECT_FALSE(IsKnownCpuTarget("x86-64-v5"));
}

TEST(CpuTargetTest, UnknownTargetIsAClearError) {
  absl::Status s = CheckCpuTargetOn("x86-64-v9", "x86_64", Has(kAvx2Cpu));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("unknown CPU target 'x86-64-v9'"));
  EXPECT_THAT(s.message(), HasSubstr("native, x86-64-v2, x86-64-v3, x86-64-v4"));
  EXPECT_EQ(CheckCpuTarget("haswell").code(), absl::StatusCode::kInvalidArgument);
}

TEST(CpuTargetTest, LevelTheCpuLacksIsAnError) {
  EXPECT_TRUE(CheckCpuTargetOn("x86-64-v3", "x86_64", Has(kAvx2Cpu)).ok());
  absl::Status s = CheckCpuTargetOn("x86-64-v4", "x86_64", Has(kAvx2Cpu));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  // every missing feature, not only the first
  EXPECT_THAT(s.message(), HasSubstr("needs avx512bw, avx512cd, avx512dq, avx512f, avx512vl,"));
  EXPECT_THAT(s.message(), HasSubstr("lacks"));
  // a level's checks include the levels below it
  std::set<std::string> no_sse42 = kAvx2Cpu;
  no_sse42.erase("sse4_2");
  EXPECT_THAT(CheckCpuTargetOn("x86-64-v3", "x86_64", Has(no_sse42)).message(), HasSubstr("sse4_2"));
}

TEST(CpuTargetTest, LevelOnAnotherArchitectureIsAnError) {
  absl::Status s = CheckCpuTargetOn("x86-64-v3", "aarch64", Has({}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("aarch64"));
  EXPECT_TRUE(CheckCpuTargetOn("native", "aarch64", Has({})).ok());
}

TEST(CpuTargetTest, ArchFlag) {
  EXPECT_EQ(CpuArchFlags("x86-64-v3"), std::vector<std::string>{"-march=x86-64-v3"});
  EXPECT_EQ(CpuArchFlags("x86-64-v4"),
            (std::vector<std::string>{"-march=x86-64-v4", "-mprefer-vector-width=512"}));
  // the host's ISA: the reference's flag for this architecture
  EXPECT_EQ(CpuArchFlags(""), CpuArchFlags("native"));
  ASSERT_EQ(CpuArchFlags("").size(), 1u);
  EXPECT_THAT(CpuArchFlags("")[0], ::testing::AnyOf(HasSubstr("=native"), HasSubstr("rv64g")));
}

TEST(CpuTargetTest, IsaFlagsOfALevelIncludeTheLevelsBelow) {
  EXPECT_FALSE(CpuTargetIsaFlags("").has_value());
  EXPECT_FALSE(CpuTargetIsaFlags("x86-64-v9").has_value());
  std::optional<std::vector<std::string>> v3 = CpuTargetIsaFlags("x86-64-v3");
  ASSERT_TRUE(v3.has_value());
  EXPECT_TRUE(std::is_sorted(v3->begin(), v3->end()));
  for (const char* f : {"sse2", "sse4_2", "avx", "avx2", "fma", "f16c"})
    EXPECT_THAT(*v3, ::testing::Contains(f)) << f;
  EXPECT_THAT(*v3, ::testing::Not(::testing::Contains("avx512f")));
  std::optional<std::vector<std::string>> v4 = CpuTargetIsaFlags("x86-64-v4");
  ASSERT_TRUE(v4.has_value());
  for (const char* f : {"avx2", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"})
    EXPECT_THAT(*v4, ::testing::Contains(f)) << f;
  EXPECT_THAT(*v4, ::testing::Not(::testing::Contains("avx512_vnni")));  // not part of v4
}

}  // namespace
}  // namespace tg
