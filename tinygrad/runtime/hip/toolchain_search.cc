// File: tinygrad/runtime/hip/toolchain_search.cc
#include "tinygrad/runtime/hip/toolchain_search.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tg {
namespace {

// Debian's multiarch dir name for this build's machine: where rocm-device-libs puts its
// bitcode (/usr/lib/<multiarch>/amdgcn/bitcode).
#if defined(__x86_64__)
constexpr char kMultiarch[] = "x86_64-linux-gnu";
#elif defined(__aarch64__)
constexpr char kMultiarch[] = "aarch64-linux-gnu";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr char kMultiarch[] = "powerpc64le-linux-gnu";
#else
constexpr char kMultiarch[] = "";
#endif

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool IsFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsExecutable(const std::string& path) { return IsFile(path) && ::access(path.c_str(), X_OK) == 0; }

void AddOnce(std::vector<std::string>& out, std::string c) {
  if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
}

// `name` (no slash) looked up in PATH as a shell would; "" when not found.
std::string WhichInPath(const std::string& name) {
  const std::string path_var = Env("PATH");
  for (size_t start = 0; start <= path_var.size();) {
    size_t colon = path_var.find(':', start);
    if (colon == std::string::npos) colon = path_var.size();
    if (colon > start) {
      std::string path = path_var.substr(start, colon - start) + "/" + name;
      if (IsExecutable(path)) return path;
    }
    start = colon + 1;
  }
  return "";
}

}  // namespace

HipToolchainOptions HipToolchainOptions::FromEnvironment() {
  HipToolchainOptions o;
  o.comgr_path = Env("COMGR_PATH");
  o.device_lib_dir = Env("HIP_DEVICE_LIB_PATH");
  o.clang_path = Env("HIP_CLANG_PATH");
  if (std::string d = Env("ROCM_PATH"); !d.empty()) o.rocm_dirs.insert(o.rocm_dirs.begin(), d);
  return o;
}

std::vector<std::string> ComgrLibraryCandidates(const HipToolchainOptions& options) {
  // comgr 3 (ROCm 6) first: its enum values differ, ComgrApi reads the version and adapts.
  const std::vector<std::string> sonames = {"libamd_comgr.so.3", "libamd_comgr.so.2",
                                            "libamd_comgr.so"};
  if (!options.comgr_path.empty()) return {options.comgr_path};
  std::vector<std::string> out;
  for (const std::string& name : sonames) AddOnce(out, name);
  for (const std::string& dir : options.rocm_dirs)
    for (const std::string& name : sonames) AddOnce(out, absl::StrCat(dir, "/lib/", name));
  return out;
}

std::vector<std::string> DeviceLibDirCandidates(const HipToolchainOptions& options) {
  if (!options.device_lib_dir.empty()) return {options.device_lib_dir};
  std::vector<std::string> out;
  for (const std::string& dir : options.rocm_dirs) AddOnce(out, dir + "/amdgcn/bitcode");
  if (kMultiarch[0] != '\0') AddOnce(out, absl::StrCat("/usr/lib/", kMultiarch, "/amdgcn/bitcode"));
  return out;
}

absl::StatusOr<std::string> FindDeviceLibDir(const HipToolchainOptions& options) {
  std::vector<std::string> tried = DeviceLibDirCandidates(options);
  for (const std::string& dir : tried)
    if (IsFile(dir + "/ocml.bc")) return dir;
  return absl::NotFoundError(absl::StrCat(
      "AMD device libraries (ocml.bc, ockl.bc: Debian's rocm-device-libs, see tools/bootstrap) not "
      "found; looked in ", absl::StrJoin(tried, ", "), " (HIP_DEVICE_LIB_PATH names the dir)"));
}

std::vector<std::string> ClangCandidates(const HipToolchainOptions& options) {
  if (!options.clang_path.empty()) return {options.clang_path};
  std::vector<std::string> out;
  for (const std::string& dir : options.rocm_dirs) AddOnce(out, dir + "/llvm/bin/clang");
  for (int v = 20; v >= 15; --v) AddOnce(out, absl::StrCat("clang-", v));
  return out;
}

absl::StatusOr<std::string> FindClang(const HipToolchainOptions& options) {
  std::vector<std::string> tried = ClangCandidates(options);
  for (const std::string& c : tried) {
    if (c.find('/') != std::string::npos) {
      if (IsExecutable(c)) return c;
    } else if (std::string path = WhichInPath(c); !path.empty()) {
      return path;
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "no clang for AMD GPUs (clang 15 or newer: Debian's clang-15 and lld-15, see "
      "tools/bootstrap); tried ", absl::StrJoin(tried, ", "), " (HIP_CLANG_PATH names one)"));
}

}  // namespace tg
