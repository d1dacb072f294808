// File: tinygrad/codegen/ast_text.cc (testonly)
#include "tinygrad/codegen/ast_text.h"

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/renderer/c/uops_text.h"

namespace tg {

UOp ParseAst(const std::vector<std::string>& lines) {
  std::vector<UOp> nodes;
  for (const std::string& line : lines) {
    std::vector<std::string> f = absl::StrSplit(line, " | ");
    EXPECT_TRUE(f.size() == 5 || f.size() == 6) << line;
    if (f.size() != 5 && f.size() != 6) return UOp();
    Arg tag;
    if (f.size() == 6) {
      EXPECT_TRUE(f[5].starts_with("tag=")) << line;
      tag = Arg(static_cast<int64_t>(std::stoll(f[5].substr(4))));
    }
    Ops op;
    EXPECT_TRUE(OpFromName(f[1], &op)) << line;
    absl::StatusOr<DType> dt = ParseDTypeSpec(f[2]);
    EXPECT_TRUE(dt.ok()) << line;
    std::vector<UOp> srcs;
    if (f[3] != "-")
      for (const std::string& i : std::vector<std::string>(absl::StrSplit(f[3], ','))) srcs.push_back(nodes.at(std::stoul(i)));
    Arg arg;
    if (f[4] == "Invalid") {
      arg = Arg(ConstValue::Invalid());
    } else {
      absl::StatusOr<Arg> a = ParseArgText(f[4]);
      EXPECT_TRUE(a.ok()) << line;
      if (a.ok()) arg = *a;
    }
    if (!dt.ok()) return UOp();
    nodes.push_back(UOp::Make(op, *dt, srcs, arg, tag));
  }
  return nodes.empty() ? UOp() : nodes.back();
}

}  // namespace tg
