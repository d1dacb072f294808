// File: workers/spawn.cc
// posix_spawn with a socket on kChildFd, process-group kills, reaping.
#include "workers/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "workers/frame.h"
#include "workers/resource_limits.h"

extern char** environ;

namespace tg::workers {
namespace {

// Frees posix_spawn's attribute objects on every return path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

absl::Status Errno(const std::string& what, int err) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(err)));
}

}  // namespace

absl::StatusOr<SpawnedChild> SpawnChild(const std::vector<std::string>& argv) {
  if (argv.empty()) return absl::InvalidArgumentError("empty child argv");
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return Errno("socketpair", errno);
  }
  UniqueFd ours(sv[0]);
  // The child's end must not already sit on kChildFd: dup2 onto itself would keep its
  // close-on-exec flag and the child would start without it.
  UniqueFd first(sv[1]);
  UniqueFd theirs(fcntl(first.get(), F_DUPFD_CLOEXEC, kChildFd + 1));
  if (!theirs) return Errno("fcntl(F_DUPFD_CLOEXEC)", errno);
  first.reset();
  fcntl(ours.get(), F_SETFL, fcntl(ours.get(), F_GETFL) | O_NONBLOCK);

  SpawnSetup s;
  posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&s.actions, theirs.get(), kChildFd);
  posix_spawn_file_actions_addclosefrom_np(&s.actions, kChildFd + 1);
  sigset_t empty, defaults;
  sigemptyset(&empty);
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGSEGV,
                  SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) {
    sigaddset(&defaults, sig);
  }
  posix_spawnattr_setsigmask(&s.attr, &empty);
  posix_spawnattr_setsigdefault(&s.attr, &defaults);
  posix_spawnattr_setpgroup(&s.attr, 0);
  posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_USEVFORK);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int err = posix_spawn(&pid, argv[0].c_str(), &s.actions, &s.attr, args.data(), environ);
  theirs.reset();  // the child has its own copy
  if (err != 0) return Errno(absl::StrCat("posix_spawn ", argv[0]), err);
  // The raw syscall: glibc 2.36's <sys/pidfd.h> lacks extern "C" for C++.
  UniqueFd pidfd(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
  if (!pidfd) {
    err = errno;
    KillProcessGroup(pid);
    waitpid(pid, nullptr, 0);
    return Errno("pidfd_open", err);
  }
  return SpawnedChild{pid, std::move(ours), std::move(pidfd)};
}

void KillProcessGroup(pid_t pid) {
  if (pid <= 0) return;
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
}

int ReapChild(SpawnedChild& child) {
  // Grandchildren (a compiler the child started) share its group: they go with it. Before
  // the wait, while the dead child still holds its pid, so the group id cannot be reused.
  kill(-child.pid, SIGKILL);
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  child = SpawnedChild{};  // closes both fds
  return status;
}

std::string SignalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  if (abbrev == nullptr) return absl::StrCat("signal ", sig);
  return absl::StrCat("SIG", abbrev);
}

std::string DescribeWaitStatus(int status) {
  if (WIFSIGNALED(status)) {
    // the candidate sandbox's verdict (workers/sandbox.h); the child's stderr names the call
    // and the child's own limits' (resource_limits.h)
    const char* why = WTERMSIG(status) == SIGSYS    ? " (sandbox: a forbidden syscall)"
                      : WTERMSIG(status) == SIGXCPU ? " (over its CPU time limit)"
                                                    : "";
    return absl::StrCat("killed by ", SignalName(WTERMSIG(status)), why);
  }
  if (WIFEXITED(status)) {
    const char* why = WEXITSTATUS(status) == kChildExitOutOfMemory ? " (out of memory: over its memory limit)" : "";
    return absl::StrCat("exited with status ", WEXITSTATUS(status), why);
  }
  return absl::StrCat("ended with wait status ", status);
}

}  // namespace tg::workers
