// File: tinygrad/runtime/cpu/cpu_target_compile_test.cc
// The CPU compilers for a named target (cpu_target.h): their flags, their identity (a cache key
// part), the vector registers the code uses, and errors for an unknown target. Compiling for a
// level needs no CPU that has it; only running it does.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cpu/clang_inprocess.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/cpu_target.h"
#include "tinygrad/runtime/cpu/disassembler.h"
#include "tinygrad/runtime/cpu/llvm_compiler.h"

namespace tg {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// 16 floats added as one vector: one zmm register with AVX-512, two ymm without.
constexpr char kVectorAdd[] = R"(typedef float float16 __attribute__((aligned(64),ext_vector_type(16)));
void vadd(float16* restrict out, const float16* restrict a, const float16* restrict b) { *out = *a + *b; }
)";

constexpr char kVectorAddIr[] = R"(define void @vadd(<16 x float>* noalias %o, <16 x float>* noalias %a, <16 x float>* noalias %b) {
  %x = load <16 x float>, <16 x float>* %a
  %y = load <16 x float>, <16 x float>* %b
  %z = fadd <16 x float> %x, %y
  store <16 x float> %z, <16 x float>* %o
  ret void
}
)";

bool IsX86() { return CpuArchFlags("") == std::vector<std::string>{"-march=native"}; }

// The x86-64-v3 object's code uses ymm registers and no zmm; the x86-64-v4 one's uses zmm.
void ExpectYmmOnlyThenZmm(const absl::StatusOr<std::string>& obj3, const absl::StatusOr<std::string>& obj4) {
  ASSERT_TRUE(obj3.ok()) << obj3.status();
  ASSERT_TRUE(obj4.ok()) << obj4.status();
  absl::StatusOr<std::string> asm3 = DisassembleCpuObject(*obj3), asm4 = DisassembleCpuObject(*obj4);
  if (!asm3.ok()) GTEST_SKIP() << "no disassembler: " << asm3.status();
  ASSERT_TRUE(asm4.ok()) << asm4.status();
  EXPECT_THAT(*asm3, HasSubstr("ymm"));
  EXPECT_THAT(*asm3, Not(HasSubstr("zmm")));
  EXPECT_THAT(*asm4, HasSubstr("zmm"));
}

ClangInProcessOptions InProcess(std::string_view target) {
  ClangInProcessOptions o;
  o.flags = ClangInProcessOptions::DefaultFlags(target);
  o.cachelevel = 0;
  return o;
}

TEST(CpuTargetCompileTest, FlagsNameTheTarget) {
  EXPECT_THAT(ClangInProcessOptions::DefaultFlags("x86-64-v3"), Contains("-march=x86-64-v3"));
  EXPECT_THAT(ClangInProcessOptions::DefaultFlags("x86-64-v3"), Not(Contains("-march=native")));
  EXPECT_THAT(ClangCompilerOptions::DefaultFlags("x86-64-v4"), Contains("-march=x86-64-v4"));
  // the default is unchanged: the host's
  EXPECT_EQ(ClangInProcessOptions::DefaultFlags(), ClangInProcessOptions::DefaultFlags("native"));
  EXPECT_THAT(ClangCompilerOptions::DefaultFlags(), Contains(CpuArchFlags("")[0]));
}

TEST(CpuTargetCompileTest, InProcessClangUsesTheTargetsRegisters) {
  if (!IsX86()) GTEST_SKIP() << "x86-64 levels need an x86-64 machine";
  ClangInProcessCompiler v3(InProcess("x86-64-v3")), v4(InProcess("x86-64-v4"));
  ASSERT_TRUE(v3.init_status().ok()) << v3.init_status();
  EXPECT_NE(v3.id(), v4.id());
  EXPECT_NE(v3.id(), ClangInProcessCompiler(InProcess("")).id());
  // the driver turned the level into its CPU for -cc1
  EXPECT_THAT(v3.cc1_args(), Contains("x86-64-v3"));
  ExpectYmmOnlyThenZmm(v3.Compile(kVectorAdd), v4.Compile(kVectorAdd));
}

TEST(CpuTargetCompileTest, LlvmUsesTheTargetsCpu) {
  if (!IsX86()) GTEST_SKIP() << "x86-64 levels need an x86-64 machine";
  LlvmCompilerOptions o;
  o.cachelevel = 0;
  o.target = "x86-64-v3";
  o.features = "+avx512f";  // ignored: the level decides
  LlvmCompiler v3(o);
  EXPECT_EQ(v3.options().cpu, "x86-64-v3");
  EXPECT_EQ(v3.options().features, "");
  EXPECT_THAT(v3.id(), HasSubstr("x86-64-v3"));
  LlvmCompilerOptions host;
  host.cachelevel = 0;
  EXPECT_NE(LlvmCompiler(host).id(), v3.id());
  o.target = "x86-64-v4";
  LlvmCompiler v4(o);
  ExpectYmmOnlyThenZmm(v3.Compile(kVectorAddIr), v4.Compile(kVectorAddIr));
}

TEST(CpuTargetCompileTest, UnknownTargetIsAnErrorOfEveryCompile) {
  ClangInProcessCompiler clang(InProcess("x86-64-v9"));
  absl::StatusOr<std::string> c = clang.Compile(kVectorAdd);
  EXPECT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(), HasSubstr("x86-64-v9"));
  LlvmCompilerOptions o;
  o.cachelevel = 0;
  o.target = "x86-64-v9";
  absl::StatusOr<std::string> l = LlvmCompiler(o).Compile("define void @f() {\n  ret void\n}\n");
  EXPECT_EQ(l.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(l.status().message(), HasSubstr("unknown CPU target 'x86-64-v9'"));
}

}  // namespace
}  // namespace tg
