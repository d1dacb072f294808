// File: tests/browser/headless_browser_test.cc
// The harness against real headless Chromium, on a page served by tools/web. Skipped (visibly)
// where no chromium is installed.
#include "tests/browser/headless_browser.h"

#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/browser/launch_or_skip.h"
#include "tests/browser/test_page_assets.h"
#include "tools/web/local_server.h"

namespace tg::browser {
namespace {

using nlohmann::json;

class HeadlessBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = web::LocalServer::Start({}, [](httplib::Server& s) {
      web::ServeAssets(s, web::TestPageAssets());
      s.Get("/api/items", [](const httplib::Request&, httplib::Response& r) {
        web::SetJson(r, json::array({"alpha", "beta", "gamma"}));
      });
    });
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(server).value();
  }
  std::unique_ptr<web::LocalServer> server_;
};

TEST_F(HeadlessBrowserTest, NavigatesEvaluatesClicksAndWaits) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  absl::StatusOr<json> title = browser->Evaluate("document.title");
  ASSERT_TRUE(title.ok()) << title.status();
  EXPECT_EQ(*title, "headless browser test");

  // Values come back as JSON; promises are awaited; undefined is null.
  EXPECT_EQ(*browser->Evaluate("({n: 1 + 2, list: [true, 'x']})"),
            json({{"n", 3}, {"list", {true, "x"}}}));
  EXPECT_EQ(*browser->Evaluate("new Promise((ok) => setTimeout(() => ok(7), 10))"), 7);
  EXPECT_EQ(*browser->Evaluate("undefined"), nullptr);
  EXPECT_EQ(*browser->Evaluate("0 / 0"), "NaN");

  // The list is filled from /api/items after the load.
  ASSERT_TRUE(browser->WaitFor("document.querySelectorAll('#items li').length === 3").ok());
  EXPECT_EQ(*browser->Evaluate("[...document.querySelectorAll('#items li')].map(e => e.textContent)"),
            json({"alpha", "beta", "gamma"}));

  // The click changes the text a moment later: the test waits for it.
  EXPECT_EQ(*browser->Evaluate("document.getElementById('status').textContent"), "waiting");
  ASSERT_TRUE(browser->Click("#go").ok());
  absl::Status changed =
      browser->WaitFor("document.getElementById('status').textContent === 'clicked'");
  EXPECT_TRUE(changed.ok()) << changed;
  EXPECT_TRUE(browser->PageErrors().empty()) << browser->PageErrors().front();
}

TEST_F(HeadlessBrowserTest, ReadsTextCountsAndClicksByTextAndOnSvg) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  ASSERT_TRUE(browser->WaitFor("document.querySelectorAll('#items li').length === 3").ok());
  EXPECT_EQ(*browser->Count("#items li"), 3);
  EXPECT_EQ(*browser->Count(".nothing"), 0);
  EXPECT_EQ(*browser->Text("#items li:last-child"), "gamma");
  EXPECT_EQ(browser->Text("#nothing").status().code(), absl::StatusCode::kNotFound);

  // SVG elements have no click(): the harness sends them the event a mouse would.
  EXPECT_EQ(*browser->Text("#picked"), "none");
  ASSERT_TRUE(browser->ClickWithText("svg .node", "second").ok());
  EXPECT_EQ(*browser->Text("#picked"), "n2");
  ASSERT_TRUE(browser->Click("svg .node").ok());
  EXPECT_EQ(*browser->Text("#picked"), "n1");
  absl::Status none = browser->ClickWithText("svg .node", "third");
  EXPECT_EQ(none.code(), absl::StatusCode::kNotFound) << none;
  EXPECT_NE(none.message().find("\"third\""), std::string::npos) << none;
}

TEST_F(HeadlessBrowserTest, AJavaScriptExceptionIsAnErrorWithItsText) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  absl::StatusOr<json> thrown = browser->Evaluate("(() => { throw new Error('boom here'); })()");
  ASSERT_FALSE(thrown.ok());
  EXPECT_EQ(thrown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(thrown.status().message().find("boom here"), std::string::npos) << thrown.status();

  absl::StatusOr<json> undefined_name = browser->Evaluate("no_such_variable + 1");
  ASSERT_FALSE(undefined_name.ok());
  EXPECT_NE(undefined_name.status().message().find("no_such_variable is not defined"),
            std::string::npos)
      << undefined_name.status();

  absl::StatusOr<json> rejected = browser->Evaluate("Promise.reject(new Error('said no'))");
  ASSERT_FALSE(rejected.ok());
  EXPECT_NE(rejected.status().message().find("said no"), std::string::npos) << rejected.status();

  // The browser is still usable afterwards.
  EXPECT_EQ(*browser->Evaluate("2 * 21"), 42);
}

TEST_F(HeadlessBrowserTest, UncaughtPageErrorsAreCollected) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  ASSERT_TRUE(browser->Evaluate("setTimeout(() => { throw new Error('late failure'); }, 0); "
                                "console.error('logged', 3); 1")
                  .ok());
  ASSERT_TRUE(browser->WaitFor("new Promise((ok) => setTimeout(() => ok(true), 50))").ok());
  ASSERT_EQ(browser->PageErrors().size(), 2u);
  EXPECT_EQ(browser->PageErrors()[0], "console.error: logged 3");
  EXPECT_NE(browser->PageErrors()[1].find("late failure"), std::string::npos)
      << browser->PageErrors()[1];
}

TEST_F(HeadlessBrowserTest, ClickOnAMissingOrBadSelectorIsAnError) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  absl::Status missing = browser->Click("#no-such-button");
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound) << missing;
  EXPECT_NE(missing.message().find("#no-such-button"), std::string::npos) << missing;
  absl::Status bad = browser->Click("!!not a selector");
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << bad;
}

