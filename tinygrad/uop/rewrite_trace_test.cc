// File: tinygrad/uop/rewrite_trace_test.cc
// TRACK_MATCH_STATS 1..3 through GraphRewrite: the per-rule table, the rewrite trace and the
// per-match timing lines.
#include "tinygrad/uop/rewrite_trace.h"

#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/pattern_matcher.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// x+0 -> x
const PatternMatcher& AddZero() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"]; }),  // x+0 -> x
  });
  return *kRules;
}

// x*1 -> x, and a rule that runs a nested rewrite: x*2 -> (x+0)+x rewritten by AddZero.
const PatternMatcher& MulRules() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") * 1, [](const Match& m) { return m["x"]; }),  // x*1 -> x
      Rule(UPat::Var("x") * 2,
           [](const Match& m) { return GraphRewrite((m["x"] + 0) + m["x"], AddZero(), {.name = "inner"}); }),
  });
  return *kRules;
}

class TrackMatchStatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetRewriteTrace();
    ResetMatchStats();
  }
  void TearDown() override {
    SetTrackMatchStats(0);
    ResetRewriteTrace();
    ResetMatchStats();
  }
};

TEST_F(TrackMatchStatsTest, LevelOneCountsButKeepsNoTrace) {
  SetTrackMatchStats(1);
  UOp a = UOp::Variable("a", 0, 10);
  EXPECT_EQ(GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "add zero"}), UOp::Sink({a}));
  EXPECT_EQ(AddZero().rules()[0].stats().matches.load(), 1u);
  EXPECT_TRUE(SnapshotRewriteTrace().rewrites.empty());
}

TEST_F(TrackMatchStatsTest, LevelTwoRecordsEachRewriteAndMatch) {
  SetTrackMatchStats(2);
  UOp a = UOp::Variable("a", 0, 10);
  UOp in = UOp::Sink({(a + 0) * 1});  // sink, mul, add, a, 0, 1: 6 nodes
  EXPECT_EQ(GraphRewrite(in, MulRules() + AddZero(), {.name = "fold"}), UOp::Sink({a}));
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.rewrites.size(), 1u);
  const TracedRewrite& r = t.rewrites[0];
  EXPECT_EQ(r.name, "fold");
  EXPECT_EQ(r.depth, 0);
  EXPECT_FALSE(r.bottom_up);
  EXPECT_EQ(r.nodes_before, 6u);
  EXPECT_EQ(r.nodes_after, 2u);  // sink, a
  EXPECT_EQ(t.groups, std::vector<std::string>{"default"});
  EXPECT_EQ(t.groups[r.group], "default");
  // Sources first: a+0 -> a, then a*1 -> a.
  ASSERT_EQ(r.matches.size(), 2u);
  EXPECT_EQ(r.matches[0].rule.line(), AddZero().rules()[0].where().line());
  EXPECT_EQ(r.matches[0].before, Ops::ADD);
  EXPECT_EQ(r.matches[0].after, Ops::DEFINE_VAR);
  EXPECT_EQ(r.matches[1].rule.line(), MulRules().rules()[0].where().line());
  EXPECT_EQ(r.matches[1].before, Ops::MUL);
  EXPECT_EQ(t.num_matches(), 2u);
}

