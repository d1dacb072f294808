// File: tests/browser/headless_browser.cc
#include "tests/browser/headless_browser.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tinygrad/base/json_fields.h"
#include "tinygrad/base/status_macros.h"

extern char** environ;

namespace tg::browser {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr const char* kBrowserNames[] = {"chromium", "chromium-browser", "google-chrome",
                                         "google-chrome-stable"};

// How long the destructor waits for Browser.close to end the browser before killing it.
constexpr std::chrono::seconds kCloseGrace{5};

// JSON text of a message or a JavaScript string literal. Invalid UTF-8 (from a test's own
// strings) is replaced, not thrown on.
std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string Seconds(Clock::duration d) {
  return absl::StrCat(std::chrono::duration_cast<std::chrono::milliseconds>(d).count() / 1000.0,
                      " s");
}

// The last `max_lines` lines of a file, for error messages about a browser that died.
std::string Tail(const std::filesystem::path& path, int max_lines) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
    if (static_cast<int>(lines.size()) > max_lines) lines.erase(lines.begin());
  }
  return absl::StrJoin(lines, "\n");
}

// Moves a descriptor to 10 or above (close-on-exec), so that placing the child's ends at fds 3
// and 4 cannot overwrite the other one before it is placed.
UniqueFd MoveHigh(int fd) {
  UniqueFd high(::fcntl(fd, F_DUPFD_CLOEXEC, 10));
  ::close(fd);
  return high;
}

// Blocks SIGPIPE on this thread while writing to the browser, so that a browser that died makes
// write() fail with EPIPE instead of killing the test; a SIGPIPE left pending is consumed.
class ScopedNoSigpipe {
 public:
  ScopedNoSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~ScopedNoSigpipe() {
    if (!was_pending_) {
      const timespec zero{};
      while (sigtimedwait(&pipe_, nullptr, &zero) == SIGPIPE) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t pipe_, old_;
  bool was_pending_ = false;
};

// A poll() timeout in ms until `deadline`, at most `slice` (to look at the process meanwhile).
int PollMs(Clock::time_point deadline, std::chrono::milliseconds slice) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp(left, std::chrono::milliseconds(0), slice).count()) + 1;
}

// The text of a Runtime.exceptionThrown / Runtime.evaluate exceptionDetails.
std::string ExceptionText(const json& details) {
  if (const auto e = details.find("exception"); e != details.end() && e->is_object()) {
    if (const auto d = e->find("description"); d != e->end() && d->is_string()) return *d;
    if (const auto v = e->find("value"); v != e->end()) return Dump(*v);
  }
  return details.value("text", std::string("(no text)"));
}

// Where the browser's temporary directory goes: $TEST_TMPDIR, else $TMPDIR, else P_tmpdir,
// the first whose path is short enough. Chromium puts a UNIX socket at
// $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket and aborts when that path exceeds
// sun_path (108 bytes), which Bazel's TEST_TMPDIR (deep in the output base) does.
absl::StatusOr<std::filesystem::path> TempBase() {
  constexpr size_t kLongestBase = sizeof(sockaddr_un::sun_path) - 1 -
                                  std::string_view("/tg_browser.XXXXXX/tmp/org.chromium.Chromium.XXXXXX/SingletonSocket").size();
  for (const char* name : {"TEST_TMPDIR", "TMPDIR"}) {
    const char* dir = ::getenv(name);
    if (dir != nullptr && *dir != '\0' && std::string_view(dir).size() <= kLongestBase) return dir;
  }
  if (std::string_view(P_tmpdir).size() <= kLongestBase) return P_tmpdir;
  return absl::FailedPreconditionError(
      absl::StrCat("no temporary directory with a path of at most ", kLongestBase,
                   " characters (for Chromium's socket): set TMPDIR to one"));
}

