// File: tinygrad/runtime/cuda/library_search.cc
#include "tinygrad/runtime/cuda/library_search.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

namespace tg {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

CudaLibraryOptions CudaLibraryOptions::FromEnvironment() {
  CudaLibraryOptions o;
  o.nvrtc_path = Env("NVRTC_PATH");
  o.nvjitlink_path = Env("NVJITLINK_PATH");
  o.driver_path = Env("CUDA_DRIVER_PATH");
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::string d = Env(var); !d.empty()) dirs.push_back(d);
  dirs.insert(dirs.end(), o.cuda_dirs.begin(), o.cuda_dirs.end());
  o.cuda_dirs = std::move(dirs);
  return o;
}

std::vector<std::string> ToolkitLibraryCandidates(const CudaLibraryOptions& options,
                                                  std::string_view explicit_path,
                                                  const std::vector<std::string>& sonames) {
  std::vector<std::string> out;
  // CUDA_PATH may well be the default dir too: each candidate once keeps errors short.
  auto add = [&out](std::string c) {
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
  };
  if (!explicit_path.empty()) add(std::string(explicit_path));
  for (const std::string& name : sonames) add(name);
  for (const std::string& dir : options.cuda_dirs)
    for (const char* sub : {"/lib64/", "/lib/"})
      for (const std::string& name : sonames) add(dir + sub + name);
  return out;
}

std::vector<std::string> CudaIncludeDirs(const CudaLibraryOptions& options) {
  std::vector<std::string> out;
  for (const std::string& dir : options.cuda_dirs)
    if (IsDirectory(dir + "/include")) out.push_back(dir + "/include");
  return out;
}

}  // namespace tg
