// File: autotune/lock/device_lock.h
// One device shared by every process of a machine that tunes on it: runs hold the device
// exclusively, lowering and compiling hold it shared. So no kernel is ever timed while
// anything else on the machine compiles or runs (tinygrad times while its compile workers
// load the cores), and any number of compiles overlap while nothing runs.
//
// It is a reader-writer lock on a file (flock), so it spans processes (local workers, their
// children, an in-process `tg tune`), and the kernel drops a dead holder's lock with its file
// descriptors: a SIGKILLed worker child never leaves the device locked. Every hold opens the
// file anew, so threads of one process exclude each other like processes do.
//
// A writer waiting for the readers to drain holds a second file, the turnstile, that every new
// holder passes through first, so a stream of compiles never starves a run.
//
// Example:
//   ASSIGN_OR_RETURN(std::shared_ptr<DeviceLock> lock, DeviceLock::Open(path));
//   { ASSIGN_OR_RETURN(DeviceLock::Hold h, lock->Shared()); compile(); }
//   { ASSIGN_OR_RETURN(DeviceLock::Hold h, lock->Exclusive()); time(); }
#ifndef AUTOTUNE_LOCK_DEVICE_LOCK_H_
#define AUTOTUNE_LOCK_DEVICE_LOCK_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "tinygrad/base/unique_fd.h"

namespace tg::autotune {

class DeviceLock {
 public:
  // Creates the lock file (and PATH.turnstile) if needed, mode 0600. Errors: the directory
  // cannot be made, or a file cannot be opened for writing (named in the message).
  static absl::StatusOr<std::shared_ptr<DeviceLock>> Open(std::string path);

  // A lock held until destroyed (or moved from).
  class Hold {
   public:
    Hold() = default;
    bool held() const { return fd_.valid(); }

   private:
    friend class DeviceLock;
    explicit Hold(UniqueFd fd) : fd_(std::move(fd)) {}
    UniqueFd fd_;  // closing the only descriptor of the open file drops its flock
  };

  // Blocks until no other holder is left. Errors: the lock file cannot be opened or locked.
  absl::StatusOr<Hold> Exclusive() const { return Take(true); }
  // Blocks while a holder is exclusive or waiting to be.
  absl::StatusOr<Hold> Shared() const { return Take(false); }

  const std::string& path() const { return path_; }

 private:
  explicit DeviceLock(std::string path) : path_(std::move(path)) {}
  absl::StatusOr<Hold> Take(bool exclusive) const;
  std::string path_;
};

// Where the machine's lock for `device` lives: <cache_dir>/device-<device>.lock.
std::string DefaultDeviceLockPath(const std::string& cache_dir, const std::string& device);

}  // namespace tg::autotune

#endif  // AUTOTUNE_LOCK_DEVICE_LOCK_H_
