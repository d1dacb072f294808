// File: workers/child_main.cc
// The child's job loop and its side of the device handshake.
#include "workers/child_main.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "tinygrad/base/check.h"
#include "tinygrad/base/unique_fd.h"

namespace tg::workers {
namespace {

// A broken connection mid-job means the parent is gone (or killed us a moment ago): nothing is
// left to report to, so leave without unwinding the handler.
[[noreturn]] void ParentGone(const absl::Status& s) {
  std::fprintf(stderr, "worker child %d: connection to parent: %s\n", static_cast<int>(getpid()),
               std::string(s.message()).c_str());
  _exit(kChildExitParentGone);
}

[[noreturn]] void ProtocolExit(const char* what) {
  std::fprintf(stderr, "worker child %d: %s\n", static_cast<int>(getpid()), what);
  _exit(kChildExitProtocol);
}

void SetUpProcess(const ChildLoopOptions& o) {
  // The parent sets no death signal for us (posix_spawn cannot); if it already died before
  // this line, our first read sees EOF and we leave.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // A crashing candidate is expected here: no core files.
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  // A candidate that eats all memory should be what the OOM killer picks, not the worker
  // daemon (raising one's own score needs no privilege; best effort).
  if (UniqueFd fd(open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)); fd) {
    (void)!write(fd.get(), "500", 3);
  }
  // Writes to a dead parent fail with EPIPE instead of killing us silently.
  signal(SIGPIPE, SIG_IGN);
  // Our socket must not leak into the compilers and tools the handler starts: a grandchild
  // holding it would hide our death from the parent.
  int flags = fcntl(o.fd, F_GETFD);
  if (flags >= 0) fcntl(o.fd, F_SETFD, flags | FD_CLOEXEC);
}

}  // namespace

void DeviceGate::Acquire() {
  TG_CHECK(!held_) << "DeviceGate::Acquire while holding the device";
  if (absl::Status s = WriteFrame(fd_, FrameType::kWantDevice); !s.ok()) ParentGone(s);
  absl::StatusOr<std::optional<Frame>> f = ReadFrame(fd_, max_);
  if (!f.ok()) ParentGone(f.status());
  if (!f->has_value()) ParentGone(absl::UnavailableError("EOF while waiting for the device"));
  if ((*f)->type != FrameType::kGrant) ProtocolExit("expected a grant frame");
  held_ = true;
}

std::string DeviceGate::AskRelay(std::string_view request) {
  if (absl::Status s = WriteFrame(fd_, FrameType::kRelay, request); !s.ok()) ParentGone(s);
  absl::StatusOr<std::optional<Frame>> f = ReadFrame(fd_, max_);
  if (!f.ok()) ParentGone(f.status());
  if (!f->has_value()) ParentGone(absl::UnavailableError("EOF while waiting for the relay"));
  if ((*f)->type != FrameType::kRelayed) ProtocolExit("expected a relayed frame");
  return std::move((*f)->payload);
}

void DeviceGate::Release() {
  if (!held_) return;
  held_ = false;
  if (absl::Status s = WriteFrame(fd_, FrameType::kDeviceDone); !s.ok()) ParentGone(s);
}

void DeviceGate::Progress(double limit_s) {
  if (!held_) return;
  const std::string payload = std::isfinite(limit_s) ? EncodeRunLimit(limit_s) : std::string();
  if (absl::Status s = WriteFrame(fd_, FrameType::kProgress, payload); !s.ok()) ParentGone(s);
}

int RunChildLoop(const Handler& handler, const ChildLoopOptions& options) {
  SetUpProcess(options);
  if (options.on_start) options.on_start();
  if (absl::Status s = WriteFrame(options.fd, FrameType::kReady); !s.ok()) {
    return kChildExitParentGone;
  }
  DeviceGate gate(options.fd, options.max_frame_bytes);
  while (true) {
    absl::StatusOr<std::optional<Frame>> f = ReadFrame(options.fd, options.max_frame_bytes);
    if (!f.ok()) {
      std::fprintf(stderr, "worker child %d: %s\n", static_cast<int>(getpid()),
                   std::string(f.status().message()).c_str());
      return kChildExitProtocol;
    }
    if (!f->has_value()) return 0;  // the parent closed the connection: done
    if ((*f)->type != FrameType::kJob) ProtocolExit("expected a job frame");
    std::string response = handler((*f)->payload, gate);
    // The response ends any hold; the parent releases the device when it reads it.
    gate.held_ = false;
    // said before the response, so that the pool never hands this process another job
    if (gate.retire_) {
      if (absl::Status s = WriteFrame(options.fd, FrameType::kRetiring); !s.ok()) return kChildExitParentGone;
    }
    if (absl::Status s = WriteFrame(options.fd, FrameType::kResponse, response); !s.ok()) {
      return kChildExitParentGone;
    }
    if (gate.retire_) {
      std::fprintf(stderr, "worker child %d: retiring after this job\n", static_cast<int>(getpid()));
      return kChildExitRetired;
    }
  }
}

}  // namespace tg::workers
