// File: tinygrad/base/terminal_test.cc
#include "tinygrad/base/terminal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(ColoredTest, MatchesTinygradsCodes) {
  // helpers.colored: 30 + index, +60 for an upper-case (bright) name.
  EXPECT_EQ(Colored("r_16", "blue"), "\x1b[34mr_16\x1b[0m");
  EXPECT_EQ(Colored("_", "BLACK"), "\x1b[90m_\x1b[0m");
  EXPECT_EQ(Colored("x", "RED"), "\x1b[91mx\x1b[0m");
  EXPECT_EQ(Colored("x", "white"), "\x1b[37mx\x1b[0m");
}

TEST(StripAnsiTest, RemovesEveryEscape) {
  std::string name = "r" + Colored("_", "BLACK") + Colored("16", "blue") + Colored("", "BLACK");
  EXPECT_EQ(StripAnsi(name), "r_16");
  EXPECT_EQ(AnsiLen(name), 4u);
  EXPECT_EQ(StripAnsi("plain \x1b[K text"), "plain  text");  // erase-line is CSI too
  EXPECT_EQ(StripAnsi("dangling \x1b["), "dangling ");
}

TEST(ColorAllowedTest, TerminalOnlyAndNeverWithNoColor) {
  EXPECT_TRUE(ColorAllowed(/*is_terminal=*/true, nullptr));
  EXPECT_FALSE(ColorAllowed(/*is_terminal=*/false, nullptr));
  EXPECT_FALSE(ColorAllowed(/*is_terminal=*/true, "1"));
  EXPECT_FALSE(ColorAllowed(/*is_terminal=*/true, "0"));  // any non-empty value counts
  EXPECT_TRUE(ColorAllowed(/*is_terminal=*/true, ""));    // present but empty: no effect
}

TEST(ForStreamTest, AFileIsNoTerminalSoColourIsStripped) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(ColorAllowed(f));
  EXPECT_EQ(ForStream("*** " + Colored("E_4", "blue") + "\n", f), "*** E_4\n");
  EXPECT_EQ(ForStream("no escapes", f), "no escapes");
  std::fclose(f);
}

// A pseudo-terminal is a terminal: colour stays, unless NO_COLOR says otherwise.
TEST(ForStreamTest, ATerminalKeepsColourUnlessNoColorIsSet) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) GTEST_SKIP() << "no pty here";
  const int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(slave, 0);
  std::FILE* tty = fdopen(slave, "w");
  ASSERT_NE(tty, nullptr);
  const std::string blue = Colored("E_4", "blue");
  unsetenv("NO_COLOR");
  EXPECT_TRUE(ColorAllowed(tty));
  EXPECT_EQ(ForStream(blue, tty), blue);
  setenv("NO_COLOR", "1", 1);
  EXPECT_FALSE(ColorAllowed(tty));
  EXPECT_EQ(ForStream(blue, tty), "E_4");
  unsetenv("NO_COLOR");
  std::fclose(tty);
  close(master);
}

}  // namespace
}  // namespace tg
