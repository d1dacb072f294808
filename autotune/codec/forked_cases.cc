// File: autotune/codec/forked_cases.cc (testonly)
// A fork server for test cases that may abort (see the header).
#include "autotune/codec/forked_cases.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <span>
#include <thread>

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

[[noreturn]] void ChildLoop(std::span<const size_t> todo, size_t n, int progress_fd, int output_fd,
                            const ForkedCasesOptions& options, absl::FunctionRef<void(size_t)> fn) {
  dup2(output_fd, STDERR_FILENO);
#if !defined(__SANITIZE_ADDRESS__)  // ASan reserves terabytes of address space up front
  if (options.memory_limit_bytes > 0) {
    const rlimit lim{.rlim_cur = options.memory_limit_bytes, .rlim_max = options.memory_limit_bytes};
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(92);
  }
#endif
  for (size_t i : todo) {
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

// One fork server: the cases of `todo` (in order) in children, one after another; `deaths`
// counts the deaths of all servers (a server stops when there are max_deaths).
std::vector<CaseDeath> Serve(std::vector<size_t> todo, size_t n, absl::FunctionRef<void(size_t)> fn,
                             const ForkedCasesOptions& options, std::atomic<size_t>& deaths_so_far,
                             std::mutex& forking) {
  std::vector<CaseDeath> deaths;
  // The child's stderr, in memory: it survives the child.
  const int output_fd = memfd_create("forked_case_stderr", 0);
  TG_CHECK(output_fd >= 0) << "memfd_create: " << strerror(errno);
  size_t from = 0;  // position in todo
  while (from < todo.size() && deaths_so_far.load() < options.max_deaths) {
    int pipe_fd[2];
    pid_t pid;
    {
      // No other server's child may inherit this pipe's write end (its end of file would wait
      // for that child too): pipe, fork and the parent's close of the write end happen alone.
      std::lock_guard<std::mutex> alone(forking);
      TG_CHECK(pipe2(pipe_fd, O_CLOEXEC) == 0) << "pipe: " << strerror(errno);
      pid = fork();
      TG_CHECK(pid >= 0) << "fork: " << strerror(errno);
      if (pid == 0) {
        close(pipe_fd[0]);
        ChildLoop(std::span<const size_t>(todo).subspan(from), n, pipe_fd[1], output_fd, options, fn);
      }
      close(pipe_fd[1]);
    }
    // Follow the child's progress until its pipe closes or a case takes too long.
    uint64_t current = todo[from], word = 0;
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
    ++deaths_so_far;
    from = static_cast<size_t>(std::find(todo.begin(), todo.end(), current) - todo.begin()) + 1;
  }
  close(output_fd);
  return deaths;
}

}  // namespace

std::vector<CaseDeath> RunCasesForked(size_t n, absl::FunctionRef<void(size_t)> fn,
                                      const ForkedCasesOptions& options) {
  // Server k runs cases k, k + servers, ...: each gets a like share of cheap and costly cases.
  const size_t servers = std::max<size_t>(1, std::min<size_t>(options.children, n));
  std::vector<std::vector<CaseDeath>> found(servers);
  std::atomic<size_t> deaths_so_far{0};
  std::mutex forking;
  {
    // The parent's threads only wait on pipes and children: nothing in fork's copy is mid-change.
    std::vector<std::thread> threads;
    for (size_t k = 0; k < servers; ++k) {
      std::vector<size_t> todo;
      for (size_t i = k; i < n; i += servers) todo.push_back(i);
      threads.emplace_back([&, k, todo = std::move(todo)]() mutable {
        found[k] = Serve(std::move(todo), n, fn, options, deaths_so_far, forking);
      });
    }
    for (std::thread& t : threads) t.join();
  }
  std::vector<CaseDeath> deaths;
  for (std::vector<CaseDeath>& f : found) deaths.insert(deaths.end(), f.begin(), f.end());
  std::sort(deaths.begin(), deaths.end(), [](const CaseDeath& a, const CaseDeath& b) { return a.index < b.index; });
  if (deaths.size() > options.max_deaths) deaths.resize(options.max_deaths);
  return deaths;
}

}  // namespace tg::autotune::codec
