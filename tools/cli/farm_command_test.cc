// File: tools/cli/farm_command_test.cc
// `tg farm status` against a broker's status socket, and with nobody listening.
#include "tools/cli/farm_command.h"

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/farm/broker.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

class FarmCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/farm_command_testXXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(FarmCommandTest, PrintsTheCoordinatorsStatus) {
  auto b = autotune::farm::Broker::Start({.endpoint = absl::StrCat("ipc://", dir_, "/farm"),
                                          .status_endpoint = absl::StrCat("ipc://", dir_, "/status")});
  ASSERT_TRUE(b.ok()) << b.status();
  const std::string ep = (*b)->status_endpoint();
  std::vector<std::string_view> args = {"status", "--connect", ep};
  testing::internal::CaptureStdout();
  EXPECT_EQ(FarmCommand(args), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("workers: 0"), std::string::npos) << out;
  EXPECT_NE(out.find("dropped_results=0"), std::string::npos) << out;
}

TEST_F(FarmCommandTest, NoCoordinatorNoAnswerAndUsageErrors) {
  const std::string ep = absl::StrCat("ipc://", dir_, "/nobody");
  std::vector<std::string_view> args = {"status", "--connect", ep, "--timeout", "0.3"};
  EXPECT_EQ(FarmCommand(args), 1);
  std::vector<std::string_view> none = {"status"};
  EXPECT_EQ(FarmCommand(none), 2);
  std::vector<std::string_view> bad = {"frobnicate"};
  EXPECT_EQ(FarmCommand(bad), 2);
  std::vector<std::string_view> plain_tcp = {"status", "--connect", "tcp://127.0.0.1:1"};
  EXPECT_EQ(FarmCommand(plain_tcp), 1);  // tcp:// without CURVE or --insecure is refused
}

// CLI11's usage errors: exit 2 and a message naming the flag; --help exits 0.
TEST_F(FarmCommandTest, FlagErrorsNameTheFlag) {
  auto stderr_of = [](std::vector<std::string_view> args, int want_rc) {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    EXPECT_EQ(FarmCommand(args), want_rc);
    testing::internal::GetCapturedStdout();
    return testing::internal::GetCapturedStderr();
  };
  EXPECT_NE(stderr_of({"status", "--connect", "ipc:///x", "--timeout", "0"}, 2).find("--timeout: needs a number > 0"),
            std::string::npos);
  EXPECT_NE(stderr_of({"status", "--connect", "ipc:///x", "--timeout", "soon"}, 2).find("--timeout"),
            std::string::npos);
  EXPECT_NE(stderr_of({"status", "--connect"}, 2).find("--connect"), std::string::npos);
  EXPECT_NE(stderr_of({"status", "--connect", "ipc:///x", "--key", "a.key"}, 2).find("--key requires --server-key"),
            std::string::npos);
  EXPECT_NE(stderr_of({"status", "--connect", "ipc:///x", "--key", "a", "--server-key", "b", "--insecure"}, 2)
                .find("--key excludes --insecure"),
            std::string::npos);
  EXPECT_NE(stderr_of({"status", "--bogus"}, 2).find("--bogus"), std::string::npos);
  testing::internal::CaptureStdout();
  std::vector<std::string_view> help = {"status", "--help"};
  EXPECT_EQ(FarmCommand(help), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("--server-key"), std::string::npos);
}

}  // namespace
}  // namespace tg
