#include "tinygrad/uop/pattern_matcher.h"

#include <cstdio>
#include <sstream>

#include "gtest/gtest.h"
#include "tinygrad/base/stack_probe.h"
#include "tinygrad/uop/graph_rewrite.h"

namespace tg {
namespace {

// Collects every way `p` matches `u` as "name=op,name=op" strings.
std::vector<std::string> AllMatches(const UPat& p, const UOp& u) {
  std::vector<std::string> out;
  Match m;
  p.Match(u, m, [&] {
    std::string s;
    for (const char* n : {"x", "y", "c", "a"})
      if (m.has(n)) s += std::string(n) + "=" + std::string(OpName(m[n].op())) + ",";
    out.push_back(s);
    return false;  // keep going
  });
  return out;
}

bool Matches(const UPat& p, const UOp& u) { return !AllMatches(p, u).empty(); }

TEST(UPatTest, OpSetsDtypesAndArgs) {
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_TRUE(Matches(UPat(Ops::DEFINE_VAR), a));
  EXPECT_FALSE(Matches(UPat(Ops::CONST), a));
  EXPECT_TRUE(Matches(UPat(OpSet{Ops::CONST, Ops::DEFINE_VAR}), a));
  EXPECT_TRUE(Matches(UPat::Var("x", {dtypes::index}), a));
  EXPECT_FALSE(Matches(UPat::Var("x", {dtypes::int32, dtypes::float32}), a));
  // A vector matches through its scalar dtype.
  EXPECT_TRUE(Matches(UPat::Var("x", {dtypes::float32}), UOp::Const(dtypes::float32.vec(4), 1.0)));
  EXPECT_TRUE(Matches(UPat(Ops::DEFINE_VAR).arg(Arg::Tuple({"a", 0, 10})), a));
  EXPECT_FALSE(Matches(UPat(Ops::DEFINE_VAR).arg(Arg::Tuple({"a", 0, 11})), a));
}

TEST(UPatTest, ConstArgsCompareByValueLikePython) {
  // tinygrad's UPat.const(None, 1) matches a float 1.0 (Python's 1 == 1.0).
  EXPECT_TRUE(Matches(UPat::Const(std::vector<DType>{}, 1), UOp::Const(dtypes::float32, 1.0)));
  EXPECT_TRUE(Matches(UPat::Const(std::vector<DType>{}, true), UOp::Const(dtypes::int32, 1)));
  EXPECT_FALSE(Matches(UPat::Const(std::vector<DType>{}, 0), UOp::Invalid()));
  EXPECT_TRUE(Matches(UPat::Const(std::vector<DType>{}, ConstValue::Invalid()), UOp::Invalid()));
}

TEST(UPatTest, CommutativeOpsMatchEitherOrder) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp e = a.const_like(3) + a;  // const first
  UPat p = UPat::Var("x") + UPat::CVar("c");
  EXPECT_EQ(AllMatches(p, e), std::vector<std::string>{"x=DEFINE_VAR,c=CONST,"});
  EXPECT_EQ(AllMatches(p, a + 3), std::vector<std::string>{"x=DEFINE_VAR,c=CONST,"});
  // Non-commutative ops keep their order.
  UPat q = UPat::Var("x").idiv(UPat::CVar("c"));
  EXPECT_TRUE(Matches(q, a.idiv(3)));
  EXPECT_FALSE(Matches(q, a.const_like(3).idiv(a)));
}

TEST(UPatTest, RepeatedNameMustBindTheSameNode) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UPat xx = UPat::Var("x") + UPat::Var("x");
  EXPECT_TRUE(Matches(xx, a + a));
  EXPECT_FALSE(Matches(xx, a + b));
}

TEST(UPatTest, EveryPermutationIsTried) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UPat p = UPat::Var("x") + UPat::Var("y");
  EXPECT_EQ(AllMatches(p, a + b).size(), 2u);  // (x=a,y=b) and (x=b,y=a)
}

