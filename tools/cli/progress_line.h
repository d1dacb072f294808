// File: tools/cli/progress_line.h
// A status line that a long command keeps up to date (tg train's step, loss and speed; tg tune's search state). On a
// terminal each update rewrites the line in place; into a pipe or file each update is a line
// of its own, so logs stay readable (the caller updates less often there).
//
// Example:
//   ProgressLine progress(stdout, ProgressLine::IsTerminal(stdout));
//   for (...) progress.Update(absl::StrCat("step ", i, " loss ", loss));
//   progress.Finish();   // ends the line in place, so the next output starts on a new one
#ifndef TOOLS_CLI_PROGRESS_LINE_H_
#define TOOLS_CLI_PROGRESS_LINE_H_

#include <cstdio>
#include <string>

namespace tg {

class ProgressLine {
 public:
  ProgressLine(std::FILE* out, bool in_place) : out_(out), in_place_(in_place) {}
  ~ProgressLine() { Finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Whether `f` is a terminal (updates in place) rather than a pipe or file.
  static bool IsTerminal(std::FILE* f);
  bool in_place() const { return in_place_; }

  // Shows `text` (one line, no newline) as the current status.
  void Update(const std::string& text);
  // Ends an in-place line with a newline (once; nothing when nothing is shown).
  void Finish();
  // Erases an in-place line, so that what is printed next takes its place (tg tune's result
  // rows replace the search's progress). Into a pipe the shown lines stay.
  void Clear();

 private:
  std::FILE* out_;
  bool in_place_;
  bool open_ = false;  // an in-place line is on the screen without its newline
};

}  // namespace tg

#endif  // TOOLS_CLI_PROGRESS_LINE_H_
