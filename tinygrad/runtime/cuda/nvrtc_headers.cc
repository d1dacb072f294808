// File: tinygrad/runtime/cuda/nvrtc_headers.cc
// Reading the CUDA headers' include closure for NVRTC (see nvrtc_headers.h).
#include "tinygrad/runtime/cuda/nvrtc_headers.h"

#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <unordered_set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tg {
namespace {

namespace fs = std::filesystem;

// One header still to read: its name as included, and the dir of the header that included it
// ("" for a root), where a quoted include is looked for first.
struct Pending {
  std::string name;
  bool quoted = false;
  std::string from_dir;
};

std::optional<fs::path> Find(const Pending& p, std::span<const std::string> include_dirs) {
  std::error_code ec;
  if (p.quoted && !p.from_dir.empty()) {
    fs::path candidate = fs::path(p.from_dir) / p.name;
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  for (const std::string& dir : include_dirs) {
    fs::path candidate = fs::path(dir) / p.name;
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

absl::StatusOr<std::string> ReadWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad())
    return absl::InternalError(absl::StrCat("reading the CUDA header ", path.string(), " failed"));
  return text.str();
}

}  // namespace

std::vector<IncludeLine> IncludesOf(std::string_view text) {
  std::vector<IncludeLine> out;
  // absl::string_view: Debian's Abseil has its own, not std::string_view
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "#")) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "include")) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    if (line.empty() || (line[0] != '<' && line[0] != '"')) continue;  // a macro, or #include_next
    const char close = line[0] == '<' ? '>' : '"';
    const size_t end = line.find(close, 1);
    if (end == std::string_view::npos || end == 1) continue;
    out.push_back({.name = std::string(line.substr(1, end - 1)), .quoted = close == '"'});
  }
  return out;
}

absl::StatusOr<std::vector<NvrtcHeader>> ReadHeaderClosure(std::span<const std::string> include_dirs,
                                                           std::span<const std::string_view> roots) {
  std::vector<NvrtcHeader> headers;
  std::unordered_set<std::string> seen;
  std::deque<Pending> todo;
  for (std::string_view r : roots) todo.push_back({.name = std::string(r)});
  size_t total = 0;
  while (!todo.empty()) {
    Pending p = std::move(todo.front());
    todo.pop_front();
    if (!seen.insert(p.name).second) continue;
    std::optional<fs::path> path = Find(p, include_dirs);
    if (!path.has_value()) continue;  // NVRTC's own, or the C++ library's
    absl::StatusOr<std::string> text = ReadWhole(*path);
    if (!text.ok()) return text.status();
    total += text->size();
    if (total > kMaxHeaderBytes)
      return absl::ResourceExhaustedError(absl::StrCat("the CUDA headers ", std::string(roots.front()),
                                                       "... include more than ", kMaxHeaderBytes >> 20,
                                                       " MiB (at ", path->string(), ")"));
    for (IncludeLine& inc : IncludesOf(*text))
      todo.push_back({.name = std::move(inc.name), .quoted = inc.quoted, .from_dir = path->parent_path().string()});
    headers.push_back({.name = std::move(p.name), .text = *std::move(text)});
  }
  return headers;
}

}  // namespace tg