// The graphs go into one hash-consed node table: the input and output sinks and each match's
// before/after are ids into it, sources before the nodes that use them.
TEST_F(TrackMatchStatsTest, LevelTwoRecordsTheGraphsAsNodeIds) {
  SetTrackMatchStats(2);
  UOp a = UOp::Variable("a", 0, 10);
  UOp in = UOp::Sink({(a + 0) * 1});
  GraphRewrite(in, MulRules() + AddZero(), {.name = "fold"});
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.rewrites.size(), 1u);
  const TracedRewrite& r = t.rewrites[0];
  // a, 0, a+0, 1, (a+0)*1, sink((a+0)*1), a*1 (the mul rebuilt on its rewritten source, which
  // the second rule matches), sink(a): each node once.
  ASSERT_EQ(t.nodes.size(), 8u);
  for (size_t i = 0; i < t.nodes.size(); ++i)
    for (size_t s : t.nodes[i].src) EXPECT_LT(s, i) << "node " << i;
  const TracedNode& sink_in = t.nodes[r.input];
  EXPECT_EQ(sink_in.op, Ops::SINK);
  EXPECT_EQ(sink_in.dtype, "dtypes.void");
  EXPECT_EQ(sink_in.arg, "");
  ASSERT_EQ(sink_in.src.size(), 1u);
  const TracedNode& mul = t.nodes[sink_in.src[0]];
  EXPECT_EQ(mul.op, Ops::MUL);
  EXPECT_EQ(t.nodes[mul.src[1]].op, Ops::CONST);
  EXPECT_EQ(t.nodes[mul.src[1]].arg, "1");
  const size_t add = mul.src[0];
  const size_t var = t.nodes[add].src[0];
  EXPECT_EQ(t.nodes[var].op, Ops::DEFINE_VAR);
  EXPECT_EQ(t.nodes[var].arg, "('a', 0, 10)");
  const TracedNode& sink_out = t.nodes[r.output];
  EXPECT_EQ(sink_out.op, Ops::SINK);
  EXPECT_EQ(sink_out.src, std::vector<size_t>{var});  // the same `a` as in the input
  ASSERT_EQ(r.matches.size(), 2u);
  EXPECT_EQ(r.matches[0].before_id, add);  // a+0 -> a
  EXPECT_EQ(r.matches[0].after_id, var);
  const TracedNode& rebuilt = t.nodes[r.matches[1].before_id];  // a*1 -> a
  EXPECT_EQ(rebuilt.op, Ops::MUL);
  EXPECT_EQ(rebuilt.src, (std::vector<size_t>{var, mul.src[1]}));
  EXPECT_EQ(r.matches[1].after_id, var);
}

// Equal graphs of two rewrites share their ids; a different tag is a different node.
TEST_F(TrackMatchStatsTest, NodeTableIsSharedAndTellsTagsApart) {
  SetTrackMatchStats(2);
  UOp a = UOp::Variable("a", 0, 10);
  GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "one"});
  GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "two"});
  GraphRewrite(UOp::Sink({a.replace_tag(Arg(int64_t{1})) + 0}), AddZero(), {.name = "tagged"});
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.rewrites.size(), 3u);
  EXPECT_EQ(t.rewrites[0].input, t.rewrites[1].input);
  EXPECT_EQ(t.rewrites[0].output, t.rewrites[1].output);
  EXPECT_NE(t.rewrites[2].input, t.rewrites[0].input);
  EXPECT_EQ(t.nodes[t.nodes[t.rewrites[2].output].src[0]].tag, "1");
}

// The trace keeps no UOps: it outlives every graph it describes.
TEST_F(TrackMatchStatsTest, TraceOutlivesItsGraphs) {
  SetTrackMatchStats(2);
  {
    UOp b = UOp::Variable("only_here", 0, 3);
    GraphRewrite(UOp::Sink({b + 0}), AddZero(), {.name = "gone"});
  }
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.rewrites.size(), 1u);
  EXPECT_EQ(t.nodes[t.nodes[t.rewrites[0].output].src[0]].arg, "('only_here', 0, 3)");
}

TEST_F(TrackMatchStatsTest, GroupKeepsItsProgram) {
  SetTrackMatchStats(2);
  {
    ScopedTraceGroup group("get_program");
    EXPECT_TRUE(group.active());
    group.AttachProgram({.name = "E_4", .device = "CPU", .source = "void E_4() {}", .linear = {"0: SINK"}});
  }
  { ScopedTraceGroup no_program("get_program"); }
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.programs.size(), 2u);
  ASSERT_TRUE(t.programs[0].has_value());
  EXPECT_EQ(t.programs[0]->source, "void E_4() {}");
  EXPECT_FALSE(t.programs[1].has_value());
}

TEST_F(TrackMatchStatsTest, NestedRewriteComesAfterItsParentOneDeeper) {
  SetTrackMatchStats(2);
  UOp a = UOp::Variable("a", 0, 10);
  GraphRewrite(UOp::Sink({a * 2}), MulRules(), {.name = "outer", .bottom_up = true});
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.rewrites.size(), 2u);
  EXPECT_EQ(t.rewrites[0].name, "outer");
  EXPECT_TRUE(t.rewrites[0].bottom_up);
  EXPECT_EQ(t.rewrites[0].depth, 0);
  EXPECT_EQ(t.rewrites[1].name, "inner");
  EXPECT_EQ(t.rewrites[1].depth, 1);
  ASSERT_EQ(t.rewrites[1].matches.size(), 1u);  // (a+0)+a: the a+0
  EXPECT_EQ(t.rewrites[1].matches[0].rule.line(), AddZero().rules()[0].where().line());
  ASSERT_EQ(t.rewrites[0].matches.size(), 1u);  // the x*2 rule, in the outer rewrite only
  EXPECT_EQ(t.rewrites[0].matches[0].after, Ops::ADD);
}

