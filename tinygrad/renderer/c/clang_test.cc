// File: tinygrad/renderer/c/clang_test.cc
// Golden tests of ClangRenderer: every testdata/<case>.uops (a linear program from the reference
// tinygrad) must render exactly testdata/<case>.c, and every golden source must compile with
// clang. Regenerate the goldens with tools/golden/gen_clang_golden.py.
#include "tinygrad/renderer/c/clang.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/renderer/c/float_patterns.h"
#include "tinygrad/renderer/c/uops_text.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/c/testdata";

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kTestdata))
    if (e.path().extension() == ".uops") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Config TestConfig() {
  Config c;
  c.threads = 1;
  c.cpu_count = 8;
  return c;
}

class ClangGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ClangGoldenTest, RendersLikeTinygrad) {
  std::filesystem::path base = std::filesystem::path(kTestdata) / GetParam();
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearUOps(ReadFile(base.string() + ".uops"));
  ASSERT_TRUE(uops.ok()) << uops.status();
  ClangRenderer ren(TestConfig());
  EXPECT_EQ(ren.Render(*uops), ReadFile(base.string() + ".c"));
}

std::string TmpDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp ? tmp : "/tmp";
}

// Compiles `src_path` with tinygrad's CPU flags; true on success.
bool ClangCompiles(const std::string& src_path, const std::string& name) {
  std::string cmd = "clang -c -x c -O2 -fPIC -ffreestanding -fno-math-errno -nostdlib -fno-ident "
                    "-Werror=implicit-function-declaration " + src_path + " -o " + TmpDir() +
                    "/" + name + ".o 2>&1";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

// clang < 15 has no __bf16 on x86 (tinygrad's own CI uses a newer clang).
bool ClangHasBf16() {
  static const bool kHas = [] {
    std::string path = TmpDir() + "/bf16_probe.c";
    std::ofstream(path) << "void f(__bf16* p, float* q) { *q = (float)(*p); }\n";
    return ClangCompiles(path, "bf16_probe");
  }();
  return kHas;
}

TEST_P(ClangGoldenTest, GoldenSourceCompiles) {
  std::filesystem::path src = std::filesystem::path(kTestdata) / (GetParam() + ".c");
  if (ReadFile(src).find("__bf16") != std::string::npos && !ClangHasBf16())
    GTEST_SKIP() << "this clang has no __bf16";
  EXPECT_TRUE(ClangCompiles(src.string(), GetParam())) << src;
}

INSTANTIATE_TEST_SUITE_P(Goldens, ClangGoldenTest, ::testing::ValuesIn(CaseNames()),
                         [](const auto& info) { return info.param; });

TEST(ClangRendererTest, Capabilities) {
  Config c = TestConfig();
  c.threads = 0;
  c.cpu_count = 12;
  ClangRenderer ren(c);
  EXPECT_EQ(ren.device, "CPU");
  EXPECT_FALSE(ren.has_local);
  EXPECT_FALSE(ren.has_threads);
  ASSERT_TRUE(ren.global_max.has_value());
  EXPECT_EQ((*ren.global_max)[0], 12);
  EXPECT_EQ((*ren.global_max)[1], 0);
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::RECIPROCAL, Ops::MAX})
    EXPECT_FALSE(ren.code_for_op.contains(op)) << op;
  for (Ops op : {Ops::SQRT, Ops::TRUNC, Ops::FDIV, Ops::WHERE, Ops::NEG})
    EXPECT_TRUE(ren.code_for_op.contains(op)) << op;
  EXPECT_EQ(ren.extra_matcher, &ClangExtraMatcher());
}

TEST(ClangRendererTest, StripParens) {
  EXPECT_EQ(StripParens("(a+b)"), "a+b");
  EXPECT_EQ(StripParens("(a)+(b)"), "(a)+(b)");
  EXPECT_EQ(StripParens("((a+b))"), "(a+b)");
  EXPECT_EQ(StripParens("a"), "a");
}

TEST(ClangRendererTest, FormatCustom) {
  std::vector<std::string> args{"x", "y"};
  EXPECT_EQ(FormatCustom("f({0}, {1}) {{}}", args), "f(x, y) {}");
  EXPECT_EQ(FormatCustom("{}+{}", args), "x+y");
}

TEST(ClangRendererTest, ExtraMatcherDevectorizesSqrtAndWhere) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.vec(4).ptr(4), {}, Arg(0));
  UOp x = buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  UOp s = x.sqrt();
  UOp r = GraphRewrite(s, ClangExtraMatcher());
  ASSERT_EQ(r.op(), Ops::VECTORIZE);
  ASSERT_EQ(r.src().size(), 4u);
  EXPECT_EQ(r.src(0).op(), Ops::SQRT);
  EXPECT_EQ(r.src(0).dtype(), dtypes::float32);
}

TEST(ClangRendererTest, ExtraMatcherBf16GoesThroughFloat) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::bfloat16.ptr(4), {}, Arg(0));
  UOp x = buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  UOp add = x + x;
  UOp r = GraphRewrite(add, ClangExtraMatcher());
  // bf16 math is float math cast back; the casts are manual bit operations
  for (const UOp& u : r.toposort()) {
    if (GroupOp::ALU.contains(u.op())) {
      EXPECT_NE(u.dtype(), dtypes::bfloat16) << u.op();
    }
    if (u.op() == Ops::CAST) {
      EXPECT_NE(u.dtype(), dtypes::bfloat16);
      EXPECT_NE(u.src(0).dtype(), dtypes::bfloat16);
    }
  }
}

}  // namespace
}  // namespace tg
