// File: tinygrad/viz/viz_trace_json_test.cc
// The viz trace file: a round trip keeps everything; a bad file (truncated, not JSON, another
// format or version, a wrong type, an id out of range) is an error naming the file and field.
#include "tinygrad/viz/viz_trace_json.h"

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

// sink(a + 0) -> sink(a) in one group with a program.
VizTrace SmallTrace() {
  VizTrace t;
  t.nodes = {
      {"DEFINE_VAR", "dtypes.int", "('a', 0, 10)", "", {}},  // 0
      {"CONST", "dtypes.int", "0", "", {}},                  // 1
      {"ADD", "dtypes.int", "", "", {0, 1}},                 // 2
      {"SINK", "dtypes.void", "", "", {2}},                  // 3
      {"SINK", "dtypes.void", "", "1", {0}},                 // 4 (tagged)
  };
  t.groups = {{"E_4", {0}, VizProgram{"E_4", "CPU", "void E_4() {}", {"0: SINK", "1: \"quoted\" \xe2\x9c\x93"}}},
              {"Schedule 1 Kernel", {}, std::nullopt}};
  t.rewrites = {{"fold", 0, 0, false, 3, 4, {{"tinygrad/uop/symbolic/symbolic.cc:12", "tg::Sym()", 2, 0, 150}}}};
  t.match_stats = {{"tinygrad/uop/symbolic/symbolic.cc:12", "tg::Sym()", "Rule(x + 0)", 1, 4, 900}};
  return t;
}

std::string TempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The error of loading `text` as a trace file.
std::string LoadError(const std::string& text) {
  const std::string path = TempPath("bad.json");
  WriteFile(path, text);
  absl::StatusOr<VizTrace> t = LoadVizTrace(path);
  EXPECT_FALSE(t.ok()) << text;
  if (t.ok()) return "";
  EXPECT_THAT(std::string(t.status().message()), HasSubstr(path));
  return std::string(t.status().message());
}

// SmallTrace's JSON with `edit` applied.
std::string Edited(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = VizTraceToJson(SmallTrace());
  edit(j);
  return j.dump();
}

TEST(VizTraceJsonTest, RoundTripsThroughAFile) {
  const std::string path = TempPath("trace.json");
  ASSERT_TRUE(SaveVizTrace(SmallTrace(), path).ok());
  absl::StatusOr<VizTrace> back = LoadVizTrace(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, SmallTrace());
}

TEST(VizTraceJsonTest, WritesTheAgreedLayout) {
  nlohmann::json j = VizTraceToJson(SmallTrace());
  EXPECT_EQ(j["format"], "tinygrad-cc viz trace");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["nodes"][2], (nlohmann::json{{"op", "ADD"}, {"dtype", "dtypes.int"}, {"arg", ""}, {"src", {0, 1}}}));
  EXPECT_EQ(j["nodes"][4]["tag"], "1");
  EXPECT_TRUE(j["groups"][1]["program"].is_null());
  EXPECT_EQ(j["groups"][0]["program"]["linear"][0], "0: SINK");
  EXPECT_EQ(j["rewrites"][0]["input"], 3);
  EXPECT_EQ(j["rewrites"][0]["matches"][0]["before"], 2);
  EXPECT_EQ(j["match_stats"][0]["attempts"], 4);
}

TEST(VizTraceJsonTest, MissingFileIsAnError) {
  absl::StatusOr<VizTrace> t = LoadVizTrace(TempPath("does_not_exist.json"));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), HasSubstr("does_not_exist.json"));
}

TEST(VizTraceJsonTest, TruncatedAndGarbageFilesAreErrors) {
  std::string good = VizTraceToJson(SmallTrace()).dump();
  for (size_t n : {size_t{0}, size_t{1}, good.size() / 3, good.size() / 2, good.size() - 1})
    EXPECT_THAT(LoadError(good.substr(0, n)), HasSubstr("not a JSON file")) << n;
  EXPECT_THAT(LoadError("\x89PNG\r\n\x1a\n\xff\xfe garbage"), HasSubstr("not a JSON file"));
  EXPECT_THAT(LoadError("[1, 2, 3]"), HasSubstr("trace: is not an object"));
  // Deep nesting must not overflow the stack.
  EXPECT_THAT(LoadError(std::string(200000, '[') + std::string(200000, ']')), HasSubstr("is not an object"));
}

TEST(VizTraceJsonTest, OtherFormatsAndVersionsAreErrors) {
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["format"] = "chrome trace"; })), HasSubstr("format: is \"chrome trace\""));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["version"] = 2; })), HasSubstr("version: 2 is not supported"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j.erase("version"); })), HasSubstr("trace.version: is missing"));
}

TEST(VizTraceJsonTest, WrongTypesNameTheField) {
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["nodes"][1]["op"] = 7; })), HasSubstr("nodes[1].op: is not a string"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["nodes"][1]["op"] = ""; })), HasSubstr("nodes[1].op: is empty"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["nodes"] = "x"; })), HasSubstr("trace.nodes: is not an array"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["rewrites"][0]["depth"] = -1; })),
              HasSubstr("rewrites[0].depth: is not a non-negative integer"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["rewrites"][0]["bottom_up"] = "no"; })),
              HasSubstr("rewrites[0].bottom_up: is not true or false"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["rewrites"][0]["matches"][0]["ns"] = 1.5; })),
              HasSubstr("rewrites[0].matches[0].ns: is not a non-negative integer"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["groups"][0]["program"]["linear"][1] = nullptr; })),
              HasSubstr("groups[0].program.linear[1]: is not a string"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["groups"][0].erase("program"); })),
              HasSubstr("groups[0].program: is missing"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["match_stats"][0] = 3; })), HasSubstr("match_stats[0]: is not an object"));
}

TEST(VizTraceJsonTest, IdsOutOfRangeAreErrors) {
  // A source must come before its node (this also rules out cycles).
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["nodes"][2]["src"][1] = 2; })),
              HasSubstr("nodes[2].src[1]: 2 is not a node before 2"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["nodes"][2]["src"][1] = 1ULL << 63; })),
              HasSubstr("nodes[2].src[1]"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["rewrites"][0]["input"] = 5; })),
              HasSubstr("rewrites[0].input: 5 is not a node (there are 5)"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["rewrites"][0]["matches"][0]["after"] = 99; })),
              HasSubstr("rewrites[0].matches[0].after: 99 is not a node"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["rewrites"][0]["group"] = 2; })),
              HasSubstr("rewrites[0].group: 2 is not a group"));
  EXPECT_THAT(LoadError(Edited([](auto& j) { j["groups"][0]["rewrites"][0] = 1; })),
              HasSubstr("groups[0].rewrites[0]: 1 is not a rewrite"));
}

TEST(VizTraceJsonTest, SaveToAnUnwritablePlaceIsAnError) {
  absl::Status st = SaveVizTrace(SmallTrace(), TempPath("no_such_dir/trace.json"));
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("no_such_dir/trace.json"));
}

// The samples from real runs (make_samples.sh) load, and each kernel group has its program.
TEST(VizTraceJsonTest, SamplesLoad) {
  for (const char* name : {"sum", "softmax"}) {
    absl::StatusOr<VizTrace> t = LoadVizTrace(std::string("tinygrad/viz/testdata/") + name + ".json");
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_GE(t->groups.size(), 4u) << name;
    size_t programs = 0;
    for (const VizGroup& g : t->groups) programs += g.program.has_value();
    EXPECT_GE(programs, 2u) << name;
  }
}

}  // namespace
}  // namespace tg
