// File: tinygrad/nn/state.cc
#include "tinygrad/nn/state.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/unique_fd.h"
#include "tinygrad/engine/realize.h"
#include "tinygrad/nn/mapped_file.h"

namespace tg {
namespace {

absl::Status IoError(const std::string& what, const std::string& path, int err) {
  return absl::InternalError(absl::StrCat("safe_save: can't ", what, " '", path, "': ",
                                          std::strerror(err)));
}

// All of `bytes`, through short writes and interrupted calls.
absl::Status WriteAll(int fd, std::span<const std::byte> bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return IoError("write", path, errno);
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

absl::Status BadTensor(const std::string& name, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("safe_save: tensor '", name, "': ", why));
}

// A name beside `path` no other save (of this process or another) writes at the same time.
std::string TemporaryName(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return absl::StrCat(path, ".partial-", ::getpid(), "-", counter++);
}

}  // namespace

absl::Status SafeSave(const std::string& path, const std::map<std::string, Tensor>& tensors,
                      const std::map<std::string, std::string>& metadata) {
  std::vector<Tensor> all;
  std::vector<std::pair<std::string, SafetensorsEntry>> entries;
  for (const auto& [name, t] : tensors) {
    if (!t.ok()) return BadTensor(name, t.status().message());
    if (t.is_symbolic()) return BadTensor(name, absl::StrCat("shape ", t.repr(), " is symbolic"));
    all.push_back(t);
    entries.push_back({name, {.dtype = t.dtype(), .shape = t.shape()}});
  }
  ASSIGN_OR_RETURN(std::string header, SafetensorsHeaderBytes(entries, metadata));
  // One schedule for all of them; each is then read (and written) in turn.
  RETURN_IF_ERROR(Realize(all));

  const std::string tmp = TemporaryName(path);
  UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (!fd) return IoError("create", tmp, errno);
  absl::Cleanup remove_tmp = [&tmp] { ::unlink(tmp.c_str()); };
  RETURN_IF_ERROR(WriteAll(fd.get(), std::as_bytes(std::span(header)), tmp));
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& [name, e] = entries[i];
    ASSIGN_OR_RETURN(std::vector<std::byte> bytes, all[i].to_bytes());
    if (bytes.size() != e.nbytes())
      return absl::InternalError(absl::StrCat("safe_save: tensor '", name, "' read back ",
                                              bytes.size(), " bytes, expected ", e.nbytes()));
    RETURN_IF_ERROR(WriteAll(fd.get(), bytes, tmp));
  }
  // close's error matters for a written file (a full disk may report there).
  if (::close(fd.release()) != 0) return IoError("write", tmp, errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return IoError("rename to", path, errno);
  std::move(remove_tmp).Cancel();
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, Tensor>> SafeLoad(const std::string& path,
                                                       const std::string& device) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  ASSIGN_OR_RETURN(SafetensorsHeader h, ParseSafetensors(file->bytes(), path));
  std::map<std::string, Tensor> out;
  for (const auto& [name, e] : h.tensors) {
    if (e.nbytes() == 0) {
      out.emplace(name, Tensor::Empty(e.shape, {.dtype = e.dtype, .device = device}));
      continue;
    }
    std::span<const std::byte> bytes = file->bytes().subspan(h.data_start + e.begin, e.nbytes());
    ASSIGN_OR_RETURN(UOp buf, BufferOverHost(device, e.dtype, bytes, file));
    Tensor t = Tensor(buf).reshape(e.shape);
    if (!t.ok()) return t.status();
    out.emplace(name, std::move(t));
  }
  return out;
}

absl::StatusOr<SafetensorsHeader> SafeLoadMetadata(const std::string& path) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  return ParseSafetensors(file->bytes(), path);
}

}  // namespace tg
