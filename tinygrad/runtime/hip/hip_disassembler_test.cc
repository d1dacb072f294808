// File: tinygrad/runtime/hip/hip_disassembler_test.cc
// A gfx90a code object (comgr, or clang where comgr is missing) as GCN assembly. Skipped, with
// the reason printed, where no HIP compiler or no llvm-objdump is installed.
#include "tinygrad/runtime/hip/hip_disassembler.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/hip/hip_compiler.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

TEST(HipDisassemblerTest, ACodeObjectIsShownAsItsInstructions) {
  const HipToolchainOptions tools = HipToolchainOptions::FromEnvironment();
  absl::StatusOr<std::unique_ptr<HipCompiler>> compiler = HipCompiler::Create(tools, {.arch = "gfx90a", .cachelevel = 0});
  if (!compiler.ok()) GTEST_SKIP() << "no HIP compiler for gfx90a here: " << compiler.status();
  absl::StatusOr<std::string> code = (*compiler)->Compile(
      "extern \"C\" __attribute__((global)) void tg_twice(float* out) { out[0] = out[0] * 2.0f; }\n");
  ASSERT_TRUE(code.ok()) << code.status();
  absl::StatusOr<std::string> text = DisassembleAmdCodeObject(*code, tools);
  if (text.status().code() == absl::StatusCode::kNotFound) GTEST_SKIP() << text.status();
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("tg_twice"));
  EXPECT_THAT(*text, HasSubstr("s_endpgm")) << "every AMD kernel ends with s_endpgm";
}

}  // namespace
}  // namespace tg
