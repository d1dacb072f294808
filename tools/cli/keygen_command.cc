// File: tools/cli/keygen_command.cc
#include "tools/cli/keygen_command.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "autotune/net/curve_keys.h"
#include "tools/cli/command_line.h"

namespace tg {
namespace {

using autotune::net::CurveKeyPair;
using autotune::net::GenerateCurveKeyPair;
using autotune::net::KeyFilePaths;
using autotune::net::ValidateKeyName;
using autotune::net::WriteKeyPairFiles;

constexpr char kDescription[] =
    "Makes a CURVE key pair for the tuning farm: DIR/NAME.key holds the secret key (mode 0600;\n"
    "keep it private) and DIR/NAME.pub the public key (give it to the other side: a coordinator's\n"
    "allowlist takes workers' .pub files, a worker takes the coordinator's). DIR is created with\n"
    "mode 0700 if missing. Existing files are never overwritten. Prints the public key.";

int Fail(const std::string& msg) {
  std::fprintf(stderr, "tg keygen: %s\n", msg.c_str());
  return kExitFailed;
}

// mkdir -p DIR with mode 0700 for every directory it makes.
bool MakeDirs(const std::string& dir, std::string* error) {
  for (size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    const std::string prefix = dir.substr(0, pos);
    if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      *error = "cannot create " + prefix + ": " + std::strerror(errno);
      return false;
    }
  }
  struct stat st;
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = dir + " is not a directory";
    return false;
  }
  return true;
}

}  // namespace

int KeygenCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg keygen");
  SetUpCommandApp(app);
  std::string dir = ".";
  std::string name;
  app.add_option("--dir", dir, "where the key files go")->capture_default_str()->check([](const std::string& d) {
    return d.empty() ? std::string("needs a directory") : std::string();
  });
  app.add_option("NAME", name, "the key pair's name (NAME.key, NAME.pub)")->required();
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (absl::Status s = ValidateKeyName(name); !s.ok()) return UsageError(app, std::string(s.message()));

  std::string error;
  if (!MakeDirs(dir, &error)) return Fail(error);
  absl::StatusOr<CurveKeyPair> keys = GenerateCurveKeyPair();
  if (!keys.ok()) return Fail(std::string(keys.status().message()));
  absl::StatusOr<KeyFilePaths> paths = WriteKeyPairFiles(*keys, dir, name);
  if (!paths.ok()) return Fail(std::string(paths.status().message()));
  std::printf("secret key file: %s (mode 0600; keep it private)\n", paths->secret_path.c_str());
  std::printf("public key file: %s (give it to the other side)\n", paths->public_path.c_str());
  std::printf("public key:\n%s\n", keys->public_z85.c_str());
  return kExitOk;
}

}  // namespace tg
