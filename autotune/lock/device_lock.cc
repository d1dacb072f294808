// File: autotune/lock/device_lock.cc
#include "autotune/lock/device_lock.h"

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tg::autotune {
namespace {

std::string TurnstilePath(const std::string& path) { return path + ".turnstile"; }

absl::StatusOr<UniqueFd> OpenFile(const std::string& path) {
  UniqueFd fd(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (!fd) return absl::FailedPreconditionError(absl::StrCat("device lock ", path, ": ", std::strerror(errno)));
  return fd;
}

absl::Status Lock(int fd, int how, const std::string& path) {
  while (flock(fd, how) != 0) {
    if (errno == EINTR) continue;  // a signal (the stoppable launch's timer) is no reason to give up
    return absl::InternalError(absl::StrCat("device lock ", path, ": flock: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<DeviceLock>> DeviceLock::Open(std::string path) {
  if (path.empty()) return absl::InvalidArgumentError("device lock: empty path");
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) return absl::FailedPreconditionError(absl::StrCat("device lock: cannot make ", dir.string(), ": ", ec.message()));
  for (const std::string& p : {path, TurnstilePath(path)}) {
    absl::StatusOr<UniqueFd> fd = OpenFile(p);
    if (!fd.ok()) return fd.status();
  }
  return std::shared_ptr<DeviceLock>(new DeviceLock(std::move(path)));
}

absl::StatusOr<DeviceLock::Hold> DeviceLock::Take(bool exclusive) const {
  // Everyone queues at the turnstile, and a writer keeps it while the readers drain: new
  // readers wait behind it instead of overtaking it.
  absl::StatusOr<UniqueFd> turnstile = OpenFile(TurnstilePath(path_));
  if (!turnstile.ok()) return turnstile.status();
  Hold gate(*std::move(turnstile));
  if (absl::Status s = Lock(gate.fd_.get(), LOCK_EX, TurnstilePath(path_)); !s.ok()) return s;
  absl::StatusOr<UniqueFd> fd = OpenFile(path_);
  if (!fd.ok()) return fd.status();
  Hold hold(*std::move(fd));
  if (absl::Status s = Lock(hold.fd_.get(), exclusive ? LOCK_EX : LOCK_SH, path_); !s.ok()) return s;
  return hold;  // `gate` closes: the next in line passes the turnstile
}

std::string DefaultDeviceLockPath(const std::string& cache_dir, const std::string& device) {
  return absl::StrCat(cache_dir, "/device-", device, ".lock");
}

}  // namespace tg::autotune
