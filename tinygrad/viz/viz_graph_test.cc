// File: tinygrad/viz/viz_graph_test.cc
// GraphAtStep replays a rewrite's matches as the reference's get_full_rewrite does: checked on
// small rewrites whose every step is known, and on every rewrite of a real kernel (each step's
// graph holds the node the next rule matched; the last step is the rewrite's output). Also what
// CaptureVizTrace keeps of a kernel (its group, named after it, with the program).
#include "tinygrad/viz/viz_graph.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/base/terminal.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/c/clang.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/viz/viz_trace.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// x+0 -> x, x*1 -> x
const PatternMatcher& Fold() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"]; }),
      Rule(UPat::Var("x") * 1, [](const Match& m) { return m["x"]; }),
  });
  return *kRules;
}

class VizGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetRewriteTrace();
    ResetMatchStats();
    SetTrackMatchStats(2);
  }
  void TearDown() override {
    SetTrackMatchStats(0);
    ResetRewriteTrace();
    ResetMatchStats();
  }
};

// "SINK(MUL(ADD(DEFINE_VAR,CONST),CONST))": the graph's shape from its sink, changed nodes
// marked with *, the matched one with !.
std::string Shape(const VizGraph& g) {
  absl::flat_hash_map<size_t, const VizGraphNode*> by_id;
  for (const VizGraphNode& n : g.nodes) by_id[n.id] = &n;
  std::function<std::string(size_t)> shape = [&](size_t id) {
    const VizGraphNode& n = *by_id.at(id);
    std::string s = n.op + (n.changed ? "*" : "") + (n.matched ? "!" : "");
    if (n.src.empty()) return s;
    s += "(";
    for (size_t i = 0; i < n.src.size(); ++i) s += (i ? "," : "") + shape(n.src[i]);
    return s + ")";
  };
  return shape(g.nodes.back().id);
}

TEST_F(VizGraphTest, TopDownStepsSubstituteIntoThePreviousGraph) {
  UOp a = UOp::Variable("a", 0, 10);
  GraphRewrite(UOp::Sink({(a + 0) * 1}), Fold(), {.name = "fold"});
  VizTrace t = CaptureVizTrace();
  ASSERT_EQ(t.rewrites.size(), 1u);
  ASSERT_EQ(t.rewrites[0].matches.size(), 2u);
  std::vector<std::string> steps;
  for (size_t k = 0; k <= 2; ++k) {
    absl::StatusOr<VizGraph> g = GraphAtStep(t, 0, k);
    ASSERT_TRUE(g.ok()) << g.status();
    steps.push_back(Shape(*g));
  }
  EXPECT_EQ(steps[0], "SINK(MUL(ADD!(DEFINE_VAR,CONST),CONST))");  // a+0 is matched next
  EXPECT_EQ(steps[1], "SINK(MUL!(DEFINE_VAR*,CONST))");          // made a; a*1 matched next
  EXPECT_EQ(steps[2], "SINK(DEFINE_VAR*)");
  EXPECT_EQ(GraphAtStep(t, 0, 2)->nodes.back().id, t.rewrites[0].output);
  EXPECT_EQ(GraphAtStep(t, 0, 0)->nodes.back().id, t.rewrites[0].input);
}

TEST_F(VizGraphTest, BottomUpStepsSubstituteIntoTheInput) {
  UOp a = UOp::Variable("a", 0, 10), b = UOp::Variable("b", 0, 10);
  GraphRewrite(UOp::Sink({(a + 0) * 1, b + 0}), Fold(), {.name = "fold", .bottom_up = true});
  VizTrace t = CaptureVizTrace();
  ASSERT_EQ(t.rewrites.size(), 1u);
  const VizRewrite& r = t.rewrites[0];
  ASSERT_TRUE(r.bottom_up);
  ASSERT_EQ(r.matches.size(), 3u);  // (a+0)*1 -> a+0 -> a, then b+0 -> b
  // The CONST 0 is one node, shared by both ADDs: made by the first match, it is marked in both.
  EXPECT_EQ(Shape(*GraphAtStep(t, 0, 1)), "SINK(ADD*!(DEFINE_VAR*,CONST*),ADD(DEFINE_VAR,CONST*))");
  EXPECT_EQ(Shape(*GraphAtStep(t, 0, 2)), "SINK(DEFINE_VAR*,ADD!(DEFINE_VAR,CONST))");
  EXPECT_EQ(Shape(*GraphAtStep(t, 0, 3)), "SINK(DEFINE_VAR,DEFINE_VAR*)");
  EXPECT_EQ(GraphAtStep(t, 0, 3)->nodes.back().id, r.output);
}

TEST_F(VizGraphTest, ReplayAnswersStepsInAnyOrder) {
  UOp a = UOp::Variable("a", 0, 10);
  GraphRewrite(UOp::Sink({(a + 0) * 1}), Fold(), {.name = "fold"});
  VizTrace t = CaptureVizTrace();
  absl::StatusOr<VizReplay> replay = VizReplay::Create(t, 0);
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(Shape(*replay->GraphAt(2)), "SINK(DEFINE_VAR*)");
  EXPECT_EQ(Shape(*replay->GraphAt(0)), "SINK(MUL(ADD!(DEFINE_VAR,CONST),CONST))");
  EXPECT_EQ(Shape(*replay->GraphAt(1)), "SINK(MUL!(DEFINE_VAR*,CONST))");
  EXPECT_FALSE(replay->GraphAt(3).ok());
  EXPECT_FALSE(VizReplay::Create(t, 1).ok());
}

