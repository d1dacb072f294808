// File: tinygrad/runtime/subprocess.cc
// posix_spawn with the output captured in a temp file (no pipes to drain, no shell quoting).
#include "tinygrad/runtime/subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"

extern char** environ;

namespace tg {

absl::StatusOr<TempDir> TempDir::Create(const std::string& prefix) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string templ = (base / (prefix + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr)
    return absl::UnavailableError(absl::StrCat("mkdtemp ", templ, ": ", std::strerror(errno)));
  return TempDir(templ);
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv) {
  if (argv.empty()) return absl::InvalidArgumentError("RunProcess: empty argv");
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_proc_");
  if (!dir.ok()) return dir.status();
  std::string out_path = dir->path() + "/output.txt";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    std::string msg = absl::StrCat("can't run ", argv[0], ": ", std::strerror(rc));
    return rc == ENOENT ? absl::NotFoundError(msg) : absl::UnavailableError(msg);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return absl::UnavailableError(absl::StrCat("waitpid: ", std::strerror(errno)));
  }
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(out_path, std::ios::binary);
  result.output.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return result;
}

}  // namespace tg
