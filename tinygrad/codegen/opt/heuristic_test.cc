// File: tinygrad/codegen/opt/heuristic_test.cc
// HandCodedOptimizations against the reference: testdata/heuristic_opts.txt holds, for every
// codegen kernel of ~60 Tensor programs, the AST apply_opts receives and the opts the reference's
// hand_coded_optimizations applies, on ClangRenderer (THREADS=1, CPU_COUNT=2) and
// CUDARenderer("sm_89"), and under five settings variants (NOLOCALS, TC_OPT=2, TC=2, TC=0,
// THREADS=0); testdata/heuristic_c.txt the C source of a few CPU kernels compiled
// end to end with the heuristic on (tools/golden/gen_heuristic_goldens.py writes both).
#include "tinygrad/codegen/opt/heuristic.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/ast_text.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/opt/test_renderers.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/clang.h"

namespace tg {
namespace {

struct GoldenKernel {
  std::string renderer;  // "cpu" or "cuda"
  std::string name;      // "<case> <kernel index>"
  std::vector<std::string> ast;
  std::vector<std::string> opts;  // the reference's Opt reprs
};

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "missing " << path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("#")) lines.push_back(line);
  return lines;
}

struct Variant {
  std::string name;
  std::string base;                   // "cpu" or "cuda"
  std::vector<std::string> settings;  // "NOLOCALS=1", ...
};

struct Goldens {
  std::vector<GoldenKernel> kernels;
  std::vector<Variant> variants;
};

// Kernel blocks, and renderer variants whose blocks say `ast-of <base>` instead of AST lines.
Goldens LoadOpts() {
  std::vector<std::string> lines = ReadLines("tinygrad/codegen/opt/testdata/heuristic_opts.txt");
  Goldens out;
  std::map<std::string, std::vector<std::string>> base_asts;  // "<renderer> <case> <index>"
  for (size_t i = 0; i < lines.size();) {
    std::vector<std::string> head = absl::StrSplit(lines[i++], ' ');
    if (head[0] == "variant") {
      EXPECT_GE(head.size(), 3u) << lines[i - 1];
      out.variants.push_back({head.at(1), head.at(2), std::vector<std::string>(head.begin() + 3, head.end())});
      continue;
    }
    EXPECT_EQ(head.size(), 4u) << lines[i - 1];
    if (head.size() != 4) return out;
    GoldenKernel g{head[1], head[2] + " " + head[3], {}, {}};
    while (i < lines.size() && !lines[i].starts_with("opts ")) g.ast.push_back(lines[i++]);
    if (g.ast.size() == 1 && g.ast[0].starts_with("ast-of ")) {
      g.ast = base_asts[g.ast[0].substr(7) + " " + g.name];
      EXPECT_FALSE(g.ast.empty()) << head[1] << " " << g.name;
    } else {
      base_asts[g.renderer + " " + g.name] = g.ast;
    }
    int n = std::stoi(lines.at(i++).substr(5));
    for (int j = 0; j < n; ++j) g.opts.push_back(lines.at(i++));
    EXPECT_EQ(lines.at(i++), "end");
    out.kernels.push_back(std::move(g));
  }
  return out;
}

// THREADS=1 and CPU_COUNT=2, as the goldens were generated; the heuristic's own settings at
// their defaults.
Config GoldenConfig() {
  Config c = GetConfig();
  c.threads = 1;
  c.cpu_count = 2;
  c.noopt = false;
  c.beam = 0;
  c.tc = 1;
  c.tc_select = -1;
  c.tc_opt.reset();
  c.nolocals = false;
  return c;
}

// Runs the heuristic on every golden kernel of `renderer`; returns how many matched.
int CheckRenderer(const std::string& renderer, const Renderer& ren, const CodegenOptions& options, int* total) {
  int matched = 0;
  *total = 0;
  for (const GoldenKernel& g : LoadOpts().kernels) {
    if (g.renderer != renderer) continue;
    ++*total;
    SCOPED_TRACE(renderer + " " + g.name);
    UOp ast = ParseAst(g.ast);
    if (!ast) continue;
    Scheduler k(ast, ren, options);
    k.ConvertLoopToGlobal();
    absl::StatusOr<Scheduler> opt = HandCodedOptimizations(k);
    EXPECT_TRUE(opt.ok()) << opt.status();
    if (!opt.ok()) continue;
    std::vector<std::string> got;
    for (const Opt& o : opt->applied_opts()) got.push_back(o.ToString());
    EXPECT_EQ(absl::StrJoin(got, "\n"), absl::StrJoin(g.opts, "\n"));
    // the input Scheduler is left as it was
    EXPECT_TRUE(k.applied_opts().empty());
    if (got == g.opts) ++matched;
  }
  return matched;
}

