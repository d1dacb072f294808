// File: tinygrad/base/device_name.h
// Device names as tinygrad spells them (tinygrad/device.py: Device.canonicalize and
// Device.DEFAULT): "CPU", "CUDA", "CUDA:1" for a second GPU. Pure string functions, below every
// package that names a device (the Tensor API, the engine's registry), plus the one parse of
// the environment variables that pick the default device.
//
// Example:
//   CanonicalDeviceName("cuda:0")      // "CUDA"
//   DeviceKind("CUDA:1")               // "CUDA"
//   MultiDeviceName({"cpu", "CPU:1"})  // "(CPU, CPU:1)"
//   DeviceOrdinal("CUDA:1")            // 1
//   DeviceFromEnvironment()            // "CUDA" under DEV=CUDA (or DEVICE=CUDA, or CUDA=1)
#ifndef TINYGRAD_BASE_DEVICE_NAME_H_
#define TINYGRAD_BASE_DEVICE_NAME_H_

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

// The kinds of device tinygrad-cc has, in the order of tinygrad's ALL_DEVICES, then the UOp
// emulator (tinygrad's PYTHON device, never picked unless asked for).
inline constexpr std::array<std::string_view, 3> kDeviceKinds = {"CUDA", "CPU", "PYTHON"};

// tinygrad's Device.canonicalize: the kind (before the first ':') upper-cased, the rest kept,
// and a trailing ":0" dropped (device 0 is the kind's plain name).
std::string CanonicalDeviceName(std::string_view name);

// A tensor on several devices (tinygrad's device tuple) names them all: "(CPU, CPU:1)", each
// canonical, in the tuple's order. CanonicalDeviceName canonicalizes each name of such a string.
std::string MultiDeviceName(std::span<const std::string> devices);
bool IsMultiDeviceName(std::string_view name);  // "(...)"
// The devices a name stands for: those of a multi-device name, else the name itself.
std::vector<std::string> DeviceNames(std::string_view name);

// "CUDA:1" -> "CUDA"; "CPU" -> "CPU".
std::string_view DeviceKind(std::string_view name);

// "CUDA:1" -> 1, "CUDA" -> 0. InvalidArgument naming the device when what follows the ':' is
// not a non-negative decimal number.
absl::StatusOr<int> DeviceOrdinal(std::string_view name);

// Reads one environment variable: nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
// The process environment (getenv).
std::optional<std::string> ProcessEnv(std::string_view name);

// The environment half of tinygrad's Device.DEFAULT, canonical: DEV=<device> (DEVICE=, the
// name the issue tracker uses, means the same), and <KIND>=1 for each kind of kDeviceKinds
// ("CUDA=1"). Settings that agree count once; two different devices are an InvalidArgument
// error naming them (tinygrad asserts). nullopt when nothing is set: the other half, the first
// device that opens, is the Tensor API's (DefaultDevice in tinygrad/tensor/tensor.h).
absl::StatusOr<std::optional<std::string>> DeviceFromEnvironment(const EnvLookup& env = ProcessEnv);

}  // namespace tg

#endif  // TINYGRAD_BASE_DEVICE_NAME_H_
