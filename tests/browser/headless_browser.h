// File: tests/browser/headless_browser.h
// Headless Chromium for the tests of tg's local web pages (VIZ, the tuning dashboard): a small
// client of the Chrome DevTools Protocol (CDP) over --remote-debugging-pipe. Chromium reads
// NUL-terminated JSON commands on its fd 3 and writes replies and events on its fd 4, so no
// websocket, no npm and no port is involved.
//
// Every read from the browser has a deadline (LaunchOptions::command_timeout, or the WaitFor
// timeout): a hung page or browser fails the call with DeadlineExceeded instead of hanging the
// test, and a browser that exits fails it with its exit status and the end of its log. The
// timeouts are deadlines for a hang, not speed assertions: keep them generous.
//
// Example (a gtest; LAUNCH_BROWSER_OR_SKIP is in launch_or_skip.h):
//   auto server = tg::web::LocalServer::Start({}, [](httplib::Server& s) {
//     tg::web::ServeAssets(s, VizAssets());
//   });
//   ASSERT_TRUE(server.ok()) << server.status();
//   LAUNCH_BROWSER_OR_SKIP(browser, {});  // skips visibly when there is no chromium
//   ASSERT_TRUE(browser->Navigate((*server)->url()).ok());
//   ASSERT_TRUE(browser->ClickWithText("#kernels li", "r_16_4").ok());
//   ASSERT_TRUE(browser->WaitFor("document.querySelectorAll('svg .node').length > 0").ok());
//   EXPECT_EQ(*browser->Count("svg .node"), 12);
//   EXPECT_EQ(*browser->Text("#rule"), "fold_const");
//   absl::StatusOr<nlohmann::json> steps = browser->Evaluate("window.trace.steps.map(s => s.name)");
//   EXPECT_TRUE(browser->Screenshot(tg::browser::TestOutputPath("viz.png")).ok());
//   EXPECT_TRUE(browser->PageErrors().empty());
//
// Not thread-safe: one thread drives one browser. Several browsers may run side by side.
#ifndef TESTS_BROWSER_HEADLESS_BROWSER_H_
#define TESTS_BROWSER_HEADLESS_BROWSER_H_

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tinygrad/base/unique_fd.h"

namespace tg::browser {

struct LaunchOptions {
  // The browser's executable. Empty: $CHROMIUM if set, else the first of chromium,
  // chromium-browser, google-chrome, google-chrome-stable on $PATH.
  std::string executable;
  // How long one command (a navigation with its load, an evaluation, a screenshot) may take
  // before the call fails as hung. Also bounds starting the browser.
  std::chrono::milliseconds command_timeout{60000};
  // The page's viewport in CSS pixels (at device scale 1): the size of a screenshot.
  int viewport_width = 1280;
  int viewport_height = 800;
  std::vector<std::string> extra_args;  // appended to the command line
};

// What Launch looks for, in the order it looks: for its NotFound message and for tests.
// Returns the executable's path, or NotFound naming $CHROMIUM or the names and the $PATH searched.
absl::StatusOr<std::string> FindChromium(const LaunchOptions& options);

class HeadlessBrowser {
 public:
  // Starts the browser (--headless=new, --no-sandbox since tests run as root, a fresh profile in
  // a temporary directory with HOME, XDG dirs and TMPDIR pointing into it) and attaches to a new
  // page with the viewport asked for. The temporary directory is made under $TEST_TMPDIR, else
  // $TMPDIR, else /tmp: the first short enough for Chromium's UNIX socket (Bazel's TEST_TMPDIR
  // is not). Errors: NotFound when there is no browser (see FindChromium), InvalidArgument for
  // an empty viewport, else the failure to start or to talk to it (with its exit status).
  static absl::StatusOr<std::unique_ptr<HeadlessBrowser>> Launch(const LaunchOptions& options);
  // Closes the browser (Browser.close, then SIGKILL to its process group if it lingers), reaps
  // it and deletes the temporary directory.
  ~HeadlessBrowser();
  HeadlessBrowser(const HeadlessBrowser&) = delete;
  HeadlessBrowser& operator=(const HeadlessBrowser&) = delete;

  // Loads `url` in the page and waits for its load event. Errors: the navigation's (a refused
  // connection, a bad URL), or no load event within the command timeout.
  absl::Status Navigate(const std::string& url);

