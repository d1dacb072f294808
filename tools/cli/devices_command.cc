// File: tools/cli/devices_command.cc
// Port of tinygrad's device.py enumerate_devices_str (`python -m tinygrad.device`): each kind
// of device in the order the default is looked for, whether it opens and computes
// Tensor([1, 2, 3]) * 2 right with this process's settings, and the default marked. Beyond the
// reference: each device's class (what the tuning database and the farm key timings by), and
// the settings that pick its other compilers (each is checked by running this again with it).
#include "tools/cli/devices_command.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "autotune/key/device_class.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/tensor/tensor.h"
#include "tools/cli/command_line.h"

namespace tg {
namespace {

constexpr char kDescription[] =
    "Lists the kinds of device in the order the default device is looked for (tinygrad's\n"
    "ALL_DEVICES: DEV, DEVICE or <KIND>=1 name it, else it is the first that opens) and every\n"
    "further GPU (CUDA:1, ...), marks the default with '*', and says of each whether it opens\n"
    "and computes Tensor([1, 2, 3]) * 2 right with the current settings (PASS, or FAIL and\n"
    "why), its device class (the tuning database's key: a farm worker on it announces this\n"
    "class), for a GPU whether a TinyJit replays as graphs there, and the settings that pick\n"
    "its other compilers; run it again with one of them to check that compiler. Exit 0 when\n"
    "the default device works, 1 when it does not.";

// The settings that pick another compiler or target of each kind (README's settings table).
std::string_view Alternatives(std::string_view kind) {
  if (kind == "CPU") return "CPU_LLVM=1 (LLVM IR, in-process), CPU_CC=<compiler> (C through that compiler's process)";
  if (kind == "CUDA") return "CUDA_PTX=1 (PTX straight to the driver's JIT, no NVRTC)";
  if (kind == "PYTHON") return "EMULATE=CUDA|AMD|METAL|... (the GPU it lowers for)";
  return "";
}

// The class in a line: its digest, then what tells machines apart, without the ISA flags and
// the compiler's flags (DeviceClass::Describe has them all, as tg farm status shows a worker's).
std::string Short(const autotune::DeviceClass& dc) {
  std::vector<std::string> parts = {dc.device};
  if (!dc.cpu_model.empty()) parts.push_back(dc.cpu_model);
  if (!dc.gpu_name.empty()) parts.push_back(absl::StrCat(dc.gpu_name, " ", dc.gpu_arch));
  if (!dc.gpu_driver.empty()) parts.push_back(dc.gpu_driver);
  if (dc.cores > 0) parts.push_back(absl::StrCat(dc.cores, dc.cores == 1 ? " core" : " cores"));
  parts.push_back(dc.renderer);
  parts.push_back(dc.compiler_id.substr(0, dc.compiler_id.find(" -")));  // without its flags
  return absl::StrCat(dc.Digest(), ": ", absl::StrJoin(parts, " | "));
}

// Tensor([1, 2, 3]) * 2 on `device`, realized.
absl::Status Computes(const std::string& device) {
  absl::StatusOr<std::vector<int32_t>> got =
      (Tensor::FromVector<int32_t>({1, 2, 3}, {3}, device) * 2).to_vector<int32_t>();
  if (!got.ok()) return got.status();
  if (*got != std::vector<int32_t>{2, 4, 6})
    return absl::InternalError(absl::StrCat("got [", absl::StrJoin(*got, ", "), "] instead of [2, 4, 6]"));
  return absl::OkStatus();
}

// One device's lines; whether it works.
bool Report(const std::string& name, bool is_default) {
  const std::string indent(10, ' ');
  // messages may span lines (the libraries a search tried): each under the first
  const std::string next_line = "\n" + indent + "  ";
  auto text = [&](absl::string_view message) { return absl::StrReplaceAll(message, {{"\n", next_line}}); };
  std::printf("%s %-7s ", is_default ? "*" : " ", name.c_str());
  absl::StatusOr<Device*> dev = GetDevice(name);
  if (!dev.ok()) {
    std::printf("FAIL %s\n", text(dev.status().message()).c_str());
    return false;
  }
  const absl::Status works = Computes(name);
  std::printf("%s\n", works.ok() ? "PASS" : absl::StrCat("FAIL ", text(works.message())).c_str());
  if (absl::StatusOr<autotune::DeviceClass> dc = autotune::DeviceClassFor(**dev); dc.ok())
    std::printf("%sclass %s\n", indent.c_str(), Short(*dc).c_str());
  else
    std::printf("%sclass: %s\n", indent.c_str(), text(dc.status().message()).c_str());
  if ((*dev)->gpu() != nullptr)  // how a TinyJit replays there (engine/jit_graph.h)
    std::printf("%sjit replays: %s\n", indent.c_str(),
                (*dev)->has_graphs() ? "as graphs (JIT=2: kernel by kernel)"
                                     : "kernel by kernel (the driver has no graphs: CUDA 12 on)");
  if (DeviceKind(name) == name)  // once a kind
    std::printf("%salso: %s\n", indent.c_str(), std::string(Alternatives(name)).c_str());
  return works.ok();
}

// The names to report: each kind, and after CUDA every further GPU that opens (CUDA:1, ...).
std::vector<std::string> DeviceNames() {
  std::vector<std::string> names;
  for (std::string_view kind : kDeviceKinds) {
    names.emplace_back(kind);
    if (kind != "CUDA" || !GetDevice("CUDA").ok()) continue;
    for (int i = 1; i < 64; ++i) {
      const std::string gpu = absl::StrCat("CUDA:", i);
      if (!GetDevice(gpu).ok()) break;  // no such GPU (a GPU that does not open ends the list too)
      names.push_back(gpu);
    }
  }
  return names;
}

}  // namespace

int DevicesCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg devices");
  SetUpCommandApp(app);
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  const std::string default_device = DefaultDevice();
  bool default_works = false, default_listed = false;
  for (const std::string& name : DeviceNames()) {
    const bool is_default = name == default_device;
    const bool works = Report(name, is_default);
    if (is_default) {
      default_listed = true;
      default_works = works;
    }
  }
  // DEV names a device tinygrad-cc does not have, or a GPU this machine lacks
  if (!default_listed) std::printf("the default device %s is none of these\n", default_device.c_str());
  return default_works ? kExitOk : kExitFailed;
}

}  // namespace tg
