// File: tinygrad/engine/device.cc
// The device table: backends are wired here, by name, and nowhere else.
#include "tinygrad/engine/device.h"

#include <memory>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/engine/cpu_device.h"
#include "tinygrad/engine/cuda_device.h"
#include "tinygrad/engine/emulator_device.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg {
namespace {

constexpr char kDeviceLostPayload[] = "tinygrad-cc/device-lost";

// Whether a device of `kind` made with `a` is the one `b` asks for: only the options of the
// device's own kind count (a CPU device does not change with the CUDA library paths).
bool SameOptions(std::string_view kind, const DeviceOptions& a, const DeviceOptions& b) {
  if (kind == "CPU") return a.cpu == b.cpu;
  if (kind == "CUDA") return a.cuda == b.cuda;
  if (kind == "PYTHON") return a.emulator == b.emulator;
  return a == b;
}

// "CUDA, CPU, PYTHON"
std::string KnownKinds() {
  std::string out;
  for (std::string_view k : kDeviceKinds) absl::StrAppend(&out, out.empty() ? "" : ", ", std::string(k));
  return out;
}

}  // namespace

absl::Status RawBuffer::CopyFromDevice(const RawBuffer&, size_t, size_t, size_t) {
  return absl::UnimplementedError("no device-to-device copy between these buffers");
}

absl::StatusOr<std::unique_ptr<Program>> Device::LoadProgram(const ProgramSpec& spec,
                                                              const std::string& lib) {
  if (spec.dynamic_shared_bytes != 0)
    return absl::UnimplementedError(absl::StrCat(name(), " cannot launch ", spec.function_name, " with ",
                                                 spec.dynamic_shared_bytes,
                                                 " bytes of dynamic shared memory"));
  if (!spec.tensor_maps.empty())
    return absl::UnimplementedError(absl::StrCat(name(), " cannot launch ", spec.function_name,
                                                 " with tensor maps (Hopper's copy engine)"));
  return Load(spec.function_name, lib);
}

absl::StatusOr<std::unique_ptr<KernelGraph>> Device::MakeGraph(std::span<const GraphLaunch>) {
  return absl::UnimplementedError(absl::StrCat(name(), " has no graphs"));
}

absl::StatusOr<std::string> Device::Disassemble(const std::string&) const {
  return absl::UnimplementedError(absl::StrCat("device ", name(), " has no disassembler"));
}

absl::Status DeviceLostError(std::string_view message) {
  absl::Status s = absl::UnavailableError(std::string(message));
  s.SetPayload(kDeviceLostPayload, absl::Cord("1"));
  return s;
}

bool IsDeviceLost(const absl::Status& s) {
  return !s.ok() && s.GetPayload(kDeviceLostPayload).has_value();
}

absl::StatusOr<Device*> GetDevice(const std::string& requested, const DeviceOptions& options) {
  struct Made {
    DeviceOptions options;
    std::unique_ptr<Device> device;
  };
  static std::mutex mu;
  // by name, every options value asked for (a handful per process: linear search is enough)
  static auto* const devices = new absl::flat_hash_map<std::string, std::vector<Made>>();
  const std::string name = CanonicalDeviceName(requested);
  const std::string kind(DeviceKind(name));
  std::lock_guard<std::mutex> lock(mu);
  auto it = devices->find(name);
  if (it != devices->end())
    for (const Made& m : it->second)
      if (SameOptions(kind, m.options, options)) return m.device.get();
  std::unique_ptr<Device> dev;
  if (kind == "CPU") {
    // a target this CPU cannot run would make every kernel die of an illegal instruction
    RETURN_IF_ERROR(CheckCpuTarget(options.cpu.cpu_target));
    dev = MakeCpuDevice(name, options.cpu);
  } else if (kind == "CUDA") {
    // a failure is not remembered: the next request tries again (a driver installed since)
    ASSIGN_OR_RETURN(dev, MakeCudaDevice(name, options.cuda));
  } else if (kind == "PYTHON") {
    ASSIGN_OR_RETURN(dev, MakeEmulatorDevice(name, options.emulator));
  } else {
    return absl::NotFoundError(absl::StrCat("unknown device '", requested,
                                            "' (available: ", KnownKinds(), ")"));
  }
  std::vector<Made>& made = (*devices)[name];
  made.push_back({options, std::move(dev)});
  return made.back().device.get();
}

absl::StatusOr<Device*> GetDevice(const std::string& name) {
  return GetDevice(name, DeviceOptions::FromConfig(GetConfig()));
}

}  // namespace tg
