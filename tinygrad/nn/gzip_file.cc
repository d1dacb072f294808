// File: tinygrad/nn/gzip_file.cc
#include "tinygrad/nn/gzip_file.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tg {
namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose_r(f); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

}  // namespace

absl::StatusOr<std::string> ReadGzipFile(const std::string& path, size_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    if (!std::filesystem::exists(path, ec))
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  errno = 0;
  GzFile f(gzopen(path.c_str(), "rb"));
  if (f == nullptr) {
    return absl::InternalError(
        absl::StrCat(path, ": cannot open: ", errno != 0 ? std::strerror(errno) : "out of memory"));
  }
  std::string out;
  constexpr size_t kChunk = size_t{1} << 20;
  while (true) {
    const size_t old_size = out.size();
    // One byte past the limit tells "exactly max_bytes" from "more".
    const size_t want = std::min(kChunk, max_bytes + 1 - old_size);
    out.resize(old_size + want);
    const int n = gzread(f.get(), out.data() + old_size, static_cast<unsigned>(want));
    if (n < 0) {
      int errnum = 0;
      const char* msg = gzerror(f.get(), &errnum);
      return absl::InvalidArgumentError(absl::StrCat(path, ": corrupt gzip data: ", msg));
    }
    out.resize(old_size + static_cast<size_t>(n));
    if (out.size() > max_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": unpacks to more than ", max_bytes, " bytes"));
    }
    if (n == 0) break;
  }
  // A stream cut short ends reads with Z_BUF_ERROR ("unexpected end of file"), not a -1.
  int errnum = Z_OK;
  const char* msg = gzerror(f.get(), &errnum);
  if (errnum != Z_OK)
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": truncated or corrupt gzip data: ", msg));
  return out;
}

}  // namespace tg
