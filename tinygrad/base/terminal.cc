// File: tinygrad/base/terminal.cc
#include "tinygrad/base/terminal.h"

#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdlib>

namespace tg {

std::string Colored(std::string_view st, std::string_view color) {
  static constexpr std::array<std::string_view, 8> kColors = {"black", "red",     "green", "yellow",
                                                              "blue",  "magenta", "cyan",  "white"};
  std::string lower(color);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int idx = 0;
  for (int i = 0; i < static_cast<int>(kColors.size()); ++i)
    if (lower == kColors[i]) idx = i;
  const bool bright = !color.empty() && std::isupper(static_cast<unsigned char>(color[0]));
  return "\x1b[" + std::to_string(60 * bright + 30 + idx) + "m" + std::string(st) + "\x1b[0m";
}

std::string StripAnsi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      size_t j = i + 2;
      while (j < s.size() && !(s[j] >= '@' && s[j] <= '~')) ++j;  // parameters up to the final byte
      i = j;
      continue;
    }
    out += s[i];
  }
  return out;
}

size_t AnsiLen(std::string_view s) { return StripAnsi(s).size(); }

bool ColorAllowed(bool is_terminal, const char* no_color) {
  return is_terminal && (no_color == nullptr || *no_color == '\0');
}

bool ColorAllowed(std::FILE* stream) {
  const int fd = stream != nullptr ? fileno(stream) : -1;
  return ColorAllowed(fd >= 0 && isatty(fd) == 1, std::getenv("NO_COLOR"));
}

std::string ForStream(std::string_view text, std::FILE* stream) {
  if (text.find('\x1b') == std::string_view::npos || ColorAllowed(stream)) return std::string(text);
  return StripAnsi(text);
}

}  // namespace tg
