// File: tinygrad/emulator/emulator_golden_test.cc
// Golden tests of the code generator for the emulator's renderer (testdata/ from
// tools/golden/gen_emulator_golden.py): every <case>.ast (a scheduled kernel AST) lowered by our
// GetProgram with EmulatorRenderer(the case's EMULATE target), under the same opts (the
// reference's hand-coded optimizer's choice, or the listed ones, TC opts included), applies the
// reference's opts, makes exactly the reference PythonRenderer's linear program (<case>.uops) and
// the same launch sizes (<case>.launch). The emulator runs that program as it is, so a mismatch
// here is a kernel the emulator would run differently from the reference's.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/emulator/emulator_renderer.h"
#include "tinygrad/renderer/c/golden_cases.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/render.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/emulator/testdata";
// The generator writes the EMULATE value as the meta's arch: "EMULATE=CUDA", "EMULATE=".
constexpr std::string_view kArchPrefix = "EMULATE=";

std::string Path(const std::string& name, const std::string& ext) {
  return std::string(kTestdata) + "/" + name + ext;
}

// The program without the process-wide dedup suffix of the kernel's name (the SINK's arg
// ('KernelInfo', 'E_16n3', ...) -> ('KernelInfo', 'E_16', ...)), which depends on what else the
// process lowered.
std::string WithoutKernelNameSuffix(const std::string& program) {
  static const std::regex kName("('KernelInfo', '[A-Za-z0-9_]+?)n[0-9]+'");
  return std::regex_replace(program, kName, "$1'");
}

// A launch size as the reference renders it: ours casts a symbolic size (the int expression of
// the SPECIAL's bound) to index, the reference keeps the int expression; same value.
std::string SizeText(const UOp& s) {
  if (s.op() == Ops::CONST) return s.arg().repr();
  return Render(s.op() == Ops::CAST && s.dtype() == dtypes::index ? s.src(0) : s);
}

// As the generator writes <case>.launch.
std::string LaunchText(const ProgramSpec& p) {
  std::vector<std::string> g, l;
  for (const UOp& s : p.global_size) g.push_back(SizeText(s));
  if (p.local_size) {
    for (const UOp& s : *p.local_size) l.push_back(SizeText(s));
  }
  return absl::StrCat("global ", absl::StrJoin(g, " "), "\nlocal ",
                      p.local_size ? absl::StrJoin(l, " ") : "None", "\n");
}

std::string WithoutComments(const std::string& text) {
  std::string out;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(text, '\n')))
    if (!line.empty() && line[0] != '#') absl::StrAppend(&out, line, "\n");
  return out;
}

class EmulatorPipelineGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EmulatorPipelineGoldenTest, LowersToTheReferencesLinearProgram) {
  GoldenMeta meta = ReadGoldenMeta(Path(GetParam(), ".meta"));
  ASSERT_TRUE(meta.arch.starts_with(kArchPrefix)) << "arch " << meta.arch;
  absl::StatusOr<EmulateTarget> target =
      ParseEmulateTarget(std::string_view(meta.arch).substr(kArchPrefix.size()));
  ASSERT_TRUE(target.ok()) << target.status();
  UOp ast = ReadGoldenAst(Path(GetParam(), ".ast"));
  ASSERT_TRUE(static_cast<bool>(ast));
  absl::StatusOr<std::vector<UOp>> want =
      ParseLinearProgram(ReadGoldenFile(Path(GetParam(), ".uops")));
  ASSERT_TRUE(want.ok()) << want.status();

  absl::StatusOr<ProgramSpec> p = GetProgram(GoldenAstWithOpts(ast, meta),
                                             EmulatorRenderer(*target), GoldenCodegenOptions(meta));
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<std::string> want_opts, got_opts;
  for (const Arg& a : meta.applied) want_opts.push_back(a.repr());
  for (const Arg& a : p->applied_opts) got_opts.push_back(a.repr());
  EXPECT_EQ(absl::StrJoin(got_opts, " "), absl::StrJoin(want_opts, " "));
  // the renderer's source is the program as text
  EXPECT_EQ(p->src, FormatLinearProgram(p->uops));
  // the golden's SINK holds only the kernel's function name (the KernelInfo's name without
  // colors; its opts are compared above): compare ours the same way, both in our format
  std::vector<UOp> got = p->uops;
  ASSERT_TRUE(!got.empty() && got.back().op() == Ops::SINK);
  got.back() = got.back().replace_arg(KernelInfo{.name = p->function_name}.ToArg());
  EXPECT_EQ(WithoutKernelNameSuffix(FormatLinearProgram(got)),
            WithoutKernelNameSuffix(FormatLinearProgram(*want)));
  EXPECT_EQ(LaunchText(*p), WithoutComments(ReadGoldenFile(Path(GetParam(), ".launch"))));
}

INSTANTIATE_TEST_SUITE_P(Goldens, EmulatorPipelineGoldenTest,
                         ::testing::ValuesIn(GoldenCaseNames(kTestdata, ".ast")),
                         [](const auto& info) { return info.param; });

TEST(EmulatorGoldenTest, EveryTargetHasCases) {
  // a generator run that silently lost a target's cases (the reference failing on it) shows here
  std::vector<std::string> names = GoldenCaseNames(kTestdata, ".ast");
  for (std::string_view prefix :
       {"py_pipe_", "cuda_pipe_", "opts_py_", "opts_cuda_", "tc_cuda_0_", "tc_cuda_5_",
        "tc_cuda_sm75_", "tc_cuda_sm89_6_", "tc_amd_0_", "tc_amd_rdna4_", "tc_amd_mfma_",
        "tc_metal_", "tc_intel_", "tc_amx_0_"}) {
    bool found = false;
    for (const std::string& n : names) found = found || n.starts_with(prefix);
    EXPECT_TRUE(found) << "no case named " << prefix << "*";
  }
}

}  // namespace
}  // namespace tg
