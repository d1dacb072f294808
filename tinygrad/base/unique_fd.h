// File: tinygrad/base/unique_fd.h
// An owning file descriptor: closed when its owner goes away, on every path, instead of a
// raw close() per return (as android-base's unique_fd and kj's AutoCloseFd).
//
// Example:
//   UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
//   if (!fd) return OpenError(path, errno);
//   read(fd.get(), buf, n);   // closed when `fd` goes out of scope
//   int raw = fd.release();   // hands it on: no longer closed here
#ifndef TINYGRAD_BASE_UNIQUE_FD_H_
#define TINYGRAD_BASE_UNIQUE_FD_H_

#include <unistd.h>

namespace tg {

class UniqueFd {
 public:
  UniqueFd() = default;
  // Takes ownership of `fd`; a negative one (a failed open's -1) is empty.
  explicit UniqueFd(int fd) noexcept : fd_(fd < 0 ? -1 : fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  explicit operator bool() const { return valid(); }

  // Gives the descriptor up without closing it; this is empty afterwards.
  [[nodiscard]] int release() noexcept {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Closes the descriptor held (if any) and takes `fd`. close()'s error is ignored: on Linux
  // the descriptor is gone either way, and retrying after EINTR could close a reused number.
  void reset(int fd = -1) noexcept {
    int old = fd_;
    fd_ = fd < 0 ? -1 : fd;
    if (old >= 0 && old != fd_) ::close(old);
  }

 private:
  int fd_ = -1;
};

}  // namespace tg

#endif  // TINYGRAD_BASE_UNIQUE_FD_H_
