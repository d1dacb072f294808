#include "tinygrad/uop/graph_rewrite.h"

#include "gtest/gtest.h"

namespace tg {
namespace {

const PatternMatcher& Folding() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"]; }),  // x+0 -> x
      Rule(UPat::Var("x") * 1, [](const Match& m) { return m["x"]; }),  // x*1 -> x
      // c0+c1 -> c (index consts)
      Rule(UPat::CVar("a", {dtypes::index}) + UPat::CVar("b", {dtypes::index}),
       [](const Match& m) {
         return m["a"].const_like(m["a"].arg().number() + m["b"].arg().number());
       }),
      // (x+c0)+c1 -> x+(c0+c1)
      Rule((UPat::Var("x") + UPat::CVar("c0")) + UPat::CVar("c1"),
       [](const Match& m) { return m["x"] + (m["c0"] + m["c1"]); }),
  });
  return *kRules;
}

TEST(GraphRewriteTest, RewritesToAFixedPoint) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp e = ((a * 1 + 0) + 2) + 3;
  EXPECT_EQ(GraphRewrite(e, Folding()), a + 5);
}

TEST(GraphRewriteTest, RewritesInsideSharedSubgraphsOnce) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp shared = a * 1;
  UOp e = UOp::Sink({shared + 0, shared.lt(3)});
  EXPECT_EQ(GraphRewrite(e, Folding()), UOp::Sink({a, a.lt(3)}));
}

TEST(GraphRewriteTest, DeepChainsNeedNoRecursion) {
  UOp x = UOp::Variable("x", 0, 10);
  UOp e = x;
  for (int i = 0; i < 100000; ++i) e = e * 1 + 0;
  EXPECT_EQ(GraphRewrite(e, Folding()), x);
  // And one that folds into a single add.
  UOp f = x;
  for (int i = 0; i < 100000; ++i) f = f + 1;
  EXPECT_EQ(GraphRewrite(f, Folding()), x + 100000);
}

// Bottom-up sees a parent before its sources are rewritten.
const PatternMatcher& ParentFirst() {
  static const auto* const kRules = new PatternMatcher({
      // max(x, x) -> x, only if seen before the sources change
      Rule(UPat(Ops::MAX).src({UPat::Var("x"), UPat::Var("x")}), [](const Match& m) { return m["x"]; }),
      Rule(UPat::Var("x") * 1, [](const Match& m) { return m["x"] + 0; }),
  });
  return *kRules;
}

TEST(GraphRewriteTest, BottomUpRewritesParentsFirst) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp e = (a * 1).maximum(a * 1);
  EXPECT_EQ(GraphRewrite(e, ParentFirst(), {.bottom_up = true}), a + 0);
  // Top-down rewrites the sources first; max(a+0, a+0) still folds, but in the other order.
  EXPECT_EQ(GraphRewrite(e, ParentFirst()), a + 0);
}

struct Renames {
  int count = 0;
};

const PatternMatcher& CountingRules() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(Ops::DEFINE_VAR).named("v"),
       [](const Match& m) {
         Renames& r = m.ctx<Renames>();
         if (m["v"].arg()[0].str() != "a") return UOp();
         r.count++;
         return UOp::Variable("b", m["v"].arg()[1].number(), m["v"].arg()[2].number());
       }),
  });
  return *kRules;
}

TEST(GraphRewriteTest, RulesGetTheContext) {
  Renames r;
  UOp a = UOp::Variable("a", 0, 10);
  UOp out = GraphRewrite(a * 3 + a, CountingRules(), {.ctx = RewriteCtx::Of(r)});
  UOp b = UOp::Variable("b", 0, 10);
  EXPECT_EQ(out, b * 3 + b);
  EXPECT_EQ(r.count, 1);  // memoized: the shared `a` is rewritten once
}

TEST(GraphRewriteTest, MapGivesEveryNodesResult) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp inner = a * 1;
  UOp e = inner + 0;
  auto map = GraphRewriteMap(e, Folding());
  EXPECT_EQ(map.at(inner), a);
  EXPECT_EQ(map.at(e), a);
  EXPECT_EQ(map.at(a), a);
}

TEST(GraphRewriteTest, SubstituteReplacesAndRebuilds) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UOp e = (a + 1) * a;
  EXPECT_EQ(Substitute(e, {{a, b}}), (b + 1) * b);
  EXPECT_EQ(Substitute(e, {{a + 1, b}}), b * a);
  EXPECT_EQ(Substitute(e, {}), e);
}

const PatternMatcher& Cycle() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") + 1, [](const Match& m) { return 1 + m["x"] * 1; }),  // x+1 -> 1+x*1
      Rule(UPat::Var("x") * 1, [](const Match& m) { return m["x"] + 0; }),      // x*1 -> x+0
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"] * 1; }),      // x+0 -> x*1
  });
  return *kRules;
}

TEST(GraphRewriteDeathTest, NonTerminatingRulesAreNamed) {
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_DEATH(GraphRewrite(a * 1, Cycle(), {.name = "cyclic"}),
               "graph_rewrite 'cyclic' does not terminate.*graph_rewrite_test.cc:[0-9]+");
  EXPECT_DEATH(GraphRewrite(a * 1, Cycle(), {.bottom_up = true}),
               "does not terminate.*graph_rewrite_test.cc:[0-9]+");
}

}  // namespace
}  // namespace tg