TEST_F(TrackMatchStatsTest, GroupsNameTheRewritesInTheirScope) {
  SetTrackMatchStats(2);
  UOp a = UOp::Variable("a", 0, 10);
  {
    ScopedTraceGroup group("get_program");
    GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "first"});
    {
      ScopedTraceGroup inner("schedule");
      GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "second"});
    }
    GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "third"});
    group.Rename("r_10");
  }
  GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "fourth"});
  {
    ScopedTraceGroup again("get_program");  // counted per function, as the reference's n1, n2
    GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "fifth"});
  }
  RewriteTrace t = SnapshotRewriteTrace();
  ASSERT_EQ(t.rewrites.size(), 5u);
  auto group_of = [&](size_t i) { return t.groups[t.rewrites[i].group]; };
  EXPECT_EQ(group_of(0), "r_10");
  EXPECT_EQ(group_of(1), "schedule n1");
  EXPECT_EQ(group_of(2), "r_10");
  EXPECT_EQ(group_of(3), "default");
  EXPECT_EQ(group_of(4), "get_program n2");
}

TEST_F(TrackMatchStatsTest, GroupsNeedLevelTwo) {
  SetTrackMatchStats(1);
  { ScopedTraceGroup group("get_program"); }
  EXPECT_TRUE(SnapshotRewriteTrace().groups.empty());
}

// tinygrad's simplify (Simplify sets track = false) and an unnamed substitute run untracked.
TEST_F(TrackMatchStatsTest, UntrackedRewritesAreLeftOut) {
  SetTrackMatchStats(2);
  UOp a = UOp::Variable("a", 0, 10);
  GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "quiet", .track = false});
  EXPECT_EQ(Substitute(a + 1, {{a, UOp::Variable("b", 0, 3)}}), UOp::Variable("b", 0, 3) + 1);
  EXPECT_TRUE(SnapshotRewriteTrace().rewrites.empty());
  EXPECT_EQ(AddZero().rules()[0].stats().attempts.load(), 0u);
  {
    ScopedUntrackedMatching off;
    EXPECT_EQ(TrackMatchStats(), 0);
  }
  EXPECT_EQ(TrackMatchStats(), 2);
}

TEST_F(TrackMatchStatsTest, LevelThreePrintsEachMatchWithItsSourceLine) {
  SetTrackMatchStats(3);
  UOp a = UOp::Variable("a", 0, 10);
  ::testing::internal::CaptureStdout();
  GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "timed"});
  std::string out = ::testing::internal::GetCapturedStdout();
  // "   1.23 us -- Rule(UPat::Var("x") + 0, ...  // x+0 -> x"; the source is a data dependency.
  EXPECT_THAT(out, ::testing::MatchesRegex(" *[0-9]+\\.[0-9]{2} us -- Rule\\(UPat::Var\\(\"x\"\\) \\+ 0.*\n"));
  EXPECT_EQ(SnapshotRewriteTrace().num_matches(), 1u);
}

TEST_F(TrackMatchStatsTest, TableShowsLocationAndSourceSlowestLast) {
  SetTrackMatchStats(1);
  UOp a = UOp::Variable("a", 0, 10);
  GraphRewrite(UOp::Sink({a + 0}), AddZero(), {.name = "add zero"});
  std::ostringstream out;
  PrintMatchStats(out);
  const std::string loc = "rewrite_trace_test.cc:" + std::to_string(AddZero().rules()[0].where().line());
  // matches / attempts -- match ms / total ms -- location (20 wide) source line
  EXPECT_THAT(out.str(), ::testing::ContainsRegex(" +1 / +1 -- +[0-9.]+ / +[0-9.]+ ms -- " + loc +
                                                  " +Rule\\(UPat::Var"));
  EXPECT_THAT(out.str(), HasSubstr("-- TOTAL\n"));
  EXPECT_THAT(out.str(), ::testing::ContainsRegex("[0-9]+ rules, [0-9]+ matched once\n$"));
}

TEST(SourceLineAtTest, ReadsTheLineTrimmed) {
  EXPECT_EQ(SourceLineAt(std::source_location::current()).substr(0, 24), "EXPECT_EQ(SourceLineAt(s");
}

}  // namespace
}  // namespace tg
