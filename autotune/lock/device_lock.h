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
// A process that will not be able to open files later (a sandboxed worker child,
// workers/sandbox.h) opens them up front instead: Open(path, N) keeps N descriptors of each
// file, each an open file of its own, and a hold borrows one (unlocking it when it ends).
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
  // Creates the lock file (and PATH.turnstile) if needed, mode 0600. With `preopened` > 0,
  // keeps that many descriptors of each file open for the holds: at most that many holds at
  // once, and no file is opened after this. Errors: the directory cannot be made, or a file
  // cannot be opened for writing (named in the message).
  static absl::StatusOr<std::shared_ptr<DeviceLock>> Open(std::string path, int preopened = 0);

  struct Descriptors;  // the preopened ones

  // A lock held until destroyed (or moved from).
  class Hold {
   public:
    Hold() = default;
    Hold(Hold&&) noexcept = default;
    Hold& operator=(Hold&& o) noexcept;
    ~Hold() { Release(); }
    bool held() const { return fd_.valid(); }

   private:
    friend class DeviceLock;
    Hold(UniqueFd fd, std::shared_ptr<Descriptors> from, bool turnstile)
        : fd_(std::move(fd)), from_(std::move(from)), turnstile_(turnstile) {}
    void Release();
    // Closing the only descriptor of the open file drops its flock; a preopened one is
    // unlocked and given back instead.
    UniqueFd fd_;
    std::shared_ptr<Descriptors> from_;
    bool turnstile_ = false;
  };

  // Blocks until no other holder is left. Errors: the lock file cannot be opened or locked;
  // ResourceExhausted when every preopened descriptor is held.
  absl::StatusOr<Hold> Exclusive() const { return Take(true); }
  // Blocks while a holder is exclusive or waiting to be.
  absl::StatusOr<Hold> Shared() const { return Take(false); }

  const std::string& path() const { return path_; }

 private:
  DeviceLock(std::string path, std::shared_ptr<Descriptors> preopened)
      : path_(std::move(path)), preopened_(std::move(preopened)) {}
  absl::StatusOr<Hold> Take(bool exclusive) const;
  // A descriptor of the turnstile or the lock file: preopened, or opened now.
  absl::StatusOr<Hold> Descriptor(bool turnstile) const;
  std::string path_;
  std::shared_ptr<Descriptors> preopened_;  // null: every hold opens the file anew
};

// Where the machine's lock for `device` lives: <cache_dir>/device-<device>.lock.
std::string DefaultDeviceLockPath(const std::string& cache_dir, const std::string& device);

}  // namespace tg::autotune

#endif  // AUTOTUNE_LOCK_DEVICE_LOCK_H_
