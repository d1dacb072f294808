// File: tools/cli/keygen_command.cc
#include "tools/cli/keygen_command.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "autotune/net/curve_keys.h"

namespace tg {
namespace {

using autotune::net::CurveKeyPair;
using autotune::net::GenerateCurveKeyPair;
using autotune::net::KeyFilePaths;
using autotune::net::ValidateKeyName;
using autotune::net::WriteKeyPairFiles;

void PrintKeygenUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tg keygen [--dir DIR] NAME\n\n"
               "Makes a CURVE key pair for the tuning farm: DIR/NAME.key holds the secret key\n"
               "(mode 0600; keep it private) and DIR/NAME.pub the public key (give it to the\n"
               "other side: a coordinator's allowlist takes workers' .pub files, a worker takes\n"
               "the coordinator's). DIR defaults to the current directory and is created with\n"
               "mode 0700 if missing. Existing files are never overwritten. Prints the public key.\n");
}

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tg keygen: %s\n\n", msg.c_str());
  PrintKeygenUsage(stderr);
  return 2;
}

int Fail(const std::string& msg) {
  std::fprintf(stderr, "tg keygen: %s\n", msg.c_str());
  return 1;
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
  std::string dir = ".";
  std::string name;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      PrintKeygenUsage(stdout);
      return 0;
    }
    if (a == "--dir") {
      if (i + 1 >= args.size()) return Usage("--dir needs a directory");
      dir = std::string(args[++i]);
    } else if (a.starts_with("--dir=")) {
      dir = std::string(a.substr(6));
    } else if (a.starts_with("-")) {
      return Usage("unknown option '" + std::string(a) + "'");
    } else if (!name.empty()) {
      return Usage("only one NAME, got '" + name + "' and '" + std::string(a) + "'");
    } else {
      name = std::string(a);
    }
  }
  if (name.empty()) return Usage("no NAME given");
  if (dir.empty()) return Usage("--dir needs a directory");
  if (absl::Status s = ValidateKeyName(name); !s.ok()) return Usage(std::string(s.message()));

  std::string error;
  if (!MakeDirs(dir, &error)) return Fail(error);
  absl::StatusOr<CurveKeyPair> keys = GenerateCurveKeyPair();
  if (!keys.ok()) return Fail(std::string(keys.status().message()));
  absl::StatusOr<KeyFilePaths> paths = WriteKeyPairFiles(*keys, dir, name);
  if (!paths.ok()) return Fail(std::string(paths.status().message()));
  std::printf("secret key file: %s (mode 0600; keep it private)\n", paths->secret_path.c_str());
  std::printf("public key file: %s (give it to the other side)\n", paths->public_path.c_str());
  std::printf("public key:\n%s\n", keys->public_z85.c_str());
  return 0;
}

}  // namespace tg
