// File: tinygrad/renderer/llvm/llvmir_test.cc
// Golden tests of LLVMRenderer: every testdata/<case>.uops (a linear program from the reference
// tinygrad) renders exactly testdata/<case>.ll, and every <case>.ast (the kernel AST, optimized
// by the reference for opt_* cases) lowered by our GetProgram with an LLVMRenderer under NOOPT
// renders it too. Regenerate with tools/golden/gen_llvm_golden.py.
#include "tinygrad/renderer/llvm/llvmir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/ast_text.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/llvm/testdata";

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> CaseNames(const std::string& ext) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kTestdata))
    if (e.path().extension() == ext) names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string Path(const std::string& name, const std::string& ext) {
  return std::string(kTestdata) + "/" + name + ext;
}

// The reference's text (opaque-pointer semantics, see llvmir.h).
LLVMRenderer ReferenceRenderer() {
  LLVMRenderer ren;
  ren.llvm14 = false;
  ren.has_threads = false;
  ren.global_max = std::nullopt;
  return ren;
}

class LlvmRenderGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LlvmRenderGoldenTest, RendersLikeTinygrad) {
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(ReadFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(uops.ok()) << uops.status();
  EXPECT_EQ(ReferenceRenderer().Render(*uops), ReadFile(Path(GetParam(), ".ll")));
}

INSTANTIATE_TEST_SUITE_P(Goldens, LlvmRenderGoldenTest, ::testing::ValuesIn(CaseNames(".uops")),
                         [](const auto& info) { return info.param; });

std::string Normalize(const std::string& src) {
  static const std::regex kName("^(define void @[A-Za-z0-9_]+?)n[0-9]+\\(");
  static const std::regex kNegZero(" -0\\.0\\b");
  return std::regex_replace(std::regex_replace(src, kName, "$1("), kNegZero, " 0.0");
}

class LlvmPipelineGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LlvmPipelineGoldenTest, LowersAndRendersLikeTinygrad) {
  if (!std::filesystem::exists(Path(GetParam(), ".ll")))
    GTEST_SKIP() << "no reference IR (thr_*: the reference LLVMRenderer has no threads)";
  std::vector<std::string> lines;
  for (const std::string& l : std::vector<std::string>(absl::StrSplit(ReadFile(Path(GetParam(), ".ast")), '\n')))
    if (!l.empty() && l[0] != '#') lines.emplace_back(l);
  UOp ast = ParseAst(lines);
  ASSERT_TRUE(static_cast<bool>(ast));
  absl::StatusOr<ProgramSpec> p = GetProgram(ast, ReferenceRenderer(), CodegenOptions{.noopt = true});
  ASSERT_TRUE(p.ok()) << p.status();
  // Kernel names get a process-wide dedup suffix ("E_16n3") that depends on what else the
  // process lowered, and a -0.0 CONST is the same interned node as 0.0 (equal args; Python's
  // UOp cache keeps whichever is alive first): compare without either.
  EXPECT_EQ(Normalize(p->src), Normalize(ReadFile(Path(GetParam(), ".ll"))));
}

INSTANTIATE_TEST_SUITE_P(Goldens, LlvmPipelineGoldenTest, ::testing::ValuesIn(CaseNames(".ast")),
                         [](const auto& info) { return info.param; });

TEST(LlvmRendererTest, Capabilities) {
  Config c;
  c.threads = 1;
  c.cpu_count = 12;
  LLVMRenderer ren(CpuRendererOptions::FromConfig(c));
  EXPECT_EQ(ren.device, "CPU");
  EXPECT_FALSE(ren.has_local);
  EXPECT_TRUE(ren.has_threads);
  ASSERT_TRUE(ren.global_max.has_value());
  EXPECT_EQ((*ren.global_max)[0], 12);
  c.threads = 0;
  EXPECT_FALSE(LLVMRenderer(CpuRendererOptions::FromConfig(c)).has_threads);
  EXPECT_TRUE(ren.code_for_op.contains(Ops::FDIV));
  EXPECT_TRUE(ren.code_for_op.contains(Ops::CMPLT));
  EXPECT_FALSE(ren.code_for_op.contains(Ops::SQRT));
}

