// File: tests/browser/launch_or_skip.h
// LAUNCH_BROWSER_OR_SKIP(var, options): in a gtest body (or SetUp), declares
// `std::unique_ptr<tg::browser::HeadlessBrowser> var` with a launched browser. Without a
// browser on the machine the test is skipped with the reason (a visible SKIPPED, never a silent
// pass); any other failure to launch fails the test.
//
// TestOutputPath(name): where a test keeps a file for people to look at afterwards (a
// screenshot): Bazel's $TEST_UNDECLARED_OUTPUTS_DIR (bazel-testlogs/<test>/test.outputs/), or
// the test's temporary directory outside Bazel.
//
// Example:
//   TEST(VizPageTest, ShowsKernels) {
//     LAUNCH_BROWSER_OR_SKIP(browser, {});
//     ASSERT_TRUE(browser->Navigate(url).ok());
//     EXPECT_TRUE(browser->Screenshot(tg::browser::TestOutputPath("viz.png")).ok());
//   }
#ifndef TESTS_BROWSER_LAUNCH_OR_SKIP_H_
#define TESTS_BROWSER_LAUNCH_OR_SKIP_H_

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/browser/headless_browser.h"

namespace tg::browser {

inline std::filesystem::path TestOutputPath(std::string_view name) {
  const char* dir = ::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  return std::filesystem::path(dir != nullptr && *dir != '\0' ? dir : ::testing::TempDir()) / name;
}

}  // namespace tg::browser

#define LAUNCH_BROWSER_OR_SKIP(var, ...)                                                    \
  std::unique_ptr<::tg::browser::HeadlessBrowser> var;                                      \
  do {                                                                                      \
    auto tg_launched_ = ::tg::browser::HeadlessBrowser::Launch(                             \
        ::tg::browser::LaunchOptions __VA_ARGS__);                                          \
    if (::absl::IsNotFound(tg_launched_.status())) {                                        \
      GTEST_SKIP() << "chromium not found: " << tg_launched_.status().message();           \
    }                                                                                       \
    ASSERT_TRUE(tg_launched_.ok()) << tg_launched_.status();                                \
    var = std::move(tg_launched_).value();                                                  \
  } while (0)

#endif  // TESTS_BROWSER_LAUNCH_OR_SKIP_H_