// A fresh directory for one browser: its profile, a home (HOME and XDG dirs: Chromium writes
// caches and crash reports there, and Bazel's sandbox leaves the real ones unset or read-only)
// and its TMPDIR. The destructor deletes it.
absl::StatusOr<std::filesystem::path> MakeTempDir() {
  ASSIGN_OR_RETURN(std::filesystem::path base, TempBase());
  std::string dir = (base / "tg_browser.XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp ", dir, ": ", strerror(errno)));
  }
  std::error_code ec;
  for (const char* sub : {"profile", "home", "tmp"}) {
    std::filesystem::create_directory(std::filesystem::path(dir) / sub, ec);
    if (ec) {
      std::filesystem::remove_all(dir, ec);
      return absl::InternalError(absl::StrCat("mkdir in ", dir, ": ", ec.message()));
    }
  }
  return std::filesystem::path(dir);
}

std::vector<std::string> BrowserArgs(const std::string& executable, const LaunchOptions& options,
                                     const std::filesystem::path& profile) {
  std::vector<std::string> args = {
      executable,
      "--headless=new",
      "--no-sandbox",  // tests run as root, where Chromium's sandbox refuses to start
      "--disable-gpu",
      "--disable-dev-shm-usage",  // /dev/shm may be small or absent in a sandbox or container
      "--remote-debugging-pipe",
      "--user-data-dir=" + profile.string(),
      // Nothing that reaches the network or shows a dialog on its own.
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-breakpad",
      "--mute-audio",
      "--hide-scrollbars",
      absl::StrCat("--window-size=", options.viewport_width, ",", options.viewport_height),
  };
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  args.push_back("about:blank");
  return args;
}

// This process's environment with HOME, the XDG dirs and TMPDIR inside `temp_dir`.
std::vector<std::string> ChildEnvironment(const std::filesystem::path& temp_dir) {
  const std::string home = (temp_dir / "home").string();
  const std::vector<std::string> ours = {
      "HOME=" + home,
      "XDG_CONFIG_HOME=" + home + "/.config",
      "XDG_CACHE_HOME=" + home + "/.cache",
      "XDG_DATA_HOME=" + home + "/.local/share",
      "TMPDIR=" + (temp_dir / "tmp").string(),
  };
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view v(*e);
    const bool replaced = std::any_of(ours.begin(), ours.end(), [&](const std::string& o) {
      return v.substr(0, o.find('=') + 1) == o.substr(0, o.find('=') + 1);
    });
    if (!replaced) env.emplace_back(v);
  }
  env.insert(env.end(), ours.begin(), ours.end());
  return env;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Starts the browser in its own process group (so that the destructor can kill its renderers
// and helpers with it), `child_in` and `child_out` at its fds 3 and 4, its output in `log`.
absl::StatusOr<pid_t> Spawn(std::vector<std::string> args, std::vector<std::string> env,
                            int child_in, int child_out, const std::filesystem::path& log) {
  std::vector<char*> argv = CStrings(args), envp = CStrings(env);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_adddup2(&actions, child_in, 3);
  posix_spawn_file_actions_adddup2(&actions, child_out, 4);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // Nothing else of the test (a server's listening socket) lives on in the browser.
  posix_spawn_file_actions_addclosefrom_np(&actions, 5);
#endif
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t no_signals, pipe_default;
  sigemptyset(&no_signals);
  sigemptyset(&pipe_default);
  sigaddset(&pipe_default, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &no_signals);
  posix_spawnattr_setsigdefault(&attr, &pipe_default);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int error = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (error != 0) return absl::InternalError(absl::StrCat("starting ", args[0], ": ", strerror(error)));
  return pid;
}

}  // namespace

absl::StatusOr<std::string> FindChromium(const LaunchOptions& options) {
  if (!options.executable.empty()) {
    if (IsExecutableFile(options.executable)) return options.executable;
    return absl::NotFoundError(
        absl::StrCat("the browser given, ", options.executable, ", is not an executable file"));
  }
  if (const char* env = ::getenv("CHROMIUM"); env != nullptr && *env != '\0') {
    if (IsExecutableFile(env)) return std::string(env);
    return absl::NotFoundError(absl::StrCat("CHROMIUM=", env, " is not an executable file"));
  }
  const char* path_env = ::getenv("PATH");
  const std::string path = path_env != nullptr ? path_env : "";
  for (const char* name : kBrowserNames) {
    for (absl::string_view dir : absl::StrSplit(path, ':', absl::SkipEmpty())) {
      std::string candidate = absl::StrCat(std::string(dir), "/", name);
      if (IsExecutableFile(candidate)) return candidate;
    }
  }
  return absl::NotFoundError(
      absl::StrCat("CHROMIUM is not set and none of ", absl::StrJoin(kBrowserNames, ", "),
                   " is on PATH (", path, "); tools/bootstrap installs Debian's chromium"));
}

