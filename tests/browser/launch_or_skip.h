// File: tests/browser/launch_or_skip.h
// LAUNCH_BROWSER_OR_SKIP(var, options): in a gtest body (or SetUp), declares
// `std::unique_ptr<tg::browser::HeadlessBrowser> var` with a launched browser. Without a
// browser on the machine the test is skipped with the reason (a visible SKIPPED, never a silent
// pass); any other failure to launch fails the test.
//
// Example:
//   TEST(VizPageTest, ShowsKernels) {
//     LAUNCH_BROWSER_OR_SKIP(browser, {});
//     ASSERT_TRUE(browser->Navigate(url).ok());
//   }
#ifndef TESTS_BROWSER_LAUNCH_OR_SKIP_H_
#define TESTS_BROWSER_LAUNCH_OR_SKIP_H_

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/browser/headless_browser.h"

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
