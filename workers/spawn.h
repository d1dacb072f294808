// File: workers/spawn.h
// Starting, killing and describing one isolated child process (ChildPool's process plumbing).
//
// Example:
//   ASSIGN_OR_RETURN(SpawnedChild c, SpawnChild({"/path/to/child"}));
//   ... frames over c.fd.get(); poll c.pidfd.get() for the child's exit ...
//   KillProcessGroup(c.pid);
//   int status = ReapChild(c);   // closes the fds, returns the waitpid status
#ifndef WORKERS_SPAWN_H_
#define WORKERS_SPAWN_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/base/unique_fd.h"

namespace tg::workers {

struct SpawnedChild {
  pid_t pid = 0;
  UniqueFd fd;     // our end of the protocol socket (nonblocking, close-on-exec)
  UniqueFd pidfd;  // readable once the child has exited
};

// posix_spawn of argv (argv[0] is the path) in a new process group, with stdin from
// /dev/null, the other end of a fresh Unix stream socket on kChildFd, every other fd past
// stderr closed, default signal dispositions and an empty signal mask. Errors: the socket,
// the spawn (a missing or non-executable program) or pidfd_open failed.
absl::StatusOr<SpawnedChild> SpawnChild(const std::vector<std::string>& argv);

// SIGKILL to the child's process group (it leads it, so the group id is its pid) and to the
// child itself. Harmless after the child exited: its pid stays reserved as long as the group
// has members, and kill() on an empty group fails with ESRCH.
void KillProcessGroup(pid_t pid);

// Kills what is left of the child's process group, waits for the child (blocking: call when
// its pidfd is readable or after KillProcessGroup), closes both fds, returns the wait status.
int ReapChild(SpawnedChild& child);

// "killed by SIGSEGV", "killed by SIGSYS (sandbox: a forbidden syscall)", "exited with status 3".
std::string DescribeWaitStatus(int status);
// "SIGSEGV" (strsignal's text would be localized and vary).
std::string SignalName(int sig);

}  // namespace tg::workers

#endif  // WORKERS_SPAWN_H_
