// File: autotune/lock/device_lock.cc
#include "autotune/lock/device_lock.h"

#include <fcntl.h>
#include <sys/file.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
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

struct DeviceLock::Descriptors {
  std::mutex mu;
  std::vector<UniqueFd> lock_files ABSL_GUARDED_BY(mu);
  std::vector<UniqueFd> turnstiles ABSL_GUARDED_BY(mu);
};

DeviceLock::Hold& DeviceLock::Hold::operator=(Hold&& o) noexcept {
  if (this != &o) {
    Release();
    fd_ = std::move(o.fd_);
    from_ = std::move(o.from_);
    turnstile_ = o.turnstile_;
  }
  return *this;
}

void DeviceLock::Hold::Release() {
  if (from_ == nullptr || !fd_.valid()) {
    fd_.reset();
    return;
  }
  flock(fd_.get(), LOCK_UN);
  std::lock_guard<std::mutex> l(from_->mu);
  (turnstile_ ? from_->turnstiles : from_->lock_files).push_back(std::move(fd_));
  from_.reset();
}

absl::StatusOr<std::shared_ptr<DeviceLock>> DeviceLock::Open(std::string path, int preopened) {
  if (path.empty()) return absl::InvalidArgumentError("device lock: empty path");
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) return absl::FailedPreconditionError(absl::StrCat("device lock: cannot make ", dir.string(), ": ", ec.message()));
  std::shared_ptr<Descriptors> kept;
  if (preopened > 0) kept = std::make_shared<Descriptors>();
  for (const std::string& p : {path, TurnstilePath(path)}) {
    for (int i = 0; i < std::max(1, preopened); ++i) {
      absl::StatusOr<UniqueFd> fd = OpenFile(p);
      if (!fd.ok()) return fd.status();
      if (kept == nullptr) continue;
      std::lock_guard<std::mutex> l(kept->mu);
      (p == path ? kept->lock_files : kept->turnstiles).push_back(*std::move(fd));
    }
  }
  return std::shared_ptr<DeviceLock>(new DeviceLock(std::move(path), std::move(kept)));
}

absl::StatusOr<DeviceLock::Hold> DeviceLock::Descriptor(bool turnstile) const {
  const std::string path = turnstile ? TurnstilePath(path_) : path_;
  if (preopened_ == nullptr) {
    absl::StatusOr<UniqueFd> fd = OpenFile(path);
    if (!fd.ok()) return fd.status();
    return Hold(*std::move(fd), nullptr, turnstile);
  }
  std::lock_guard<std::mutex> l(preopened_->mu);
  std::vector<UniqueFd>& free = turnstile ? preopened_->turnstiles : preopened_->lock_files;
  if (free.empty()) {
    return absl::ResourceExhaustedError(
        absl::StrCat("device lock ", path, ": every preopened descriptor is held (more holds at once than Open was told)"));
  }
  UniqueFd fd = std::move(free.back());
  free.pop_back();
  return Hold(std::move(fd), preopened_, turnstile);
}

absl::StatusOr<DeviceLock::Hold> DeviceLock::Take(bool exclusive) const {
  // Everyone queues at the turnstile, and a writer keeps it while the readers drain: new
  // readers wait behind it instead of overtaking it.
  absl::StatusOr<Hold> gate = Descriptor(/*turnstile=*/true);
  if (!gate.ok()) return gate.status();
  if (absl::Status s = Lock(gate->fd_.get(), LOCK_EX, TurnstilePath(path_)); !s.ok()) return s;
  absl::StatusOr<Hold> hold = Descriptor(/*turnstile=*/false);
  if (!hold.ok()) return hold.status();
  if (absl::Status s = Lock(hold->fd_.get(), exclusive ? LOCK_EX : LOCK_SH, path_); !s.ok()) return s;
  return hold;  // `gate` ends: the next in line passes the turnstile
}

std::string DefaultDeviceLockPath(const std::string& cache_dir, const std::string& device) {
  return absl::StrCat(cache_dir, "/device-", device, ".lock");
}

}  // namespace tg::autotune