TEST(UPatTest, SourceLengthRules) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp w = a.lt(3).where(a, a + 1);
  EXPECT_TRUE(Matches(UPat(Ops::WHERE).src({UPat(), UPat(), UPat()}), w));
  EXPECT_FALSE(Matches(UPat(Ops::WHERE).src({UPat(), UPat()}), w));
  EXPECT_TRUE(Matches(UPat(Ops::WHERE).src({UPat(), UPat()}).allow_any_len(), w));
  UOp v = a.broadcast(3);
  EXPECT_TRUE(Matches(UPat(Ops::VECTORIZE).src_repeat(UPat::Var("x")), v));
  EXPECT_FALSE(Matches(UPat(Ops::VECTORIZE).src_repeat(UPat::Var("x")),
                       UOp::Make(Ops::VECTORIZE, dtypes::index.vec(2), {a, a + 1})));
}

TEST(UPatTest, AnyTriesAlternatives) {
  UOp a = UOp::Variable("a", 0, 10);
  UPat p = UPat::Var("x", {dtypes::index}).or_casted();
  EXPECT_TRUE(Matches(p, a));
  EXPECT_TRUE(Matches(p, a.cast(dtypes::int32)));
  EXPECT_FALSE(Matches(p, UOp::Const(dtypes::float32, 1.0)));
}

// Every way `p` matches `u`, each as the DEFINE_VARs that "x", "y", "z" bound ("x=a,y=b,").
std::vector<std::string> AllBindings(const UPat& p, const UOp& u) {
  std::vector<std::string> out;
  Match m;
  p.Match(u, m, [&] {
    std::string s;
    for (const char* n : {"x", "y", "z"})
      if (m.has(n)) s += std::string(n) + "=" + m[n].arg()[0].str() + ",";
    out.push_back(s);
    return false;
  });
  return out;
}

// Expected orders from the reference (UPat.match at tinygrad 35900290): a repeated pattern with
// alternatives keeps every store that survives all sources, in the order of the alternatives.
TEST(UPatTest, RepeatedAlternativesBacktrackAcrossSources) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UPat xy = UPat(Ops::VECTORIZE).src_repeat(UPat::Any({UPat().named("x"), UPat().named("y")}));
  const std::vector<std::string> both{"x=a,y=b,", "x=b,y=a,"};
  EXPECT_EQ(AllBindings(xy, UOp::Make(Ops::VECTORIZE, dtypes::index.vec(3), {a, b, a})), both);
  EXPECT_EQ(AllBindings(xy, UOp::Make(Ops::VECTORIZE, dtypes::index.vec(2), {a, b})), both);
  EXPECT_TRUE(AllBindings(xy, UOp::Make(Ops::VECTORIZE, dtypes::index.vec(3), {a, b, a + 1})).empty());
}

TEST(UPatTest, AlternativesInATupleBacktrackIntoLaterSources) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UOp abb = UOp::Make(Ops::VECTORIZE, dtypes::index.vec(3), {a, b, b});
  UPat p = UPat(Ops::VECTORIZE).src({UPat::Var("x"), UPat::Any({UPat::Var("x"), UPat::Var("y")}), UPat::Var("y")});
  EXPECT_EQ(AllBindings(p, abb), std::vector<std::string>{"x=a,y=b,"});
  UPat q = UPat(Ops::VECTORIZE).src({UPat::Var("x"), UPat::Any({UPat::Var("y"), UPat::Var("z")}), UPat::Var("y")});
  EXPECT_EQ(AllBindings(q, abb), (std::vector<std::string>{"x=a,y=b,", "x=a,y=b,z=b,"}));
  // alternatives that cannot both match one node (disjoint ops) still give each of theirs
  UPat r = UPat(Ops::VECTORIZE).src_repeat(
      UPat::Any({UPat(Ops::DEFINE_VAR).named("x"), UPat(Ops::ADD).src({UPat::Var("y"), UPat()})}));
  EXPECT_EQ(AllBindings(r, UOp::Make(Ops::VECTORIZE, dtypes::index.vec(3), {a, b + 1, a})),
            std::vector<std::string>{"x=a,y=b,"});
  EXPECT_TRUE(AllBindings(r, UOp::Make(Ops::VECTORIZE, dtypes::index.vec(3), {a, b + 1, b})).empty());
}

