// File: tinygrad/nn/mapped_file.cc
#include "tinygrad/nn/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/unique_fd.h"

namespace tg {
namespace {

absl::Status SystemError(const std::string& what, const std::string& path, int err) {
  std::string msg = absl::StrCat(what, " '", path, "': ", std::strerror(err));
  switch (err) {
    case ENOENT: return absl::NotFoundError(msg);
    case EACCES: case EPERM: return absl::PermissionDeniedError(msg);
    default: return absl::InternalError(msg);
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) return SystemError("can't open", path, errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return SystemError("can't stat", path, errno);
  if (!S_ISREG(st.st_mode))
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is not a regular file"));
  size_t size = static_cast<size_t>(st.st_size);
  const std::byte* data = nullptr;
  if (size > 0) {  // mmap refuses a length of 0
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p == MAP_FAILED) return SystemError("can't map", path, errno);
    data = static_cast<const std::byte*>(p);
  }
  // The mapping outlives the descriptor (closed here by `fd`).
  return std::shared_ptr<const MappedFile>(new MappedFile(path, data, size));
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace tg