absl::StatusOr<std::unique_ptr<HeadlessBrowser>> HeadlessBrowser::Launch(
    const LaunchOptions& options) {
  if (options.viewport_width <= 0 || options.viewport_height <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("viewport ", options.viewport_width, "x",
                                                   options.viewport_height, " is empty"));
  }
  ASSIGN_OR_RETURN(std::string executable, FindChromium(options));
  std::unique_ptr<HeadlessBrowser> b(new HeadlessBrowser());  // its destructor cleans up
  b->executable_ = executable;
  b->command_timeout_ = options.command_timeout;
  ASSIGN_OR_RETURN(b->temp_dir_, MakeTempDir());

  int to[2], from[2];
  if (::pipe2(to, O_CLOEXEC) != 0) return absl::InternalError(strerror(errno));
  if (::pipe2(from, O_CLOEXEC) != 0) {
    ::close(to[0]);
    ::close(to[1]);
    return absl::InternalError(strerror(errno));
  }
  UniqueFd child_in = MoveHigh(to[0]), child_out = MoveHigh(from[1]);
  b->to_browser_ = MoveHigh(to[1]);
  b->from_browser_ = MoveHigh(from[0]);
  if (!child_in || !child_out || !b->to_browser_ || !b->from_browser_) {
    return absl::InternalError(absl::StrCat("moving pipe descriptors: ", strerror(errno)));
  }
  // Writes wait in poll() with the deadline, never in write().
  ::fcntl(b->to_browser_.get(), F_SETFL, ::fcntl(b->to_browser_.get(), F_GETFL) | O_NONBLOCK);

  ASSIGN_OR_RETURN(b->pid_, Spawn(BrowserArgs(executable, options, b->temp_dir_ / "profile"),
                                  ChildEnvironment(b->temp_dir_), child_in.get(), child_out.get(),
                                  b->temp_dir_ / "chromium.log"));
  child_in.reset();  // the browser holds its ends now: EOF on ours means it is gone
  child_out.reset();

  const Clock::time_point deadline = Clock::now() + options.command_timeout;
  ASSIGN_OR_RETURN(json target,
                   b->Send("Target.createTarget", {{"url", "about:blank"}}, false, deadline));
  ASSIGN_OR_RETURN(json attached,
                   b->Send("Target.attachToTarget",
                           {{"targetId", target.value("targetId", "")}, {"flatten", true}}, false,
                           deadline));
  b->session_id_ = attached.value("sessionId", "");
  if (b->session_id_.empty()) {
    return absl::InternalError(
        absl::StrCat("Target.attachToTarget gave no sessionId: ", Dump(attached)));
  }
  RETURN_IF_ERROR(b->Send("Page.enable", json::object(), true, deadline).status());
  RETURN_IF_ERROR(b->Send("Runtime.enable", json::object(), true, deadline).status());
  // The window's size leaves the page less room than it says (the headless window has a frame):
  // the viewport is set, so that screenshots and layouts have the size asked for.
  RETURN_IF_ERROR(b->Send("Emulation.setDeviceMetricsOverride",
                          {{"width", options.viewport_width},
                           {"height", options.viewport_height},
                           {"deviceScaleFactor", 1},
                           {"mobile", false}},
                          true, deadline)
                      .status());
  return b;
}