// ** stack use does not grow with the number of sources **
// A node with this many sources overflowed a 256 KiB stack when the matcher recursed per
// source; the limit below is far above what a bounded recursion needs.
constexpr size_t kManySources = 100000;
constexpr size_t kSmallStack = size_t{256} << 10;

UOp SinkOf(const std::vector<UOp>& srcs) { return UOp::Sink(srcs); }

TEST(UPatStackTest, RepeatedPatternOverManySources) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  UOp same = SinkOf(std::vector<UOp>(kManySources, a));
  std::vector<UOp> alternating;
  for (size_t i = 0; i < kManySources; ++i) alternating.push_back(i % 2 ? b : a);
  UOp ab = SinkOf(alternating);
  std::vector<std::string> one, two;
  bool tuple = false, any_len = false;
  size_t used = RunOnSmallStack(kSmallStack, [&] {
    // one way to match each source: matched in a loop
    one = AllBindings(UPat(Ops::SINK).src_repeat(UPat::Var("x")), same);
    // several ways: the backtracking across sources keeps its stack on the heap
    two = AllBindings(UPat(Ops::SINK).src_repeat(UPat::Any({UPat().named("x"), UPat().named("y")})), ab);
    tuple = !AllBindings(UPat(Ops::SINK).src({UPat::Var("x"), UPat::Var("y")}).allow_any_len(), ab).empty();
    Match m;
    any_len = UPat(Ops::SINK).src_repeat(UPat(Ops::DEFINE_VAR).named("x")).Match(ab, m, [] { return true; });
  });
  EXPECT_EQ(one, std::vector<std::string>{"x=a,"});
  EXPECT_EQ(two, (std::vector<std::string>{"x=a,y=b,", "x=b,y=a,"}));
  EXPECT_TRUE(tuple);
  EXPECT_FALSE(any_len) << "x cannot bind both a and b";
  EXPECT_LT(used, kSmallStack / 2);
  std::printf("matching %zu sources used %zu KiB of stack\n", kManySources, used >> 10);
}

TEST(UPatStackTest, GraphRewriteOfAWideSink) {
  UOp a = UOp::Variable("a", 0, 100000);
  std::vector<UOp> srcs;
  for (size_t i = 0; i < kManySources; ++i) srcs.push_back(a + static_cast<int64_t>(i));
  UOp sink = SinkOf(srcs);
  // SINK(ADD(x, c), ...) -> SINK(x): every source must be an ADD of `a` and a const, either order
  PatternMatcher pm({{UPat(Ops::SINK).src_repeat(UPat::Var("x") + UPat::CVar()),
                      [](const Match& m) { return UOp::Sink({m["x"]}); }}});
  UOp out;
  size_t used = RunOnSmallStack(kSmallStack, [&] { out = GraphRewrite(sink, pm); });
  EXPECT_EQ(out, UOp::Sink({a}));
  EXPECT_LT(used, kSmallStack / 2);
  std::printf("graph_rewrite of a %zu-source sink used %zu KiB of stack\n", kManySources, used >> 10);
}

TEST(UPatTest, EarlyRejectIsTheSingleOpChildren) {
  UPat p = UPat(Ops::ADD).src({UPat(Ops::MUL), UPat::CVar("c")});
  EXPECT_EQ(p.early_reject(), OpSet{Ops::MUL});
}

const PatternMatcher& TestRules() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"]; }),                   // x+0 -> x
      Rule(UPat::Var("x") * 1, [](const Match& m) { return m["x"]; }),                   // x*1 -> x
      Rule(UPat::Var("x") + UPat::Var("x"), [](const Match& m) { return m["x"] * 2; }),  // x+x -> x*2
  });
  return *kRules;
}

