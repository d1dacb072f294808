// File: tinygrad/engine/cuda_device_options.cc
#include "tinygrad/engine/cuda_device_options.h"

#include <filesystem>
#include <system_error>

#include "tinygrad/base/device_name.h"

namespace tg {

CudaDeviceOptions CudaDeviceOptions::FromConfig(const Config& c) {
  std::optional<std::string> ptx = ProcessEnv("CUDA_PTX");
  std::optional<std::string> lru = ProcessEnv("LRU");
  std::error_code ec;
  std::string temp_dir = std::filesystem::temp_directory_path(ec).string();
  return {.libs = CudaLibraryOptions::FromEnvironment(),
          .ptx = ptx.has_value() && !ptx->empty() && *ptx != "0",
          .cachelevel = c.cachelevel,
          .cache_dir = c.cache_dir,
          .temp_dir = ec ? "" : std::move(temp_dir),
          .lru = !lru.has_value() || lru->empty() || *lru != "0"};
}

}  // namespace tg
