// File: tools/cli/progress_line.cc
#include "tools/cli/progress_line.h"

#include <unistd.h>

namespace tg {

bool ProgressLine::IsTerminal(std::FILE* f) { return isatty(fileno(f)) == 1; }

void ProgressLine::Update(const std::string& text) {
  if (in_place_) {
    // Back to the line's start, the new text, then erase what a longer old text left.
    std::fprintf(out_, "\r%s\033[K", text.c_str());
    open_ = true;
  } else {
    std::fprintf(out_, "%s\n", text.c_str());
  }
  std::fflush(out_);
}

void ProgressLine::Finish() {
  if (!open_) return;
  std::fputc('\n', out_);
  std::fflush(out_);
  open_ = false;
}

void ProgressLine::Clear() {
  if (!open_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  open_ = false;
}

}  // namespace tg