HeadlessBrowser::~HeadlessBrowser() {
  if (pid_ > 0) {
    if (to_browser_ && !Exited(std::chrono::milliseconds(0))) {
      // Ends the browser cleanly (it flushes nothing we need, but its helpers exit with it).
      (void)Send("Browser.close", json::object(), false, Clock::now() + kCloseGrace);
      Exited(kCloseGrace);
    }
    // The main process is not reaped yet, so its process group id cannot have been reused.
    ::kill(-pid_, SIGKILL);
    int status;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  to_browser_.reset();
  from_browser_.reset();
  if (!temp_dir_.empty()) {
    // A helper killed a moment ago may still be finishing a write: try a few times.
    std::error_code ec;
    for (int attempt = 0; attempt < 20; ++attempt) {
      std::filesystem::remove_all(temp_dir_, ec);
      if (!ec) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

bool HeadlessBrowser::Exited(std::chrono::milliseconds wait) {
  const Clock::time_point give_up = Clock::now() + wait;
  for (;;) {
    siginfo_t info{};
    // WNOWAIT: look without reaping, so the pid (and the process group id) stays reserved until
    // the destructor has killed the group.
    if (::waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_) {
      exit_code_ = info.si_code;
      exit_value_ = info.si_status;
      return true;
    }
    if (Clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string HeadlessBrowser::DescribeExit() {
  std::string what;
  if (!Exited(kCloseGrace)) {
    what = absl::StrCat(executable_, " (pid ", pid_, ") closed its DevTools pipe but still runs");
  } else if (exit_code_ == CLD_EXITED) {
    what = absl::StrCat(executable_, " exited with status ", exit_value_);
  } else {
    what = absl::StrCat(executable_, " was killed by signal ", exit_value_, " (",
                        strsignal(exit_value_), ")");
  }
  std::string log = Tail(temp_dir_ / "chromium.log", 15);
  if (!log.empty()) absl::StrAppend(&what, "; the end of its output:\n", log);
  return what;
}

absl::Status HeadlessBrowser::WriteMessage(const std::string& text, Clock::time_point deadline,
                                           const std::string& method) {
  ScopedNoSigpipe no_sigpipe;
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(to_browser_.get(), text.data() + done, text.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) {
      return absl::UnavailableError(absl::StrCat("sending ", method, ": ", DescribeExit()));
    }
    if (n < 0 && errno != EAGAIN) {
      return absl::InternalError(absl::StrCat("sending ", method, ": ", strerror(errno)));
    }
    if (Clock::now() >= deadline) {
      return absl::DeadlineExceededError(
          absl::StrCat("the browser did not read ", method, " in time: it hangs"));
    }
    pollfd p{to_browser_.get(), POLLOUT, 0};
    ::poll(&p, 1, PollMs(deadline, std::chrono::milliseconds(200)));
  }
  return absl::OkStatus();
}

absl::StatusOr<json> HeadlessBrowser::ReadMessage(Clock::time_point deadline,
                                                  const std::string& waiting_for) {
  for (;;) {
    if (size_t nul = read_buffer_.find('\0'); nul != std::string::npos) {
      json message = json::parse(read_buffer_.begin(), read_buffer_.begin() + nul, nullptr, false);
      std::string text = read_buffer_.substr(0, std::min<size_t>(nul, 200));
      read_buffer_.erase(0, nul + 1);
      if (message.is_discarded() || !message.is_object()) {
        return absl::InternalError(absl::StrCat("a message from the browser is not a JSON object: ", text));
      }
      return message;
    }
    if (Clock::now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat(
          "no answer from the browser by the deadline while waiting for ", waiting_for,
          ": the page or the browser hangs"));
    }
    pollfd p{from_browser_.get(), POLLIN, 0};
    int ready = ::poll(&p, 1, PollMs(deadline, std::chrono::milliseconds(250)));
    if (ready < 0 && errno != EINTR) return absl::InternalError(strerror(errno));
    if (ready <= 0) {
      // Nothing yet. A browser that died while a helper still holds the pipe open gives no EOF.
      if (Exited(std::chrono::milliseconds(0))) {
        return absl::UnavailableError(
            absl::StrCat("waiting for ", waiting_for, ": ", DescribeExit()));
      }
      continue;
    }
    char chunk[65536];
    ssize_t n = ::read(from_browser_.get(), chunk, sizeof(chunk));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) return absl::InternalError(absl::StrCat("reading from the browser: ", strerror(errno)));
    if (n == 0) {
      return absl::UnavailableError(absl::StrCat("waiting for ", waiting_for, ": ", DescribeExit()));
    }
    read_buffer_.append(chunk, static_cast<size_t>(n));
  }
}

void HeadlessBrowser::HandleEvent(const json& message) {
  const std::string method = message.value("method", "");
  const json params = message.value("params", json::object());
  const bool ours = message.value("sessionId", "") == session_id_;
  if (method == "Page.loadEventFired" && ours) {
    load_fired_ = true;
  } else if (method == "Runtime.exceptionThrown" && ours) {
    page_errors_.push_back(
        "uncaught exception: " + ExceptionText(params.value("exceptionDetails", json::object())));
  } else if (method == "Runtime.consoleAPICalled" && ours && params.value("type", "") == "error") {
    std::vector<std::string> parts;
    for (const json& arg : params.value("args", json::array())) {
      if (arg.contains("value")) {
        parts.push_back(arg["value"].is_string() ? arg["value"].get<std::string>() : Dump(arg["value"]));
      } else {
        parts.push_back(arg.value("description", arg.value("type", "")));
      }
    }
    page_errors_.push_back("console.error: " + absl::StrJoin(parts, " "));
  } else if (method == "Inspector.targetCrashed" && ours) {
    page_gone_ = "the page crashed (Inspector.targetCrashed)";
  } else if (method == "Target.detachedFromTarget" && params.value("sessionId", "") == session_id_) {
    page_gone_ = "the page was closed (Target.detachedFromTarget)";
  }
}

absl::StatusOr<json> HeadlessBrowser::Send(const std::string& method, const json& params,
                                           bool to_page, Clock::time_point deadline) {
  if (to_page && !page_gone_.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(method, ": ", page_gone_));
  }
  const int id = next_id_++;
  json message = {{"id", id}, {"method", method}, {"params", params}};
  if (to_page) message["sessionId"] = session_id_;
  RETURN_IF_ERROR(WriteMessage(Dump(message) + '\0', deadline, method));
  for (;;) {
    ASSIGN_OR_RETURN(json reply, ReadMessage(deadline, "the reply to " + method));
    if (reply.contains("method")) {
      HandleEvent(reply);
      if (to_page && !page_gone_.empty()) {
        return absl::UnavailableError(absl::StrCat(method, ": ", page_gone_));
      }
      continue;
    }
    // A reply to an earlier command that timed out is dropped here.
    if (reply.value("id", -1) != id) continue;
    if (const auto error = reply.find("error"); error != reply.end()) {
      return absl::InternalError(absl::StrCat(method, " failed: ", error->value("message", Dump(*error)),
                                              error->contains("data") ? " (" + Dump((*error)["data"]) + ")" : ""));
    }
    return reply.value("result", json::object());
  }
}

absl::StatusOr<json> HeadlessBrowser::Command(const std::string& method, const json& params) {
  return Send(method, params, true, Clock::now() + command_timeout_);
}

absl::Status HeadlessBrowser::Navigate(const std::string& url) {
  const Clock::time_point deadline = Clock::now() + command_timeout_;
  load_fired_ = false;
  ASSIGN_OR_RETURN(json result, Send("Page.navigate", {{"url", url}}, true, deadline));
  if (std::string error = result.value("errorText", ""); !error.empty()) {
    return absl::UnavailableError(absl::StrCat("navigating to ", url, ": ", error));
  }
  // A navigation within the document (only the #fragment changes) has no loader and no load.
  if (!result.contains("loaderId")) return absl::OkStatus();
  while (!load_fired_) {
    ASSIGN_OR_RETURN(json message, ReadMessage(deadline, "the load event of " + url));
    if (message.contains("method")) HandleEvent(message);
    if (!page_gone_.empty()) {
      return absl::UnavailableError(absl::StrCat("loading ", url, ": ", page_gone_));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<json> HeadlessBrowser::EvaluateUntil(const std::string& expression,
                                                    Clock::time_point deadline) {
  ASSIGN_OR_RETURN(json result, Send("Runtime.evaluate",
                                     {{"expression", expression},
                                      {"returnByValue", true},
                                      {"awaitPromise", true},
                                      {"userGesture", true}},
                                     true, deadline));
  if (const auto details = result.find("exceptionDetails"); details != result.end()) {
    return absl::InvalidArgumentError(absl::StrCat("JavaScript exception: ", ExceptionText(*details)));
  }
  const json value = result.value("result", json::object());
  if (const auto v = value.find("value"); v != value.end()) return *v;
  if (const auto u = value.find("unserializableValue"); u != value.end()) return *u;  // NaN, -0
  return json(nullptr);  // undefined, or a value that has no JSON form
}

absl::StatusOr<json> HeadlessBrowser::Evaluate(const std::string& expression) {
  return EvaluateUntil(expression, Clock::now() + command_timeout_);
}

absl::Status HeadlessBrowser::WaitFor(const std::string& predicate,
                                      std::chrono::milliseconds timeout) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + timeout;
  // The newline ends a trailing // comment of the predicate.
  const std::string expression = "!!(" + predicate + "\n)";
  std::string last = "false";
  for (;;) {
    // Each evaluation has the command timeout (a hang), not what is left of `timeout`: on a
    // loaded machine the last one may finish after the deadline and still count.
    absl::StatusOr<json> value = EvaluateUntil(expression, Clock::now() + command_timeout_);
    if (value.ok() && *value == true) return absl::OkStatus();
    if (!value.ok() && value.status().code() != absl::StatusCode::kInvalidArgument) {
      return absl::Status(value.status().code(), absl::StrCat("waiting for `", predicate, "`: ",
                                                              value.status().message()));
    }
    if (!value.ok()) last = std::string(value.status().message());
    if (Clock::now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat("`", predicate, "` did not become true within ",
                                                      Seconds(Clock::now() - start), "; last: ", last));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

absl::Status HeadlessBrowser::ClickWithText(const std::string& selector, const std::string& text) {
  // SVG elements have no click(): they get the event a mouse click would send.
  ASSIGN_OR_RETURN(json clicked,
                   Evaluate("(() => { const text = " + Dump(text) + "; const e = [...document.querySelectorAll(" +
                            Dump(selector) +
                            ")].find((e) => e.textContent.includes(text)); if (!e) return false; "
                            "if (typeof e.click === 'function') e.click(); else e.dispatchEvent("
                            "new MouseEvent('click', {bubbles: true, cancelable: true, view: window})); "
                            "return true; })()"));
  if (clicked != true) {
    return absl::NotFoundError(
        text.empty() ? absl::StrCat("no element matches the selector `", selector, "`")
                     : absl::StrCat("no element matching `", selector, "` contains the text \"", text, "\""));
  }
  return absl::OkStatus();
}

absl::Status HeadlessBrowser::Click(const std::string& selector) { return ClickWithText(selector, ""); }

absl::StatusOr<std::string> HeadlessBrowser::Text(const std::string& selector) {
  ASSIGN_OR_RETURN(json text, Evaluate("(() => { const e = document.querySelector(" + Dump(selector) +
                                       "); return e ? e.textContent : null; })()"));
  if (!text.is_string()) {
    return absl::NotFoundError(absl::StrCat("no element matches the selector `", selector, "`"));
  }
  return text.get<std::string>();
}

absl::StatusOr<int> HeadlessBrowser::Count(const std::string& selector) {
  ASSIGN_OR_RETURN(json n, Evaluate("document.querySelectorAll(" + Dump(selector) + ").length"));
  absl::StatusOr<int64_t> count = JsonInt(n, "the element count", 0, INT_MAX);
  if (!count.ok()) return absl::InternalError(count.status().message());
  return static_cast<int>(*count);
}

absl::StatusOr<std::string> HeadlessBrowser::ScreenshotPng() {
  ASSIGN_OR_RETURN(json shot, Command("Page.captureScreenshot", {{"format", "png"}}));
  std::string png;
  if (!shot.contains("data") || !shot["data"].is_string() ||
      !absl::Base64Unescape(shot["data"].get<std::string>(), &png)) {
    return absl::InternalError("Page.captureScreenshot gave no base64 data");
  }
  return png;
}

absl::Status HeadlessBrowser::Screenshot(const std::filesystem::path& path) {
  ASSIGN_OR_RETURN(std::string png, ScreenshotPng());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(png.data(), static_cast<std::streamsize>(png.size()));
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path.string(), ": ", strerror(errno)));
  return absl::OkStatus();
}

}  // namespace tg::browser