// LLVM 14 mode: a bitcast for a pointer CAST that changes the type, element allocas, mangled and
// declared intrinsics; everything else as the reference. Dropping the bitcasts (uses renamed back
// to their source) and declarations, and normalizing allocas and intrinsic names gives the
// reference's text.
std::string Untype(const std::string& ir, int* bitcasts) {
  static const std::regex kCast("  (%cast[0-9]+) = bitcast [^%]*(%[A-Za-z0-9_]+) to [^\n]*");
  static const std::regex kAlloca(" = alloca .*");
  static const std::regex kTrunc("@llvm\\.trunc\\.[a-z0-9]+\\(");
  std::vector<std::string> out;
  std::vector<std::pair<std::string, std::string>> renames;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(ir, '\n'))) {
    std::smatch m;
    if (std::regex_match(line, m, kCast)) {
      renames.emplace_back(m[1].str() + ",", m[2].str() + ",");
      renames.emplace_back(m[1].str() + "\n", m[2].str() + "\n");
      ++*bitcasts;
      continue;
    }
    if (line.starts_with("declare ")) continue;
    out.push_back(std::regex_replace(std::regex_replace(line, kAlloca, " = alloca"), kTrunc,
                                     "@llvm.trunc.("));
  }
  std::string joined = absl::StrJoin(out, "\n") + "\n";
  for (const auto& [from, to] : renames) joined = absl::StrReplaceAll(joined, {{from, to}});
  return joined;
}

TEST(LlvmRendererTest, TypedPointersOnlyAddBitcastsAndElementAllocas) {
  for (const std::string name :
       {"lin_vector", "lin_control", "opt_hco_matmul_relu", "opt_half4", "lin_alu_float"}) {
    SCOPED_TRACE(name);
    absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(ReadFile(Path(name, ".uops")));
    ASSERT_TRUE(uops.ok()) << uops.status();
    int typed_casts = 0, ref_casts = 0;
    EXPECT_EQ(Untype(LLVMRenderer().Render(*uops), &typed_casts),
              Untype(ReferenceRenderer().Render(*uops), &ref_casts));
    EXPECT_EQ(ref_casts, 0);
    if (name != "lin_control" && name != "lin_alu_float") {
      EXPECT_GT(typed_casts, 0);
    }
  }
}

TEST(LlvmRendererTest, TypesConstsCasts) {
  EXPECT_EQ(Ldt(dtypes::float32.vec(4)), "<4 x float>");
  EXPECT_EQ(Ldt(dtypes::float32.vec(4).ptr(16)), "<4 x float>*");
  EXPECT_EQ(Ldt(dtypes::bool_), "i1");
  EXPECT_EQ(Ldt(dtypes::bfloat16), "bfloat");
  EXPECT_EQ(LConst(ConstValue(1.0), dtypes::float32), "1.0");
  EXPECT_EQ(LConst(ConstValue(0.1), dtypes::float32), "0.10000000149011612");
  EXPECT_EQ(LConst(ConstValue(-INFINITY), dtypes::float16), "0xFFF0000000000000");
  EXPECT_EQ(LConst(ConstValue(NAN), dtypes::float64), "0x7FF8000000000000");
  EXPECT_EQ(LConst(ConstValue(true), dtypes::bool_), "1");
  EXPECT_EQ(LConst(ConstValue(int64_t{-5}), dtypes::int64), "-5");
  EXPECT_EQ(LCast(dtypes::float32, dtypes::float16), "fptrunc");
  EXPECT_EQ(LCast(dtypes::uint8, dtypes::float32), "uitofp");
  EXPECT_EQ(LCast(dtypes::bool_, dtypes::int32), "zext");
  EXPECT_EQ(LCast(dtypes::int64, dtypes::int8), "trunc");
  EXPECT_EQ(LCast(dtypes::float64, dtypes::uint32), "fptoui");
}

}  // namespace
}  // namespace tg