  // Evaluates a JavaScript expression in the page and returns its value as JSON (a promise is
  // awaited; undefined is null; NaN and the infinities are their names as strings). A thrown
  // exception is InvalidArgument with the exception's text.
  absl::StatusOr<nlohmann::json> Evaluate(const std::string& expression);

  // Evaluates `predicate` until it is truthy, every 50 ms, for at most `timeout` (then
  // DeadlineExceeded with the last value or exception). A predicate that throws counts as false
  // (the element it reads may not exist yet); a browser that fails or hangs (an evaluation
  // unanswered for the command timeout) ends the wait at once.
  absl::Status WaitFor(const std::string& predicate,
                       std::chrono::milliseconds timeout = std::chrono::seconds(30));

  // Clicks the first element matching a CSS selector: element.click() on HTML, a bubbling click
  // MouseEvent on SVG (a graph's node). NotFound when nothing matches; InvalidArgument for a
  // selector the browser cannot parse.
  absl::Status Click(const std::string& selector);
  // Clicks the first element matching `selector` whose text contains `text` ("a kernel named
  // r_16_4"). NotFound when there is none.
  absl::Status ClickWithText(const std::string& selector, const std::string& text);

  // The textContent of the first element matching `selector`; NotFound when nothing matches.
  absl::StatusOr<std::string> Text(const std::string& selector);
  // How many elements match `selector` (0 is not an error).
  absl::StatusOr<int> Count(const std::string& selector);

  // The page's viewport as a PNG.
  absl::StatusOr<std::string> ScreenshotPng();
  // ScreenshotPng() written to `path`.
  absl::Status Screenshot(const std::filesystem::path& path);

  // Uncaught exceptions and console.error() messages of the page since launch, in order, for
  // `EXPECT_TRUE(browser->PageErrors().empty())`.
  const std::vector<std::string>& PageErrors() const { return page_errors_; }

  // Sends any CDP command to the page's session (`method` such as "Emulation.setDeviceMetrics
  // Override") and returns its result. CDP errors are Internal with the browser's message.
  absl::StatusOr<nlohmann::json> Command(const std::string& method,
                                         const nlohmann::json& params = nlohmann::json::object());

  void set_command_timeout(std::chrono::milliseconds t) { command_timeout_ = t; }
  pid_t pid() const { return pid_; }
  const std::string& executable() const { return executable_; }

 private:
  using Clock = std::chrono::steady_clock;
  HeadlessBrowser() = default;

  // Sends a command (to the page's session when `to_page`, else to the browser) and
  // reads messages until its reply, handling events on the way, until `deadline`.
  absl::StatusOr<nlohmann::json> Send(const std::string& method, const nlohmann::json& params,
                                      bool to_page, Clock::time_point deadline);
  absl::Status WriteMessage(const std::string& text, Clock::time_point deadline,
                            const std::string& method);
  // Reads one message; DeadlineExceeded naming `waiting_for` at the deadline, Unavailable with
  // the exit status when the browser is gone.
  absl::StatusOr<nlohmann::json> ReadMessage(Clock::time_point deadline,
                                             const std::string& waiting_for);
  void HandleEvent(const nlohmann::json& message);
  absl::StatusOr<nlohmann::json> EvaluateUntil(const std::string& expression,
                                               Clock::time_point deadline);
  // "chromium exited with status 1" / "... was killed by signal 9", and the end of its log.
  std::string DescribeExit();
  // Whether the browser's main process has exited, looking for up to `wait`; it is not reaped
  // (the destructor does that after killing its process group).
  bool Exited(std::chrono::milliseconds wait);

  std::string executable_;
  std::filesystem::path temp_dir_;
  pid_t pid_ = -1;
  int exit_code_ = 0;   // siginfo si_code once exited: CLD_EXITED, CLD_KILLED, CLD_DUMPED
  int exit_value_ = 0;  // its si_status: the exit status or the signal
  UniqueFd to_browser_;    // our end of the browser's fd 3
  UniqueFd from_browser_;  // our end of the browser's fd 4
  std::string read_buffer_;
  std::string session_id_;
  int next_id_ = 1;
  std::chrono::milliseconds command_timeout_{60000};
  bool load_fired_ = false;
  std::string page_gone_;  // why the page is gone (crash, detach); empty while it is fine
  std::vector<std::string> page_errors_;
};

}  // namespace tg::browser

#endif  // TESTS_BROWSER_HEADLESS_BROWSER_H_
