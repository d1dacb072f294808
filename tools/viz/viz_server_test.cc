// File: tools/viz/viz_server_test.cc
// The VIZ API over HTTP on a hand-written trace (testdata/small_trace.json: one kernel whose
// "symbolic" rewrite makes two matches, x*1 -> x and x+0 -> x, and a schedule group), and on
// traces too big or too odd to draw.
#include "tools/viz/viz_server.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tinygrad/viz/viz_trace_json.h"
#include "tools/web/local_server.h"

namespace tg::viz {
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class VizServerTest : public ::testing::Test {
 protected:
  void Serve(VizTrace trace, VizOptions options = {}) {
    api_ = std::make_unique<VizApi>(std::move(trace), options);
    auto server = web::LocalServer::Start({}, [&](httplib::Server& s) { api_->AddRoutes(s); });
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }
  void ServeSmallTrace() {
    absl::StatusOr<VizTrace> trace = LoadVizTrace("tools/viz/testdata/small_trace.json");
    ASSERT_TRUE(trace.ok()) << trace.status();
    Serve(*std::move(trace));
  }
  // GET `path`: the status and the JSON body.
  std::pair<int, nlohmann::json> Get(const std::string& path) {
    httplib::Result r = client_->Get(path);
    if (!r) return {-1, nullptr};
    return {r->status, nlohmann::json::parse(r->body, nullptr, false)};
  }

  std::unique_ptr<VizApi> api_;
  std::unique_ptr<web::LocalServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(VizServerTest, KernelListHasEachGroupsRewritesAndMatchCounts) {
  ServeSmallTrace();
  auto [status, body] = Get("/api/kernels");
  ASSERT_EQ(status, 200);
  const nlohmann::json& kernels = body["kernels"];
  ASSERT_EQ(kernels.size(), 2u) << body;
  EXPECT_EQ(kernels[0]["name"], "E_16");
  EXPECT_EQ(kernels[0]["program"], true);
  ASSERT_EQ(kernels[0]["rewrites"].size(), 2u);
  EXPECT_EQ(kernels[0]["rewrites"][0]["name"], "symbolic");
  EXPECT_EQ(kernels[0]["rewrites"][0]["matches"], 2);
  EXPECT_EQ(kernels[0]["rewrites"][1]["name"], "linearize");
  EXPECT_EQ(kernels[0]["rewrites"][1]["depth"], 1);
  EXPECT_EQ(kernels[1]["name"], "Schedule 1 Kernel");
  EXPECT_EQ(kernels[1]["program"], false);
  EXPECT_EQ(kernels[1]["rewrites"][0]["rewrite"], 2);
}

TEST_F(VizServerTest, EachStepIsTheGraphAfterThatManyMatchesWithItsRule) {
  ServeSmallTrace();
  auto [status0, step0] = Get("/api/step?rewrite=0&step=0");
  ASSERT_EQ(status0, 200) << step0;
  EXPECT_EQ(step0["steps"], 3);
  EXPECT_TRUE(step0["rule"].is_null());
  // DEFINE_GLOBAL x2, INDEX x2, LOAD, MUL, ADD, STORE, SINK; the three CONSTs are in labels.
  EXPECT_EQ(step0["node_count"], 9);
  EXPECT_EQ(step0["changed_count"], 0);
  const std::string svg0 = step0["svg"];
  for (const char* op : {">MUL<", ">ADD<", ">LOAD<", ">STORE<", ">SINK<", ">CONST1 1.0<"}) {
    EXPECT_TRUE(Contains(svg0, op)) << op;
  }
  EXPECT_FALSE(Contains(svg0, "changed"));

  auto [status1, step1] = Get("/api/step?rewrite=0&step=1");
  ASSERT_EQ(status1, 200) << step1;
  EXPECT_EQ(step1["rule"], "tinygrad/uop/symbolic/symbolic.cc:41");
  EXPECT_EQ(step1["function"], "SymbolicSimple");
  EXPECT_TRUE(Contains(step1["code"], "x*1 -> x")) << step1["code"];
  EXPECT_EQ(step1["before"]["op"], "MUL");
  EXPECT_EQ(step1["after"]["op"], "LOAD");
  EXPECT_EQ(step1["node_count"], 8);  // the MUL is gone
  EXPECT_GT(step1["changed_count"], 0);
  const std::string svg1 = step1["svg"];
  EXPECT_FALSE(Contains(svg1, ">MUL<"));
  EXPECT_TRUE(Contains(svg1, "uop changed")) << svg1;

  auto [status2, step2] = Get("/api/step?rewrite=0&step=2");
  ASSERT_EQ(status2, 200);
  EXPECT_EQ(step2["rule"], "tinygrad/uop/symbolic/symbolic.cc:38");
  EXPECT_EQ(step2["node_count"], 7);  // and the ADD
  EXPECT_FALSE(Contains(step2["svg"], ">ADD<"));

  // a second request is served from the cache, the same
  EXPECT_EQ(Get("/api/step?rewrite=0&step=1").second, step1);
}

TEST_F(VizServerTest, RewriteListsTheRuleOfEachStep) {
  ServeSmallTrace();
  auto [status, body] = Get("/api/rewrite?rewrite=0");
  ASSERT_EQ(status, 200);
  EXPECT_EQ(body["name"], "symbolic");
  EXPECT_EQ(body["steps"], 3);
  ASSERT_EQ(body["matches"].size(), 2u);
  EXPECT_EQ(body["matches"][1]["rule"], "tinygrad/uop/symbolic/symbolic.cc:38");
  EXPECT_EQ(body["matches"][0]["ns"], 1200);
}

TEST_F(VizServerTest, StepsAndIndexesOutOfRangeAre404sWithAMessage) {
  ServeSmallTrace();
  auto [s1, b1] = Get("/api/step?rewrite=0&step=3");
  EXPECT_EQ(s1, 404);
  EXPECT_EQ(b1["error"], "rewrite 0 (symbolic) has steps 0..2, not 3");
  auto [s2, b2] = Get("/api/step?rewrite=99&step=0");
  EXPECT_EQ(s2, 404);
  EXPECT_EQ(b2["error"], "no rewrite 99: the trace has 3");
  EXPECT_EQ(Get("/api/rewrite?rewrite=3").first, 404);
  auto [s3, b3] = Get("/api/program?kernel=1");
  EXPECT_EQ(s3, 404);
  EXPECT_EQ(b3["error"], "Schedule 1 Kernel made no program");
  EXPECT_EQ(Get("/api/program?kernel=2").first, 404);
}

TEST_F(VizServerTest, MalformedParametersAre400s) {
  ServeSmallTrace();
  for (const char* path : {"/api/step?rewrite=0&step=-1", "/api/step?rewrite=x&step=0", "/api/step?rewrite=0",
                           "/api/step?rewrite=0&step=99999999999999999999999", "/api/rewrite", "/api/program?kernel=1e3"}) {
    auto [status, body] = Get(path);
    EXPECT_EQ(status, 400) << path;
    EXPECT_TRUE(Contains(body.value("error", ""), "must be a non-negative integer")) << path << " " << body;
  }
}

TEST_F(VizServerTest, ProgramIsTheSourceAndLinearProgram) {
  ServeSmallTrace();
  auto [status, body] = Get("/api/program?kernel=0");
  ASSERT_EQ(status, 200);
  EXPECT_EQ(body["name"], "E_16");
  EXPECT_EQ(body["device"], "CPU");
  EXPECT_TRUE(Contains(body["source"], "void E_16("));
  EXPECT_EQ(body["linear"].size(), 8u);
}

TEST_F(VizServerTest, MatchStatsSlowestFirst) {
  ServeSmallTrace();
  auto [status, body] = Get("/api/match_stats");
  ASSERT_EQ(status, 200);
  ASSERT_EQ(body["rows"].size(), 2u);
  EXPECT_EQ(body["rows"][0]["rule"], "tinygrad/uop/symbolic/symbolic.cc:41");
  EXPECT_EQ(body["rows"][0]["ns"], 1200);
  EXPECT_EQ(body["rows"][1]["attempts"], 9);
  EXPECT_TRUE(Contains(body["rows"][1]["code"], "x+0 -> x"));
}

TEST_F(VizServerTest, ThePageIsServed) {
  ServeSmallTrace();
  httplib::Result index = client_->Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_TRUE(Contains(index->body, "id=\"kernel-list\""));
  httplib::Result js = client_->Get("/viz.js");
  ASSERT_TRUE(js);
  EXPECT_TRUE(Contains(js->body, "/api/step?rewrite="));
}

// A chain of `n` ADDs under a SINK, as trace JSON; the rewrite has one match, ADD 1 -> its source.
nlohmann::json ChainTrace(int n, const std::string& arg) {
  nlohmann::json nodes = nlohmann::json::array();
  nodes.push_back({{"op", "DEFINE_VAR"}, {"dtype", "dtypes.int"}, {"arg", arg}, {"src", nlohmann::json::array()}});
  for (int i = 1; i <= n; ++i) {
    // distinct args: the replay must not hash-cons a rebuilt ADD into the matched one
    nodes.push_back({{"op", "ADD"}, {"dtype", "dtypes.int"}, {"arg", absl::StrCat(arg, i)}, {"src", {i - 1, i - 1}}});
  }
  nodes.push_back({{"op", "SINK"}, {"dtype", "dtypes.void"}, {"arg", ""}, {"src", {n}}});
  return {{"format", "tinygrad-cc viz trace"}, {"version", 1}, {"nodes", nodes},
          {"groups", {{{"name", "big"}, {"rewrites", {0}}, {"program", nullptr}}}},
          {"rewrites", {{{"name", "symbolic"}, {"group", 0}, {"depth", 0}, {"bottom_up", false},
                         {"input", n + 1}, {"output", n + 1},
                         {"matches", {{{"rule", "r.cc:1"}, {"function", "f"}, {"before", 1}, {"after", 0}, {"ns", 5}}}}}}},
          {"match_stats", nlohmann::json::array()}};
}

// While one graph is laid out (a stand-in layout that waits to be let go), the page, the API
// and drawn steps are answered at once; another step waits layout_wait, then is told why with a
// 503 rather than holding a server thread; once the layout ends, that step is drawn.
TEST_F(VizServerTest, ALongLayoutHoldsUpNoOtherRequest) {
  absl::StatusOr<VizTrace> trace = LoadVizTrace("tools/viz/testdata/small_trace.json");
  ASSERT_TRUE(trace.ok()) << trace.status();
  absl::Notification started, release;
  std::atomic<int> layouts = 0;
  VizOptions options;
  options.layout_wait = absl::Milliseconds(50);
  options.layout = [&](const std::string&) -> absl::StatusOr<std::string> {
    if (layouts++ == 1) {
      started.Notify();
      release.WaitForNotification();
    }
    return std::string("<svg>stand-in</svg>");
  };
  Serve(*std::move(trace), options);
  ASSERT_EQ(Get("/api/step?rewrite=0&step=0").first, 200);  // the first layout: quick, then cached

  int slow_status = 0;
  std::thread slow([&] {
    httplib::Client client("127.0.0.1", server_->port());
    client.set_read_timeout(600, 0);  // as long as the test takes to let the layout go
    httplib::Result r = client.Get("/api/step?rewrite=0&step=1");
    slow_status = r ? r->status : -1;
  });
  started.WaitForNotification();
  EXPECT_EQ(Get("/api/kernels").first, 200);
  EXPECT_EQ(Get("/").first, 200);
  EXPECT_EQ(Get("/api/program?kernel=0").first, 200);
  EXPECT_EQ(Get("/api/step?rewrite=0&step=0").first, 200) << "a drawn step comes from the cache";
  auto [busy_status, busy] = Get("/api/step?rewrite=0&step=2");
  EXPECT_EQ(busy_status, 503) << busy;
  EXPECT_TRUE(Contains(busy.value("error", ""), "another graph (8 nodes) is being laid out")) << busy;
  EXPECT_TRUE(Contains(busy.value("error", ""), "waited 50ms for it: ask again")) << busy;
  release.Notify();
  slow.join();
  EXPECT_EQ(slow_status, 200);
  auto [status, step] = Get("/api/step?rewrite=0&step=2");
  EXPECT_EQ(status, 200) << step;
  EXPECT_EQ(step["svg"], "<svg>stand-in</svg>");
  EXPECT_EQ(layouts, 3);
}

TEST_F(VizServerTest, AGraphOverTheNodeLimitIsNotDrawnButAnswered) {
  absl::StatusOr<VizTrace> trace = VizTraceFromJson(ChainTrace(5000, ""));
  ASSERT_TRUE(trace.ok()) << trace.status();
  Serve(*std::move(trace), {.max_nodes = 2000});
  for (const char* path : {"/api/step?rewrite=0&step=0", "/api/step?rewrite=0&step=1"}) {
    auto [status, body] = Get(path);
    ASSERT_EQ(status, 200) << path;
    EXPECT_TRUE(body["svg"].is_null());
    EXPECT_GT(body["node_count"], 2000);
    EXPECT_TRUE(Contains(body["message"], "graphs over 2000 nodes are not drawn")) << body;
  }
}

TEST_F(VizServerTest, HostileTextInTheTraceIsEscaped) {
  const std::string arg = "</text><script>alert(1)</script>\"]; } digraph { \\N \xff\xfe\x01";
  absl::StatusOr<VizTrace> trace = VizTraceFromJson(ChainTrace(3, arg));
  ASSERT_TRUE(trace.ok()) << trace.status();
  Serve(*std::move(trace));
  httplib::Result r = client_->Get("/api/step?rewrite=0&step=1");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  nlohmann::json body = nlohmann::json::parse(r->body, nullptr, false);
  ASSERT_FALSE(body.is_discarded()) << r->body;  // valid JSON despite the bytes
  ASSERT_TRUE(body["svg"].is_string()) << body;
  EXPECT_FALSE(Contains(body["svg"], "<script>"));
  EXPECT_TRUE(Contains(body["svg"], "&lt;script&gt;"));
  EXPECT_EQ(body["node_count"], 4);
}

// A trace of a real run (tinygrad/viz/testdata/sum.json, tg run sum --n 4096): every rewrite's
// first, second and last step is answered, drawn (or said to be too big), with the rule's name.
TEST_F(VizServerTest, EveryRewriteOfARealRunIsShown) {
  absl::StatusOr<VizTrace> trace = LoadVizTrace("tinygrad/viz/testdata/sum.json");
  ASSERT_TRUE(trace.ok()) << trace.status();
  const VizTrace copy = *trace;
  Serve(*std::move(trace));
  auto [status, kernels] = Get("/api/kernels");
  ASSERT_EQ(status, 200);
  ASSERT_EQ(kernels["kernels"].size(), copy.groups.size());
  int drawn = 0;
  for (size_t r = 0; r < copy.rewrites.size(); ++r) {
    const size_t last = copy.rewrites[r].matches.size();
    for (size_t step : {size_t{0}, std::min<size_t>(1, last), last}) {
      auto [s, body] = Get(absl::StrCat("/api/step?rewrite=", r, "&step=", step));
      ASSERT_EQ(s, 200) << r << " " << step << " " << body;
      EXPECT_GT(body["node_count"], 0) << r << " " << step;
      EXPECT_TRUE(body["svg"].is_string() || body.contains("message")) << r << " " << step;
      drawn += body["svg"].is_string();
      if (step > 0) EXPECT_EQ(body["rule"], copy.rewrites[r].matches[step - 1].rule);
    }
  }
  EXPECT_GT(drawn, 0);
  for (size_t k = 0; k < copy.groups.size(); ++k) {
    EXPECT_EQ(Get(absl::StrCat("/api/program?kernel=", k)).first, copy.groups[k].program ? 200 : 404);
  }
}

}  // namespace
}  // namespace tg::viz
