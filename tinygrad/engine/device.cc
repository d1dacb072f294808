// File: tinygrad/engine/device.cc
// The device table: backends are wired here, by name, and nowhere else.
#include "tinygrad/engine/device.h"

#include <memory>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/engine/cpu_device.h"

namespace tg {

absl::StatusOr<Device*> GetDevice(const std::string& name, const DeviceOptions& options) {
  struct Made {
    DeviceOptions options;
    std::unique_ptr<Device> device;
  };
  static std::mutex mu;
  // by name, every options value asked for (a handful per process: linear search is enough)
  static auto* const devices = new absl::flat_hash_map<std::string, std::vector<Made>>();
  std::lock_guard<std::mutex> lock(mu);
  std::vector<Made>& made = (*devices)[name];
  for (const Made& m : made)
    if (m.options == options) return m.device.get();
  std::string kind = name.substr(0, name.find(':'));
  std::unique_ptr<Device> dev;
  if (kind == "CPU") dev = MakeCpuDevice(name, options.cpu);
  if (!dev) {
    devices->erase(name);
    return absl::NotFoundError(absl::StrCat("unknown device '", name, "' (available: CPU)"));
  }
  made.push_back({options, std::move(dev)});
  return made.back().device.get();
}

absl::StatusOr<Device*> GetDevice(const std::string& name) {
  return GetDevice(name, DeviceOptions::FromConfig(GetConfig()));
}

}  // namespace tg
