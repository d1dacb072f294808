// File: tinygrad/codegen/pipeline_stages_test.cc
// Per-pass golden test of FullRewriteToSink: the kernel graph after every graph_rewrite, against
// the reference's full_rewrite_to_sink on the same AST (testdata/pipeline_stages.txt, from
// tools/golden/gen_codegen_stages.py). A difference in a final program (pipeline_golden_test)
// shows up here at the pass that made it.
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/codegen/ast_text.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {


TEST(PipelineStagesTest, EveryPassMatchesTheReference) {
  const CodegenOptions codegen{.noopt = true};
  // the renderers and ASTs of pipeline_noopt.txt
  std::map<std::string, GoldenRenderer> renderers;
  std::map<std::string, std::vector<std::string>> asts;
  std::vector<std::string>* ast = nullptr;
  for (const std::string& line : ReadGoldenLines("tinygrad/codegen/testdata/pipeline_noopt.txt")) {
    std::vector<std::string> w = absl::StrSplit(line, ' ');
    if (ast != nullptr) {
      if (line == "end") {
        ast = nullptr;
      } else {
        ast->push_back(line);
      }
    } else if (w[0] == "ast") {
      ast = &asts[w[1] + " " + w[2]];
    } else if (w[0] == "renderer") {
      GoldenRenderer& r = renderers[w[1]];
      r.device = w[2];
      r.has_local = w[3] == "1";
      r.global_max = ParseLaunchDims(w[4]);
      r.local_max = ParseLaunchDims(w[5]);
      for (const std::string& op : std::vector<std::string>(absl::StrSplit(w[6], ','))) {
        Ops o;
        ASSERT_TRUE(OpFromName(op, &o)) << op;
        r.code_for_op.Add(o);
      }
    }
  }
  // kernel -> [(stage name, graph lines)]
  struct Kernel {
    std::string renderer, ast;
    std::vector<std::pair<std::string, std::vector<std::string>>> stages;
  };
  std::vector<Kernel> kernels;
  for (const std::string& line : ReadGoldenLines("tinygrad/codegen/testdata/pipeline_stages.txt")) {
    std::vector<std::string> w = absl::StrSplit(line, ' ');
    if (w[0] == "kernel") {
      kernels.push_back(Kernel{.renderer = w[1], .ast = w[2] + " " + w[3]});
    } else if (w[0] == "stage") {
      kernels.back().stages.emplace_back(line.substr(6), std::vector<std::string>{});
    } else if (w[0] != "end") {
      kernels.back().stages.back().second.push_back(line);
    }
  }
  ASSERT_GE(kernels.size(), 8u);
  for (const Kernel& k : kernels) {
    SCOPED_TRACE(k.renderer + " " + k.ast);
    ResetKernelNameCounts();
    UOp sink = ParseAst(asts[k.ast]);
    ASSERT_TRUE(sink);
    if (sink.arg().is_none()) sink = sink.replace_arg(KernelInfo{}.ToArg());
    std::vector<std::pair<std::string, std::vector<std::string>>> got;
    ASSERT_TRUE(FullRewriteToSinkTraced(sink, renderers.at(k.renderer), sink.tag().is_none(), codegen,
                                        [&](std::string_view name, const UOp& s) {
                                          got.emplace_back(std::string(name), DumpAst(s));
                                        })
                    .ok());
    ASSERT_EQ(got.size(), k.stages.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].first, k.stages[i].first);
      const auto &g = got[i].second, &w = k.stages[i].second;
      size_t diff = 0;
      while (diff < g.size() && diff < w.size() && g[diff] == w[diff]) ++diff;
      if (diff < g.size() || diff < w.size()) {
        ADD_FAILURE() << "pass '" << got[i].first << "' differs first at node " << diff << "\n  want: "
                      << (diff < w.size() ? w[diff] : "<end>") << "\n  got:  " << (diff < g.size() ? g[diff] : "<end>");
        break;  // later passes differ because this one does
      }
    }
  }
}

}  // namespace
}  // namespace tg
