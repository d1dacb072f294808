// File: tinygrad/runtime/subprocess.h
// Runs an external tool (a C compiler) without a shell and collects its output.
#ifndef TINYGRAD_RUNTIME_SUBPROCESS_H_
#define TINYGRAD_RUNTIME_SUBPROCESS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal
  std::string output;  // stdout and stderr together
};

// Runs argv[0] (looked up in PATH) with stdin from /dev/null. An error status only when the
// process could not be started (NotFound when the program does not exist); a non-zero exit is
// a result.
absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv);

// A fresh private directory under the system temp dir, removed with its contents when the
// object dies.
class TempDir {
 public:
  static absl::StatusOr<TempDir> Create(const std::string& prefix);
  TempDir(TempDir&& o) noexcept : path_(std::move(o.path_)) { o.path_.clear(); }
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_SUBPROCESS_H_