TEST_F(VizGraphTest, StepsOutOfRangeAreErrors) {
  GraphRewrite(UOp::Sink({UOp::Variable("a", 0, 10) + 0}), Fold(), {.name = "fold"});
  VizTrace t = CaptureVizTrace();
  EXPECT_TRUE(GraphAtStep(t, 0, 1).ok());
  EXPECT_THAT(std::string(GraphAtStep(t, 0, 2).status().message()), HasSubstr("step 2 of rewrite 0"));
  EXPECT_THAT(std::string(GraphAtStep(t, 1, 0).status().message()), HasSubstr("rewrite 1 of 1"));
}

// A (hostile or odd) trace whose matches undo each other: the reference's error node, not a hang.
TEST(VizGraphLoopTest, LoopingSubstitutionsGiveAnErrorNode) {
  VizTrace t;
  t.nodes = {{"CONST", "dtypes.int", "1", "", {}}, {"CONST", "dtypes.int", "2", "", {}},
             {"SINK", "dtypes.void", "", "", {0}}};
  t.groups = {{"g", {0}, std::nullopt}};
  t.rewrites = {{"loop", 0, 0, true, 2, 2, {{"r:1", "f", 0, 1, 0}, {"r:2", "f", 1, 0, 0}}}};
  absl::StatusOr<VizGraph> g = GraphAtStep(t, 0, 2);
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_EQ(g->nodes.size(), 1u);
  EXPECT_EQ(g->nodes[0].op, "NOOP");
  EXPECT_THAT(g->nodes[0].arg, HasSubstr("loop"));
  EXPECT_GE(g->nodes[0].id, t.nodes.size());
}

// x.sum(axis=1) of a 64x32 float tensor, as a kernel AST.
UOp SumAst() {
  auto dg = [](int64_t size, int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(size), {}, slot); };
  UOp out = dg(64, 0), in = dg(2048, 1), r = UOp::Range(64, 1), k = UOp::Range(32, 0, AxisType::REDUCE);
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {in.index(std::vector<UOp>{r * 32 + k}), k}, Ops::ADD);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {out.index(std::vector<UOp>{r}, true).store(red), r})});
}

TEST_F(VizGraphTest, EveryStepOfARealKernelReplays) {
  ClangRenderer ren;
  absl::StatusOr<ProgramSpec> p = GetProgram(SumAst(), ren, CodegenOptions{});
  ASSERT_TRUE(p.ok()) << p.status();
  VizTrace t = CaptureVizTrace();
  ASSERT_EQ(t.groups.size(), 1u);
  const VizGroup& group = t.groups[0];
  EXPECT_EQ(group.name, StripAnsi(p->name));
  EXPECT_EQ(group.rewrites.size(), t.rewrites.size());
  ASSERT_TRUE(group.program.has_value());
  EXPECT_EQ(group.program->name, StripAnsi(p->name));
  EXPECT_EQ(group.program->device, "CPU");
  EXPECT_EQ(group.program->source, p->src);
  ASSERT_EQ(group.program->linear.size(), p->uops.size());
  EXPECT_THAT(group.program->linear.front(), HasSubstr("DEFINE_GLOBAL"));
  EXPECT_THAT(group.program->linear.back(), HasSubstr("SINK"));
  size_t steps = 0;
  for (size_t i = 0; i < t.rewrites.size(); ++i) {
    const VizRewrite& r = t.rewrites[i];
    absl::StatusOr<VizReplay> replay = VizReplay::Create(t, i);
    ASSERT_TRUE(replay.ok()) << replay.status();
    for (size_t k = 0; k <= r.matches.size(); ++k) {
      absl::StatusOr<VizGraph> g = replay->GraphAt(k);
      ASSERT_TRUE(g.ok()) << g.status();
      // GraphAtStep alone (a fresh replay) gives the same graph, for a sample of the steps.
      if (k % 7 == 3) {
        absl::StatusOr<VizGraph> fresh = GraphAtStep(t, i, k);
        ASSERT_TRUE(fresh.ok()) << fresh.status();
        ASSERT_EQ(fresh->nodes.size(), g->nodes.size()) << r.name << " step " << k;
        EXPECT_EQ(fresh->nodes.back().id, g->nodes.back().id) << r.name << " step " << k;
      }
      ++steps;
      ASSERT_FALSE(g->nodes.empty());
      EXPECT_NE(g->nodes.back().op, "NOOP") << r.name << " step " << k;
      if (k == 0) EXPECT_EQ(g->nodes.back().id, r.input) << r.name;
      if (k == r.matches.size()) EXPECT_EQ(g->nodes.back().id, r.output) << r.name << " has " << k << " steps";
      // Top-down, each match rewrites a node of the graph the previous matches left.
      if (!r.bottom_up && k < r.matches.size()) {
        EXPECT_TRUE(std::any_of(g->nodes.begin(), g->nodes.end(), [](const VizGraphNode& n) { return n.matched; }))
            << r.name << " step " << k << ": the node match " << k + 1 << " rewrites is not in the graph";
      }
      if (k > 0) {
        EXPECT_TRUE(std::any_of(g->nodes.begin(), g->nodes.end(), [](const VizGraphNode& n) { return n.changed; }) ||
                    r.bottom_up)
            << r.name << " step " << k;
      }
    }
  }
  EXPECT_GT(steps, 50u);
  EXPECT_FALSE(t.match_stats.empty());
  EXPECT_THAT(t.match_stats.back().rule, ::testing::MatchesRegex("tinygrad/.*\\.cc:[0-9]+"));
}

}  // namespace
}  // namespace tg
