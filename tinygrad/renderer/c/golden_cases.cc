// File: tinygrad/renderer/c/golden_cases.cc (testonly)
#include "tinygrad/renderer/c/golden_cases.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/ast_text.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {

std::string ReadGoldenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> GoldenCaseNames(const std::string& dir, const std::string& ext) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ext) names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

GoldenMeta ReadGoldenMeta(const std::string& path) {
  GoldenMeta m;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(ReadGoldenFile(path), '\n'))) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> kv = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.size() != 2) {
      ADD_FAILURE() << path << ": bad line " << line;
      continue;
    }
    if (kv[0] == "arch") {
      m.arch = kv[1];
    } else if (kv[0] == "opts") {
      m.heuristic = kv[1] == "heuristic";
    } else if (kv[0] == "applied") {
      absl::StatusOr<Arg> a = ParseArgText(kv[1]);
      EXPECT_TRUE(a.ok() && a->is_tuple()) << path << ": " << a.status();
      if (a.ok() && a->is_tuple()) m.applied.assign(a->tuple().begin(), a->tuple().end());
    } else if (kv[0] == "allow_tf32") {
      m.allow_tf32 = kv[1] == "1";
    } else {
      ADD_FAILURE() << path << ": unknown line " << line;
    }
  }
  EXPECT_FALSE(m.arch.empty()) << path << ": no arch";
  return m;
}

UOp ReadGoldenAst(const std::string& path) {
  std::vector<std::string> lines;
  for (const std::string& l : std::vector<std::string>(absl::StrSplit(ReadGoldenFile(path), '\n')))
    if (!l.empty() && l[0] != '#') lines.emplace_back(l);
  return ParseAst(lines);
}

UOp GoldenAstWithOpts(const UOp& ast, const GoldenMeta& meta) {
  if (meta.heuristic) return ast;
  // get_program asserts that a kernel given opts has no KernelInfo yet
  EXPECT_TRUE(ast.arg().is_none()) << "opts given to a kernel with a KernelInfo";
  KernelInfo ki;
  ki.opts_to_apply = meta.applied;
  return ast.replace_arg(ki.ToArg());
}

CodegenOptions GoldenCodegenOptions(const GoldenMeta& meta) {
  CodegenOptions o;
  o.allow_tf32 = meta.allow_tf32;
  return o;
}

std::string WithoutKernelNameSuffix(const std::string& src) {
  // the kernel's line is the one that opens its body: "<typedef> name(params) {", or in PTX the
  // one that declares the entry: ".visible .entry name ("
  static const std::regex kName("^(.* [A-Za-z0-9_]+?)n[0-9]+(\\(.*\\) \\{)$");
  static const std::regex kPtxEntry("^(\\.visible \\.entry [A-Za-z0-9_]+?)n[0-9]+( \\()$");
  std::vector<std::string> lines = absl::StrSplit(src, '\n');
  for (std::string& l : lines) l = std::regex_replace(std::regex_replace(l, kName, "$1$2"), kPtxEntry, "$1$2");
  return absl::StrJoin(lines, "\n");
}

void ExpectLowersLikeGolden(const std::string& dir, const std::string& name, const std::string& source_ext,
                            const std::function<std::unique_ptr<Renderer>(const std::string& arch)>& renderer_for) {
  const std::string stem = dir + "/" + name;
  GoldenMeta meta = ReadGoldenMeta(stem + ".meta");
  UOp ast = ReadGoldenAst(stem + ".ast");
  ASSERT_TRUE(static_cast<bool>(ast));
  std::unique_ptr<Renderer> ren = renderer_for(meta.arch);
  absl::StatusOr<ProgramSpec> p = GetProgram(GoldenAstWithOpts(ast, meta), *ren, GoldenCodegenOptions(meta));
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<std::string> want, got;
  for (const Arg& a : meta.applied) want.push_back(a.repr());
  for (const Arg& a : p->applied_opts) got.push_back(a.repr());
  EXPECT_EQ(absl::StrJoin(got, " "), absl::StrJoin(want, " "));
  EXPECT_EQ(WithoutKernelNameSuffix(p->src), WithoutKernelNameSuffix(ReadGoldenFile(stem + source_ext)));
}

}  // namespace tg
