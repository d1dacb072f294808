// File: tinygrad/engine/cpu_inprocess_absent_test.cc
// The build without in-process compilers says so on every call instead of failing to link or
// aborting (the default build's compilers are tested through the CPU device).
#include "gtest/gtest.h"
#include "tinygrad/engine/cpu_inprocess.h"

namespace tg {
namespace {

TEST(CpuInProcessAbsentTest, EveryCallSaysTheCompilersAreNotInThisBuild) {
  EXPECT_FALSE(CpuInProcessCompilers::available());
  CpuInProcessCompilers c(CpuDeviceOptions{});
  EXPECT_NE(c.ClangId().find("not in this build"), std::string::npos);
  EXPECT_NE(c.LlvmId().find("not in this build"), std::string::npos);
  for (const absl::Status& s : {c.CompileC("int x;").status(), c.CompileLlvmIr("", "E_1").status(),
                                CpuInProcessCompilers::LoadObject("", "E_1").status()}) {
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
    EXPECT_NE(s.message().find("tg_inprocess_compilers=off"), std::string::npos) << s;
  }
}

}  // namespace
}  // namespace tg