TEST_F(HeadlessBrowserTest, WaitForAConditionThatNeverHoldsEndsAtItsDeadline) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  absl::Status never =
      browser->WaitFor("document.getElementById('nothing').textContent === 'x'",
                       std::chrono::milliseconds(300));
  EXPECT_EQ(never.code(), absl::StatusCode::kDeadlineExceeded) << never;
  // The last exception says why it never held.
  EXPECT_NE(never.message().find("null"), std::string::npos) << never;
}

TEST_F(HeadlessBrowserTest, ScreenshotIsAPng) {
  LAUNCH_BROWSER_OR_SKIP(browser, {.viewport_width = 640, .viewport_height = 480});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  const std::filesystem::path path = TestOutputPath("headless_browser_test.png");
  absl::Status written = browser->Screenshot(path);
  ASSERT_TRUE(written.ok()) << written;
  std::ifstream in(path, std::ios::binary);
  const std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  // IHDR's width and height, big-endian, after the signature and the chunk's length and type.
  auto u32 = [&](size_t at) {
    return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
           (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
  };
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(u32(16), 640u);
  EXPECT_EQ(u32(20), 480u);
}

TEST_F(HeadlessBrowserTest, ANavigationThatFailsIsAnError) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  const int port = server_->port();
  server_->Stop();
  absl::Status refused = browser->Navigate("http://127.0.0.1:" + std::to_string(port) + "/");
  EXPECT_EQ(refused.code(), absl::StatusCode::kUnavailable) << refused;
  EXPECT_NE(refused.message().find("ERR_CONNECTION_REFUSED"), std::string::npos) << refused;
}

TEST_F(HeadlessBrowserTest, AHungPageFailsTheCallInsteadOfHangingTheTest) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  // An endless loop never answers: the deadline is all that ends the call.
  browser->set_command_timeout(std::chrono::seconds(2));
  absl::StatusOr<json> hung = browser->Evaluate("for (;;) {}");
  ASSERT_FALSE(hung.ok());
  EXPECT_EQ(hung.status().code(), absl::StatusCode::kDeadlineExceeded) << hung.status();
  EXPECT_NE(hung.status().message().find("Runtime.evaluate"), std::string::npos) << hung.status();
  // The destructor still closes the browser.
}

TEST_F(HeadlessBrowserTest, ABrowserThatDiesIsAnErrorWithItsExitStatus) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_EQ(::kill(browser->pid(), SIGKILL), 0);
  absl::StatusOr<json> after = browser->Evaluate("1");
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.status().code(), absl::StatusCode::kUnavailable) << after.status();
  EXPECT_NE(after.status().message().find("killed by signal 9"), std::string::npos)
      << after.status();
}

TEST_F(HeadlessBrowserTest, APageThatCrashesIsAnError) {
  LAUNCH_BROWSER_OR_SKIP(browser, {});
  ASSERT_TRUE(browser->Navigate(server_->url()).ok());
  // Page.crash kills the page's renderer; the browser reports Inspector.targetCrashed.
  absl::StatusOr<json> crash = browser->Command("Page.crash");
  ASSERT_FALSE(crash.ok());
  EXPECT_NE(crash.status().message().find("the page crashed"), std::string::npos) << crash.status();
  absl::StatusOr<json> after = browser->Evaluate("1");
  EXPECT_EQ(after.status().code(), absl::StatusCode::kFailedPrecondition) << after.status();
  EXPECT_NE(after.status().message().find("the page crashed"), std::string::npos) << after.status();
}

TEST(HeadlessBrowserLaunchTest, ABrowserThatCannotStartIsAnErrorWithItsExitStatus) {
  // `false` exits with status 1 at once, as a browser that cannot start would.
  const char* candidates[] = {"/bin/false", "/usr/bin/false"};
  for (const char* f : candidates) {
    if (::access(f, X_OK) != 0) continue;
    auto launched = HeadlessBrowser::Launch({.executable = f});
    ASSERT_FALSE(launched.ok());
    EXPECT_EQ(launched.status().code(), absl::StatusCode::kUnavailable) << launched.status();
    EXPECT_NE(launched.status().message().find("exited with status 1"), std::string::npos)
        << launched.status();
    return;
  }
  GTEST_SKIP() << "no `false` executable";
}

TEST(HeadlessBrowserLaunchTest, AMissingBrowserIsNotFoundNamingWhatWasLookedFor) {
  const char* old = ::getenv("CHROMIUM");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("CHROMIUM", "/nonexistent/chromium", 1);
  auto launched = HeadlessBrowser::Launch({});
  if (old != nullptr) {
    ::setenv("CHROMIUM", saved.c_str(), 1);
  } else {
    ::unsetenv("CHROMIUM");
  }
  ASSERT_FALSE(launched.ok());
  EXPECT_EQ(launched.status().code(), absl::StatusCode::kNotFound) << launched.status();
  EXPECT_NE(launched.status().message().find("CHROMIUM=/nonexistent/chromium"), std::string::npos)
      << launched.status();

  // With nothing on PATH either, the message names the programs it looked for.
  const char* old_path = ::getenv("PATH");
  const std::string saved_path = old_path != nullptr ? old_path : "";
  ::unsetenv("CHROMIUM");
  ::setenv("PATH", "", 1);
  absl::StatusOr<std::string> found = FindChromium({});
  ::setenv("PATH", saved_path.c_str(), 1);
  if (old != nullptr) ::setenv("CHROMIUM", saved.c_str(), 1);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(found.status().message().find("chromium, chromium-browser, google-chrome"),
            std::string::npos)
      << found.status();
}

}  // namespace
}  // namespace tg::browser
