// File: tinygrad/engine/emulator_device_options.h
// Which GPU the PYTHON device emulates: tinygrad's EMULATE ("CUDA", "AMD", ..., "" for none),
// read from the environment at the edge as the other devices' runtime settings are.
#ifndef TINYGRAD_ENGINE_EMULATOR_DEVICE_OPTIONS_H_
#define TINYGRAD_ENGINE_EMULATOR_DEVICE_OPTIONS_H_

#include <string>

#include "tinygrad/base/config.h"

namespace tg {

struct EmulatorDeviceOptions {
  std::string emulate;  // EMULATE; checked when the device is made

  static EmulatorDeviceOptions FromConfig(const Config& c);

  friend bool operator==(const EmulatorDeviceOptions&, const EmulatorDeviceOptions&) = default;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_EMULATOR_DEVICE_OPTIONS_H_
