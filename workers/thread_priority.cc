// File: workers/thread_priority.cc
#include "workers/thread_priority.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace tg::workers {
namespace {

absl::Status Errno(const char* what) { return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno))); }

}  // namespace

absl::StatusOr<ThreadPriority> CurrentThreadPriority() {
  ThreadPriority p;
  p.policy = sched_getscheduler(0);  // 0: the calling thread
  if (p.policy < 0) return Errno("sched_getscheduler");
  errno = 0;
  p.nice = getpriority(PRIO_PROCESS, 0);  // 0 on Linux: the calling thread alone
  if (p.nice == -1 && errno != 0) return Errno("getpriority");
  return p;
}

absl::Status LowerThisThreadPriority(int nice_increment) {
  if (nice_increment < 0) return absl::InvalidArgumentError(absl::StrCat("nice increment ", nice_increment, " must be >= 0"));
  absl::StatusOr<ThreadPriority> now = CurrentThreadPriority();
  if (!now.ok()) return now.status();
  // SCHED_BATCH keeps the nice value; set it first, then the nice value.
  sched_param param{};
  param.sched_priority = 0;
  if (sched_setscheduler(0, SCHED_BATCH, &param) != 0) return Errno("sched_setscheduler(SCHED_BATCH)");
  // 0, not our tid: the sandbox (workers/sandbox.h) lets a thread change only its own, as 0.
  if (nice_increment > 0 && setpriority(PRIO_PROCESS, 0, std::min(now->nice + nice_increment, 19)) != 0)
    return Errno("setpriority");
  return absl::OkStatus();
}

}  // namespace tg::workers
