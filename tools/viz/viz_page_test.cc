// File: tools/viz/viz_page_test.cc
// The VIZ page in headless Chromium on testdata/small_trace.json: the kernel list, clicking a
// kernel and a rewrite, stepping through its matches with the button and the arrow key, and
// what the page shows at each step (node count, rule) against the trace and the API; the
// source and match-stats tabs. Skips visibly without Chromium. Keeps a screenshot in the
// test's outputs (bazel-testlogs/tools/viz/viz_page_test/test.outputs/viz_page.png).
#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tests/browser/headless_browser.h"
#include "tests/browser/launch_or_skip.h"
#include "tinygrad/viz/viz_trace_json.h"
#include "tools/viz/graph_dot.h"
#include "tools/viz/viz_server.h"
#include "tools/web/local_server.h"

namespace tg::viz {
namespace {

// Waits until the graph shows `step` of `rewrite` (the page sets these last).
absl::Status WaitForStep(browser::HeadlessBrowser& b, int rewrite, int step) {
  return b.WaitFor(absl::StrCat("document.getElementById('graph').dataset.rewrite === '", rewrite,
                                "' && document.getElementById('graph').dataset.step === '", step, "'"));
}

TEST(VizPageTest, ClickAKernelAndARewriteAndStepThroughItsMatches) {
  absl::StatusOr<VizTrace> loaded = LoadVizTrace("tools/viz/testdata/small_trace.json");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const VizTrace trace = *loaded;
  VizApi api(trace);
  auto server = web::LocalServer::Start({}, [&](httplib::Server& s) { api.AddRoutes(s); });
  ASSERT_TRUE(server.ok()) << server.status();
  LAUNCH_BROWSER_OR_SKIP(browser, {.viewport_width = 1400, .viewport_height = 900});

  ASSERT_TRUE(browser->Navigate((*server)->url()).ok());
  ASSERT_TRUE(browser->WaitFor("document.body.dataset.ready === '1'").ok());
  // One entry per group of the trace, with its rewrites.
  ASSERT_EQ(browser->Count(".kernel").value_or(-1), static_cast<int>(trace.groups.size()));
  EXPECT_EQ(browser->Text(".kernel[data-kernel='0'] .kernel-name").value_or("<none>"), trace.groups[0].name + " (2)");
  EXPECT_EQ(browser->Count(".kernel[data-kernel='0'] .rewrite").value_or(-1), static_cast<int>(trace.groups[0].rewrites.size()));

  ASSERT_TRUE(browser->Click(".kernel[data-kernel='0'] .kernel-name").ok());
  ASSERT_TRUE(browser->WaitFor("document.querySelector(\".kernel[data-kernel='0']\").classList.contains('expanded')").ok());
  ASSERT_TRUE(browser->Click(".rewrite[data-rewrite='0']").ok());
  ASSERT_TRUE(WaitForStep(*browser, 0, 0).ok());
  const VizRewrite& symbolic = trace.rewrites[0];
  EXPECT_EQ(browser->Text("#rewrite-name").value_or("<none>"), symbolic.name);
  EXPECT_EQ(browser->Text("#step-label").value_or("<none>"), absl::StrCat("step 0 / ", symbolic.matches.size()));
  EXPECT_EQ(browser->Text("#rule-name").value_or("<none>"), "(input graph)");
  // The node count shown is the API's, and as many nodes are drawn.
  for (int step = 0; step <= 2; ++step) {
    if (step == 1) {
      ASSERT_TRUE(browser->Click("#next-step").ok());
    } else if (step == 2) {
      ASSERT_TRUE(browser->Evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))").ok());
    }
    ASSERT_TRUE(WaitForStep(*browser, 0, step).ok()) << "step " << step;
    ApiReply reply = api.Step(0, step);
    ASSERT_EQ(reply.status, 200);
    const int nodes = reply.body["node_count"];
    EXPECT_EQ(browser->Text("#node-count").value_or("<none>"), std::to_string(nodes)) << "step " << step;
    EXPECT_EQ(browser->Count("#graph svg g.node").value_or(-1), nodes) << "step " << step;
    EXPECT_EQ(browser->Count("#graph svg g.node.changed").value_or(-1), reply.body["changed_count"].get<int>()) << "step " << step;
    if (step > 0) {
      EXPECT_EQ(browser->Text("#rule-name").value_or("<none>"), symbolic.matches[step - 1].rule) << "step " << step;
      EXPECT_EQ(browser->Text("#rule-function").value_or("<none>"), symbolic.matches[step - 1].function);
    }
  }
  EXPECT_EQ(browser->Text("#node-count").value_or("<none>"), "7");  // x*1+0 -> x: MUL and ADD are gone
  EXPECT_EQ(browser->Count("#next-step:disabled").value_or(-1), 1);  // the last step
  ASSERT_TRUE(browser->Screenshot(browser::TestOutputPath("viz_page.png")).ok());

