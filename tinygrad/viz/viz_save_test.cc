// File: tinygrad/viz/viz_save_test.cc
// VIZ=-1 saves the trace where VIZ_PATH (or the cache dir) says and prints the path; other VIZ
// values save nothing.
#include "tinygrad/viz/viz_save.h"

#include <filesystem>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/viz/viz_trace_json.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

const PatternMatcher& AddZero() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat::Var("x") + 0, [](const Match& m) { return m["x"]; }),
  });
  return *kRules;
}

class VizSaveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetRewriteTrace();
    SetTrackMatchStats(2);
    GraphRewrite(UOp::Sink({UOp::Variable("a", 0, 10) + 0}), AddZero(), {.name = "add zero"});
  }
  void TearDown() override {
    SetTrackMatchStats(0);
    ResetRewriteTrace();
  }
  std::string dir_ = ::testing::TempDir() + "/viz_save_test";
};

TEST_F(VizSaveTest, DefaultPathIsInTheCacheDir) {
  Config c;
  c.cache_dir = "cache";
  EXPECT_EQ(VizTracePath(c), "cache/viz.json");
  c.viz_path = "elsewhere.json";
  EXPECT_EQ(VizTracePath(c), "elsewhere.json");
}

TEST_F(VizSaveTest, MinusOneSavesALoadableTraceAndSaysWhere) {
  Config c;
  c.viz = -1;
  c.cache_dir = dir_ + "/made/by/save";  // missing directories are made
  std::ostringstream out;
  ASSERT_TRUE(SaveVizTraceIfAsked(c, out).ok());
  const std::string path = c.cache_dir + "/viz.json";
  EXPECT_THAT(out.str(), HasSubstr("VIZ: trace saved to " + path + " (1 groups, 1 rewrites,"));
  absl::StatusOr<VizTrace> t = LoadVizTrace(path);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->rewrites.size(), 1u);
  EXPECT_EQ(t->rewrites[0].name, "add zero");
}

TEST_F(VizSaveTest, OtherValuesSaveNothing) {
  for (int viz : {0, 1}) {
    Config c;
    c.viz = viz;
    c.viz_path = dir_ + "/never.json";
    std::ostringstream out;
    EXPECT_TRUE(SaveVizTraceIfAsked(c, out).ok());
    EXPECT_EQ(out.str(), "");
    EXPECT_FALSE(std::filesystem::exists(c.viz_path));
  }
}

TEST_F(VizSaveTest, UnwritablePathIsAnError) {
  std::filesystem::create_directories(dir_);
  Config c;
  c.viz = -1;
  c.viz_path = dir_;  // a directory: the rename onto it fails
  std::ostringstream out;
  absl::Status s = SaveVizTraceIfAsked(c, out);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr(dir_));
}

}  // namespace
}  // namespace tg