TEST(PatternMatcherTest, FirstRuleWinsAndNullMeansNoMatch) {
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_EQ(TestRules().Rewrite(a + 0), a);
  EXPECT_EQ(TestRules().Rewrite(a + a), a * 2);
  EXPECT_FALSE(TestRules().Rewrite(a + 1));
  EXPECT_FALSE(TestRules().Rewrite(a));
}

TEST(PatternMatcherTest, ComposesWithPlusInOrder) {
  static const auto* const kFirst = new PatternMatcher({
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"] * 5; }),
  });
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_EQ((*kFirst + TestRules()).Rewrite(a + 0), a * 5);
  EXPECT_EQ((TestRules() + *kFirst).Rewrite(a + 0), a);
  EXPECT_EQ((*kFirst + TestRules()).rules().size(), 4u);
}

TEST(PatternMatcherDeathTest, RootOpIsRequired) {
  EXPECT_DEATH(PatternMatcher({Rule(UPat::Var("x"), [](const Match& m) { return m["x"]; })}),
               "must fix its root op");
}

TEST(PatternMatcherDeathTest, ReadingAnUnboundCaptureNamesTheRule) {
  PatternMatcher pm({{UPat(Ops::ADD), [](const Match& m) { return m["nope"]; }}});
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_DEATH(pm.Rewrite(a + 1), "pattern_matcher_test.cc:[0-9]+ reads capture \"nope\"");
}

struct Counter {
  int seen = 0;
};

TEST(PatternMatcherTest, RulesReadTheirContext) {
  PatternMatcher pm({{UPat(Ops::DEFINE_VAR).named("x"), [](const Match& m) {
                        m.ctx<Counter>().seen++;
                        return UOp();
                      }}});
  Counter c;
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_FALSE(pm.Rewrite(a, RewriteCtx::Of(c)));
  EXPECT_EQ(c.seen, 1);
}

TEST(PatternMatcherDeathTest, WrongContextTypeIsABug) {
  PatternMatcher pm({{UPat(Ops::DEFINE_VAR).named("x"), [](const Match& m) {
                        m.ctx<Counter>().seen++;
                        return UOp();
                      }}});
  int wrong = 0;
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_DEATH(pm.Rewrite(a, RewriteCtx::Of(wrong)), "context of another type");
  EXPECT_DEATH(pm.Rewrite(a), "has none");
}

TEST(PatternMatcherTest, EachRuleKnowsItsOwnLine) {
  const auto& rules = TestRules().rules();
  EXPECT_EQ(rules[1].where().line(), rules[0].where().line() + 1);
  EXPECT_EQ(rules[2].where().line(), rules[0].where().line() + 2);
  EXPECT_NE(rules[0].location().find("pattern_matcher_test.cc:"), std::string::npos);
}

TEST(PatternMatcherTest, MatchStatsCountPerRule) {
  ResetMatchStats();
  SetTrackMatchStats(1);
  UOp a = UOp::Variable("a", 0, 10);
  TestRules().Rewrite(a + 0);
  TestRules().Rewrite(a + a);
  SetTrackMatchStats(0);
  const auto& rules = TestRules().rules();
  EXPECT_EQ(rules[0].stats().matches.load(), 1u);
  EXPECT_EQ(rules[2].stats().matches.load(), 1u);
  EXPECT_EQ(rules[0].stats().attempts.load(), 1u);  // a+a has no CONST child: early reject
  std::ostringstream out;
  PrintMatchStats(out);
  EXPECT_NE(out.str().find("pattern_matcher_test.cc:" + std::to_string(rules[0].where().line())),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("TOTAL"), std::string::npos);
  ResetMatchStats();
  EXPECT_EQ(rules[0].stats().matches.load(), 0u);
}

}  // namespace
}  // namespace tg
