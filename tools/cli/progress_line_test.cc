// File: tools/cli/progress_line_test.cc
// ProgressLine in place (a terminal: carriage return, erase to the end, one newline at the
// end) and into a pipe (a line per update).
#include "tools/cli/progress_line.h"

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace tg {
namespace {

// What `write` prints through a ProgressLine on a temporary file.
template <typename Fn>
std::string Written(bool in_place, Fn write) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  if (f == nullptr) return "";
  {
    ProgressLine progress(f, in_place);
    write(progress);
  }
  std::rewind(f);
  std::string out;
  for (int c; (c = std::fgetc(f)) != EOF;) out.push_back(static_cast<char>(c));
  std::fclose(f);
  return out;
}

TEST(ProgressLine, InPlaceRewritesTheLineAndEndsItOnce) {
  EXPECT_EQ(Written(true,
                    [](ProgressLine& p) {
                      p.Update("step 1 long text");
                      p.Update("step 2");
                      p.Finish();
                      p.Finish();
                    }),
            "\rstep 1 long text\033[K\rstep 2\033[K\n");
  // The destructor ends a line left open; nothing shown, nothing written.
  EXPECT_EQ(Written(true, [](ProgressLine& p) { p.Update("a"); }), "\ra\033[K\n");
  EXPECT_EQ(Written(true, [](ProgressLine& p) { p.Finish(); }), "");
}

TEST(ProgressLine, ClearErasesAnInPlaceLineAndLeavesPipedLines) {
  EXPECT_EQ(Written(true,
                    [](ProgressLine& p) {
                      p.Update("round 1");
                      p.Clear();
                      p.Clear();
                    }),
            "\rround 1\033[K\r\033[K");
  EXPECT_EQ(Written(false,
                    [](ProgressLine& p) {
                      p.Update("round 1");
                      p.Clear();
                    }),
            "round 1\n");
}

TEST(ProgressLine, IntoAPipeEachUpdateIsALine) {
  EXPECT_EQ(Written(false,
                    [](ProgressLine& p) {
                      p.Update("step 1");
                      p.Update("step 2");
                      p.Finish();
                    }),
            "step 1\nstep 2\n");
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(ProgressLine::IsTerminal(f));
  std::fclose(f);
}

}  // namespace
}  // namespace tg
