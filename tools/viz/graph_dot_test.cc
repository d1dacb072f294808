// File: tools/viz/graph_dot_test.cc
#include "tools/viz/graph_dot.h"

#include <string>

#include "gtest/gtest.h"

namespace tg::viz {
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// MUL(LOAD(DEFINE_GLOBAL), CONST 2.0) under a SINK; the LOAD is "changed", the MUL "matched".
VizGraph SmallGraph() {
  VizGraph g;
  g.nodes.push_back({.id = 0, .op = "DEFINE_GLOBAL", .dtype = "dtypes.float.ptr(4)", .arg = "0"});
  g.nodes.push_back({.id = 1, .op = "LOAD", .dtype = "dtypes.float", .src = {0}, .changed = true});
  g.nodes.push_back({.id = 2, .op = "CONST", .dtype = "dtypes.float", .arg = "2.0"});
  g.nodes.push_back({.id = 3, .op = "MUL", .dtype = "dtypes.float", .src = {1, 2}, .changed = true, .matched = true});
  g.nodes.push_back({.id = 4, .op = "SINK", .dtype = "dtypes.void", .src = {3}});
  return g;
}

TEST(DotQuotedTest, EscapesEverythingGraphvizWouldRead) {
  EXPECT_EQ(DotQuoted("plain"), "\"plain\"");
  EXPECT_EQ(DotQuoted("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(DotQuoted("\\N \\G"), "\"\\\\N \\\\G\"");  // not Graphviz's node-name escapes
  EXPECT_EQ(DotQuoted("two\nlines"), "\"two\\nlines\"");
  EXPECT_EQ(DotQuoted(std::string("tab\tnul\0x", 9)), "\"tab?nul?x\"");
  EXPECT_EQ(DotQuoted("bad \xff utf-8 \xc3"), "\"bad ? utf-8 ?\"");
  EXPECT_EQ(DotQuoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // UTF-8 stays
  EXPECT_EQ(DotQuoted(std::string(1000, 'x'), 10), "\"xxxxxxxxxx...\"");
}

TEST(GraphToDotTest, FoldsConstantsIntoUsersAndMarksChangedNodes) {
  GraphDot dot = GraphToDot(SmallGraph());
  EXPECT_EQ(dot.drawn, 4u);  // the CONST is in MUL's label, not a node
  EXPECT_EQ(dot.changed, 2u);
  EXPECT_TRUE(Contains(dot.text, "label=\"MUL\\ndtypes.float\\nCONST1 2.0\"")) << dot.text;
  EXPECT_FALSE(Contains(dot.text, "n2 [")) << dot.text;
  EXPECT_TRUE(Contains(dot.text, "n3 [id=\"n3\" class=\"uop changed matched\"")) << dot.text;
  EXPECT_TRUE(Contains(dot.text, "n0 [id=\"n0\" class=\"uop\"")) << dot.text;
  EXPECT_TRUE(Contains(dot.text, "n1 -> n3")) << dot.text;
  EXPECT_FALSE(Contains(dot.text, "n2 -> n3")) << dot.text;
  EXPECT_FALSE(Contains(dot.text, "dtypes.void")) << dot.text;  // void is not shown
}

TEST(RenderDotToSvgTest, LaysOutTheGraphWithChangedNodesMarked) {
  absl::StatusOr<std::string> svg = RenderDotToSvg(GraphToDot(SmallGraph()).text);
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_TRUE(Contains(*svg, "<svg")) << *svg;
  for (const char* op : {">DEFINE_GLOBAL<", ">LOAD<", ">MUL<", ">SINK<", ">CONST1 2.0<"}) {
    EXPECT_TRUE(Contains(*svg, op)) << op << " in\n" << *svg;
  }
  EXPECT_TRUE(Contains(*svg, "id=\"n3\" class=\"node uop changed matched\"")) << *svg;
  EXPECT_TRUE(Contains(*svg, "id=\"n1\" class=\"node uop changed\"")) << *svg;
  EXPECT_TRUE(Contains(*svg, "id=\"n0\" class=\"node uop\"")) << *svg;
}

TEST(RenderDotToSvgTest, HostileLabelsAreEscapedNotInterpreted) {
  VizGraph g;
  g.nodes.push_back({.id = 0, .op = "CUSTOM", .dtype = "dtypes.void",
                     .arg = "<script>alert(1)</script> \"}]; digraph x { \\N \xfe\x01 &amp;"});
  g.nodes.push_back({.id = 1, .op = "SINK\" shape=none", .dtype = "dtypes.void", .arg = std::string(100000, 'y'), .src = {0}});
  absl::StatusOr<std::string> svg = RenderDotToSvg(GraphToDot(g).text);
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_FALSE(Contains(*svg, "<script>")) << *svg;
  EXPECT_TRUE(Contains(*svg, "&lt;script&gt;")) << *svg;
  EXPECT_TRUE(Contains(*svg, "SINK&quot; shape=none")) << *svg;
  EXPECT_LT(svg->size(), 20000u);  // the long arg was cut
}

TEST(RenderDotToSvgTest, TextThatIsNotDotIsAnError) {
  absl::StatusOr<std::string> svg = RenderDotToSvg("digraph { a -> ");
  EXPECT_FALSE(svg.ok());
  // and the context still works afterwards
  EXPECT_TRUE(RenderDotToSvg("digraph { a -> b }").ok());
}

}  // namespace
}  // namespace tg::viz