  // The kernel's source and linear program.
  ASSERT_TRUE(browser->Click("#tab-code").ok());
  ASSERT_TRUE(browser->WaitFor("document.getElementById('program-source').textContent.includes('void E_16(')").ok());
  EXPECT_EQ(browser->Count("#panel-code.active").value_or(-1), 1);
  // The match-stats table, a row per rule.
  ASSERT_TRUE(browser->Click("#tab-stats").ok());
  ASSERT_TRUE(browser->WaitFor("document.querySelectorAll('#match-stats tbody tr').length === 2").ok());
  EXPECT_EQ(browser->Text("#match-stats tbody tr:first-child td:first-child").value_or("<none>"), "tinygrad/uop/symbolic/symbolic.cc:41");
  EXPECT_TRUE(browser->PageErrors().empty()) << browser->PageErrors().front();
}

TEST(VizPageTest, AnAddressNamingAStepOpensIt) {
  absl::StatusOr<VizTrace> trace = LoadVizTrace("tools/viz/testdata/small_trace.json");
  ASSERT_TRUE(trace.ok()) << trace.status();
  VizApi api(*std::move(trace));
  auto server = web::LocalServer::Start({}, [&](httplib::Server& s) { api.AddRoutes(s); });
  ASSERT_TRUE(server.ok()) << server.status();
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate((*server)->url() + "#k=0&r=0&s=2").ok());
  ASSERT_TRUE(WaitForStep(*browser, 0, 2).ok());
  EXPECT_EQ(browser->Text("#rule-name").value_or("<none>"), "tinygrad/uop/symbolic/symbolic.cc:38");
  // Up at the first rewrite stays; Down opens the kernel's next rewrite at step 0.
  ASSERT_TRUE(browser->Evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown'}))").ok());
  ASSERT_TRUE(WaitForStep(*browser, 1, 0).ok());
  EXPECT_EQ(browser->Text("#rewrite-name").value_or("<none>"), "linearize");
  EXPECT_TRUE(browser->PageErrors().empty()) << browser->PageErrors().front();
}

// A step the server answers 503 (another graph's layout kept it waiting) says why on the page,
// then is asked for again and shown once that layout is done.
TEST(VizPageTest, AStepKeptWaitingByAnotherLayoutIsShownWhenItEnds) {
  absl::StatusOr<VizTrace> trace = LoadVizTrace("tools/viz/testdata/small_trace.json");
  ASSERT_TRUE(trace.ok()) << trace.status();
  absl::Notification started, release;
  std::atomic<bool> first = true;
  VizOptions options;
  options.layout_wait = absl::Milliseconds(50);
  options.layout = [&](const std::string& dot) {
    if (first.exchange(false)) {
      started.Notify();
      release.WaitForNotification();
    }
    return RenderDotToSvg(dot);
  };
  VizApi api(*std::move(trace), options);
  auto server = web::LocalServer::Start({}, [&](httplib::Server& s) { api.AddRoutes(s); });
  ASSERT_TRUE(server.ok()) << server.status();
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  std::thread slow([&] { EXPECT_EQ(api.Step(0, 1).status, 200); });
  started.WaitForNotification();
  ASSERT_TRUE(browser->Navigate((*server)->url() + "#k=0&r=0&s=2").ok());
  EXPECT_TRUE(browser->WaitFor("document.getElementById('graph-message').textContent.includes('is being laid out')").ok())
      << browser->Text("#graph-message").value_or("<none>");
  release.Notify();
  slow.join();
  ASSERT_TRUE(WaitForStep(*browser, 0, 2).ok()) << browser->Text("#graph-message").value_or("<none>");
  EXPECT_EQ(browser->Text("#graph-message").value_or("<none>"), "");
  EXPECT_EQ(browser->Count("#graph svg g.node").value_or(-1), 7);
  EXPECT_TRUE(browser->PageErrors().empty()) << browser->PageErrors().front();
}

}  // namespace
}  // namespace tg::viz
