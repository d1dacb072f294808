// File: autotune/codec/forked_cases.cc (testonly)
// A fork server for test cases that may abort (see the header).
#include "autotune/codec/forked_cases.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"

namespace tg::autotune::codec {
namespace {

// What the child sends before each case: its index; `n` after the last.
void SendIndex(int fd, uint64_t i) {
  const char* p = reinterpret_cast<const char*>(&i);
  for (size_t done = 0; done < sizeof(i);) {
    ssize_t w = write(fd, p + done, sizeof(i) - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(90);
    done += static_cast<size_t>(w);
  }
}

[[noreturn]] void ChildLoop(size_t from, size_t n, int progress_fd, int output_fd,
                            absl::FunctionRef<void(size_t)> fn) {
  dup2(output_fd, STDERR_FILENO);
  for (size_t i = from; i < n; ++i) {
    // only this case's output stays
    if (ftruncate(output_fd, 0) != 0 || lseek(output_fd, 0, SEEK_SET) != 0) _exit(91);
    SendIndex(progress_fd, i);
    fn(i);
  }
  SendIndex(progress_fd, n);
  _exit(0);
}

std::string Describe(int status) {
  if (WIFSIGNALED(status))
    return absl::StrCat("killed by signal ", WTERMSIG(status), " (", strsignal(WTERMSIG(status)), ")");
  return absl::StrCat("exit ", WEXITSTATUS(status));
}

std::string Tail(int fd, size_t max_bytes) {
  off_t end = lseek(fd, 0, SEEK_END);
  if (end <= 0) return "";
  size_t len = std::min(static_cast<size_t>(end), max_bytes);
  std::string out(len, '\0');
  ssize_t got = pread(fd, out.data(), len, end - static_cast<off_t>(len));
  out.resize(got > 0 ? static_cast<size_t>(got) : 0);
  return out;
}

}  // namespace

std::vector<CaseDeath> RunCasesForked(size_t n, absl::FunctionRef<void(size_t)> fn,
                                      const ForkedCasesOptions& options) {
  std::vector<CaseDeath> deaths;
  // The child's stderr, in memory: it survives the child.
  const int output_fd = memfd_create("forked_case_stderr", 0);
  TG_CHECK(output_fd >= 0) << "memfd_create: " << strerror(errno);
  size_t from = 0;
  while (from < n && deaths.size() < options.max_deaths) {
    int pipe_fd[2];
    TG_CHECK(pipe(pipe_fd) == 0) << "pipe: " << strerror(errno);
    const pid_t pid = fork();
    TG_CHECK(pid >= 0) << "fork: " << strerror(errno);
    if (pid == 0) {
      close(pipe_fd[0]);
      ChildLoop(from, n, pipe_fd[1], output_fd, fn);
    }
    close(pipe_fd[1]);
    // Follow the child's progress until its pipe closes or a case takes too long.
    uint64_t current = from, word = 0;
    size_t have = 0;
    bool hung = false;
    while (true) {
      pollfd p{.fd = pipe_fd[0], .events = POLLIN, .revents = 0};
      const int r = poll(&p, 1, static_cast<int>(options.hang_after.count() * 1000));
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) {
        hung = true;
        kill(pid, SIGKILL);
        break;
      }
      ssize_t got = read(pipe_fd[0], reinterpret_cast<char*>(&word) + have, sizeof(word) - have);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;  // closed: the child is gone
      have += static_cast<size_t>(got);
      if (have == sizeof(word)) {
        current = word;
        have = 0;
      }
    }
    close(pipe_fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!hung && current == n && WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    deaths.push_back(CaseDeath{
        .index = static_cast<size_t>(current),
        .how = hung ? absl::StrCat("no progress for ", options.hang_after.count(), " s: killed")
                    : Describe(status),
        .output = Tail(output_fd, options.output_tail_bytes)});
    from = static_cast<size_t>(current) + 1;
  }
  close(output_fd);
  return deaths;
}

}  // namespace tg::autotune::codec
