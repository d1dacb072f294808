// File: tinygrad/base/terminal.h
// Port of tinygrad/helpers.py colored / ansistrip / ansilen, plus the one decision of whether
// text written to a stream may keep its colours.
//
// Colour is decided where text is printed, never where it is made: kernel names carry tinygrad's
// ANSI colours inside the graph (as the reference's do), and every printer of debug lines passes
// its text through ForStream, which strips the escapes unless the stream is a terminal and
// NO_COLOR (https://no-color.org: present and not empty) is unset.
//
// Example:
//   std::string name = Colored("r_16", "blue");            // "\x1b[34mr_16\x1b[0m"
//   std::fputs(ForStream(name + "\n", stdout).c_str(), stdout);  // plain when piped
#ifndef TINYGRAD_BASE_TERMINAL_H_
#define TINYGRAD_BASE_TERMINAL_H_

#include <cstdio>
#include <string>
#include <string_view>

namespace tg {

// tinygrad's colored(): `st` in an ANSI SGR colour; an upper-case name is the bright variant
// ("RED"), an unknown name is black, as the reference's index lookup falls back to.
std::string Colored(std::string_view st, std::string_view color);

// tinygrad's ansistrip: `s` without ANSI escape sequences (CSI: ESC '[' ... final byte).
std::string StripAnsi(std::string_view s);
// tinygrad's ansilen: the visible length of `s`.
size_t AnsiLen(std::string_view s);

// The rule, without the environment: colour only on a terminal, and never when NO_COLOR is set
// and not empty (`no_color` is its value, null when unset).
bool ColorAllowed(bool is_terminal, const char* no_color);
// The rule for `stream` and this process's NO_COLOR.
bool ColorAllowed(std::FILE* stream);

// `text` as it should be written to `stream`: unchanged where colour is allowed, else stripped.
std::string ForStream(std::string_view text, std::FILE* stream);

}  // namespace tg

#endif  // TINYGRAD_BASE_TERMINAL_H_
