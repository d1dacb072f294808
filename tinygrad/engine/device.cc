// File: tinygrad/engine/device.cc
// The device table: backends are wired here, by name, and nowhere else.
#include "tinygrad/engine/device.h"

#include <memory>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/engine/cpu_device.h"

namespace tg {

absl::StatusOr<Device*> GetDevice(const std::string& name) {
  static std::mutex mu;
  static auto* const devices = new absl::flat_hash_map<std::string, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = devices->find(name); it != devices->end()) return it->second.get();
  std::string kind = name.substr(0, name.find(':'));
  std::unique_ptr<Device> dev;
  if (kind == "CPU") dev = MakeCpuDevice(name);
  if (!dev)
    return absl::NotFoundError(absl::StrCat("unknown device '", name, "' (available: CPU)"));
  Device* raw = dev.get();
  devices->emplace(name, std::move(dev));
  return raw;
}

}  // namespace tg
