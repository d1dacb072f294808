// File: tinygrad/uop/symbolic/symbolic_parity_test.cc
// Parity with tinygrad's symbolic tests (test/unit/test_uop_symbolic.py, helper_test_variable):
// replays testdata/symbolic_cases.txt, which tools/golden/gen_symbolic_cases.py dumps from the
// reference at the pinned commit (see the file's header for the exact command).
//
// Each case is an expression (an S-expression over tinygrad's op names, so the graph is rebuilt
// node for node) with the reference's answers:
//   - Render(v) of the expression itself, and v's vmin/vmax (range analysis, no rewriting);
//   - GraphRewrite(v, Sym()): what helper_test_variable simplifies with; render, vmin, vmax;
//   - Simplify(v) (tinygrad's UOp.simplify, `symbolic`): render, vmin, vmax.
// One gtest per case (filter with --gtest_filter='*test_mod_mod*').
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/render.h"
#include "tinygrad/uop/symbolic/symbolic.h"
#include "tinygrad/uop/symbolic/symbolic_cases.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// gtest prints a failing test's parameter: the case name is enough (found by ADL on Case).
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

namespace {

// Exact (kind-sensitive) comparison against the reference's repr: tinygrad's bool ranges are
// False/True, not 0/1, and an int bound is not a float one.
::testing::AssertionResult SameValue(const char* what, const ConstValue& got,
                                     const std::string& want) {
  std::optional<ConstValue> w = ParseValue(want);
  if (!w) return ::testing::AssertionFailure() << what << ": bad expected value '" << want << "'";
  if (got == *w) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << " = " << got.repr() << ", tinygrad: " << want;
}

class SymbolicParityTest : public ::testing::TestWithParam<Case> {};

TEST_P(SymbolicParityTest, MatchesTinygrad) {
  const Case& c = GetParam();
  ASSERT_NE(c.name, "LoadError") << c.expr;
  SCOPED_TRACE(
      absl::StrCat(std::string(kCasesPath), ":", c.line, " ", c.name, "\n  expr: ", c.expr));
  absl::StatusOr<UOp> parsed = ParseExpr(c.expr);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const UOp& v = *parsed;

  // The expression itself: rendering and range analysis, no rewriting.
  if (c.render != "?") {
    EXPECT_EQ(Render(v), c.render) << "Render(expr)";
  }
  EXPECT_TRUE(SameValue("expr.vmin", v.vmin(), c.vmin));
  EXPECT_TRUE(SameValue("expr.vmax", v.vmax(), c.vmax));

  // helper_test_variable: graph_rewrite(v, sym).
  RewriteOptions opts;
  opts.name = "simplify symbolic uop";
  UOp s = GraphRewrite(v, Sym(), opts);
  EXPECT_EQ(Render(s), c.sym_render) << "Render(GraphRewrite(expr, Sym()))";
  EXPECT_TRUE(SameValue("sym.vmin", s.vmin(), c.sym_vmin));
  EXPECT_TRUE(SameValue("sym.vmax", s.vmax(), c.sym_vmax));

  // UOp.simplify(): graph_rewrite(v, symbolic).
  UOp simp = Simplify(v);
  EXPECT_EQ(Render(simp), c.simp_render) << "Render(Simplify(expr))";
  EXPECT_TRUE(SameValue("simplify.vmin", simp.vmin(), c.simp_vmin));
  EXPECT_TRUE(SameValue("simplify.vmax", simp.vmax(), c.simp_vmax));
}

// gtest names: letters, digits and '_' only, unique.
std::vector<std::string> TestNames(const std::vector<Case>& cases) {
  std::vector<std::string> names;
  absl::flat_hash_set<std::string> seen;
  for (const Case& c : cases) {
    std::string n;
    for (char ch : c.name) {
      if (ch == '-')
        n += "m";
      else if (std::isalnum(static_cast<unsigned char>(ch)))
        n += ch;
      else
        n += '_';
    }
    std::string unique = n;
    for (int k = 2; !seen.insert(unique).second; ++k) unique = absl::StrCat(n, "_", k);
    names.push_back(unique);
  }
  return names;
}

const std::vector<Case>& AllCases() {
  static const auto* cases = new std::vector<Case>(LoadCases());
  return *cases;
}

INSTANTIATE_TEST_SUITE_P(Tinygrad, SymbolicParityTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           static const auto* names =
                               new std::vector<std::string>(TestNames(AllCases()));
                           return (*names)[info.index];
                         });

// The table must not silently shrink (the brief: at least 150 ported cases).
TEST(SymbolicParityTableTest, HasTheReferenceCases) {
  int reference = 0;
  for (const Case& c : AllCases()) reference += c.name.rfind("TestSymbolic.", 0) == 0;
  EXPECT_GE(reference, 150);
  EXPECT_GE(AllCases().size(), 1000u);
}

}  // namespace
}  // namespace tg
