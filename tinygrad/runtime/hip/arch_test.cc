// File: tinygrad/runtime/hip/arch_test.cc
#include "tinygrad/runtime/hip/arch.h"

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(AmdGpuTargetTest, ParsesProcessorsAndFeatures) {
  absl::StatusOr<AmdGpuTarget> t = ParseAmdGpuTarget("gfx90a:sramecc+:xnack-");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->processor, "gfx90a");
  EXPECT_EQ(t->features, (std::vector<std::string>{"sramecc+", "xnack-"}));
  EXPECT_EQ(t->name(), "gfx90a:sramecc+:xnack-");
  EXPECT_EQ(t->IsaName(), "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
  EXPECT_EQ(t->id(), "90a");
  EXPECT_EQ(t->major(), 9);
  EXPECT_TRUE(t->wave64());
}

TEST(AmdGpuTargetTest, GenerationsAndWaveSizes) {
  struct Case {
    const char* name;
    int major;
    bool wave64;
  };
  for (const Case& c : {Case{"gfx803", 8, true}, Case{"gfx942", 9, true}, Case{"gfx950", 9, true},
                        Case{"gfx1030", 10, false}, Case{"gfx1100", 11, false},
                        Case{"gfx1201", 12, false}}) {
    absl::StatusOr<AmdGpuTarget> t = ParseAmdGpuTarget(c.name);
    ASSERT_TRUE(t.ok()) << c.name << ": " << t.status();
    EXPECT_EQ(t->major(), c.major) << c.name;
    EXPECT_EQ(t->wave64(), c.wave64) << c.name;
    EXPECT_EQ(t->name(), c.name);
  }
}

TEST(AmdGpuTargetTest, RejectsWhatIsNotATarget) {
  for (const char* bad : {"", "gfx", "sm_90", "gfx11", "gfx11000", "gfxabc", "gfx0900", "GFX1100",
                          "gfx1100:", "gfx90a:xnack", "gfx90a:XNACK+", "gfx1100 "}) {
    absl::StatusOr<AmdGpuTarget> t = ParseAmdGpuTarget(bad);
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << "'" << bad << "'";
    if (!t.ok()) {
      EXPECT_NE(t.status().message().find(bad), std::string::npos) << t.status();
    }
  }
}

}  // namespace
}  // namespace tg