TEST(HandCodedOptimizations, MatchesReferenceOnClang) {
  Config c = GoldenConfig();
  ClangRenderer ren(CpuRendererOptions::FromConfig(c));
  int total = 0;
  int matched = CheckRenderer("cpu", ren, CodegenOptions::FromConfig(c), &total);
  EXPECT_GT(total, 80);
  EXPECT_EQ(matched, total);
  std::printf("clang: %d/%d kernels match the reference's opts\n", matched, total);
}

TEST(HandCodedOptimizations, MatchesReferenceOnCuda) {
  int total = 0;
  int matched = CheckRenderer("cuda", CudaLikeRenderer(), CodegenOptions::FromConfig(GoldenConfig()), &total);
  EXPECT_GT(total, 80);
  EXPECT_EQ(matched, total);
  std::printf("cuda: %d/%d kernels match the reference's opts\n", matched, total);
}

// The heuristic's settings: NOLOCALS, TC_OPT, TC (USE_TC) and THREADS (ClangRenderer's
// has_threads) as the reference reads them.
TEST(HandCodedOptimizations, MatchesReferenceUnderSettingVariants) {
  std::vector<Variant> variants = LoadOpts().variants;
  EXPECT_EQ(variants.size(), 5u);
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.name);
    Config c = GoldenConfig();
    for (const std::string& kv : v.settings) {
      std::vector<std::string> p = absl::StrSplit(kv, '=');
      ASSERT_EQ(p.size(), 2u) << kv;
      int val = std::stoi(p[1]);
      if (p[0] == "NOLOCALS") c.nolocals = val != 0;
      else if (p[0] == "TC_OPT") c.tc_opt = val;
      else if (p[0] == "TC") c.tc = val;
      else if (p[0] == "THREADS") c.threads = val;
      else FAIL() << "unknown setting " << kv;
    }
    ClangRenderer clang(CpuRendererOptions::FromConfig(c));
    const Renderer& ren = v.base == "cpu" ? static_cast<const Renderer&>(clang) : CudaLikeRenderer();
    int total = 0;
    int matched = CheckRenderer(v.name, ren, CodegenOptions::FromConfig(c), &total);
    EXPECT_GT(total, 80);
    EXPECT_EQ(matched, total);
    std::printf("%s: %d/%d kernels match the reference's opts\n", v.name.c_str(), matched, total);
  }
}

// The whole pipeline with the heuristic wired into ApplyOpts renders the reference's C.
TEST(HandCodedOptimizations, GetProgramRendersReferenceC) {
  Config c = GoldenConfig();
  ClangRenderer ren(CpuRendererOptions::FromConfig(c));
  const CodegenOptions options = CodegenOptions::FromConfig(c);
  std::vector<std::string> lines = ReadLines("tinygrad/codegen/opt/testdata/heuristic_c.txt");
  int n = 0;
  for (size_t i = 0; i < lines.size();) {
    std::string head = lines[i++];
    ASSERT_TRUE(head.starts_with("csrc ")) << head;
    std::vector<std::string> ast_lines;
    while (i < lines.size() && !lines[i].starts_with("src ")) ast_lines.push_back(lines[i++]);
    int nsrc = std::stoi(lines.at(i++).substr(4));
    std::vector<std::string> src(lines.begin() + static_cast<long>(i), lines.begin() + static_cast<long>(i) + nsrc);
    i += static_cast<size_t>(nsrc);
    ASSERT_EQ(lines.at(i++), "end");
    SCOPED_TRACE(head);
    ResetKernelNameCounts();
    absl::StatusOr<ProgramSpec> p = GetProgram(ParseAst(ast_lines), ren, options);
    ASSERT_TRUE(p.ok()) << p.status();
    std::string got = p->src;
    while (!got.empty() && got.back() == '\n') got.pop_back();
    EXPECT_EQ(got, absl::StrJoin(src, "\n"));
    ++n;
  }
  EXPECT_EQ(n, 4);
}

// A kernel without ranges whose stores index with int32 constants (as the reference's
// test_uops.py builds them): on a GPU the local-groups step has no axis to rank, and the
// reference never reads a buffer's index (get_idx would assert: it is not an index dtype).
TEST(HandCodedOptimizations, GpuKernelWithoutRangesAndInt32Indexes) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(2), {}, int64_t{0});
  std::vector<UOp> stores;
  for (int i = 0; i < 2; ++i)
    stores.push_back(buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, i)}).store(UOp::Const(dtypes::float32, 1.5)));
  Scheduler k(UOp::Sink(stores), CudaLikeRenderer(), CodegenOptions{});
  k.ConvertLoopToGlobal();
  absl::StatusOr<Scheduler> opt = HandCodedOptimizations(k);
  ASSERT_TRUE(opt.ok()) << opt.status();
  EXPECT_TRUE(opt->applied_opts().empty());
}

}  // namespace
}  // namespace tg
