// File: tinygrad/engine/emulator_device_options.cc
#include "tinygrad/engine/emulator_device_options.h"

#include "tinygrad/base/device_name.h"

namespace tg {

EmulatorDeviceOptions EmulatorDeviceOptions::FromConfig(const Config&) {
  return {.emulate = ProcessEnv("EMULATE").value_or("")};
}

}  // namespace tg
