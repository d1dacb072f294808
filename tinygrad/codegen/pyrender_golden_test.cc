// File: tinygrad/codegen/pyrender_golden_test.cc
// PyRender (what DEBUG>=5 prints of each kernel AST) against the reference's pyrender: every
// "ast" block of testdata/pipeline_noopt.txt comes with the reference's pyrender of that AST
// as the comment block before it (tools/golden/gen_codegen_pipeline.py writes both).
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/ast_text.h"
#include "tinygrad/uop/pyrender.h"

namespace tg {
namespace {

struct Case {
  std::string name;
  std::vector<std::string> expected;  // the comment block, without "#   "
  std::vector<std::string> ast;       // the block's lines for ParseAst
};

std::vector<Case> ReadCases() {
  std::vector<Case> cases;
  std::ifstream in("tinygrad/codegen/testdata/pipeline_noopt.txt");
  EXPECT_TRUE(in.good()) << "missing testdata";
  std::string commented;  // the name of the "# ast NAME:" block being read
  std::vector<std::string> comment;
  Case* cur = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (cur != nullptr) {
      if (line == "end") {
        cur = nullptr;
      } else {
        cur->ast.push_back(line);
      }
    } else if (absl::StartsWith(line, "# ast ") && absl::EndsWith(line, ":")) {
      commented = line.substr(6, line.size() - 7);
      comment.clear();
    } else if (absl::StartsWith(line, "#   ")) {
      comment.push_back(line.substr(4));
    } else if (absl::StartsWith(line, "ast ")) {
      // only the ASTs that carry the reference's pyrender (the optimized ones do not)
      if (line.substr(4) != commented) continue;
      cases.push_back({line.substr(4), comment, {}});
      cur = &cases.back();
      commented.clear();
    }
  }
  return cases;
}

TEST(PyRenderGoldenTest, EveryKernelAstRendersAsTheReferences) {
  std::vector<Case> cases = ReadCases();
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    UOp ast = ParseAst(c.ast);
    ASSERT_TRUE(ast) << c.name;
    EXPECT_EQ(PyRender(ast), absl::StrJoin(c.expected, "\n")) << c.name;
  }
}

}  // namespace
}  // namespace tg
