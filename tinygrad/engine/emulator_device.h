// File: tinygrad/engine/emulator_device.h
// The PYTHON device (tinygrad/runtime/ops_python.py's PythonDevice): kernels rendered by the
// emulator's renderer (tinygrad/emulator) as linear programs and run on the host by the UOp
// interpreter, with a GPU's semantics (workgroups, shared memory, the tensor cores of the
// target EMULATE names). Slow, and meant to be: it is how GPU code paths are run and checked on
// a machine without a GPU (`DEV=PYTHON EMULATE=CUDA`), and an out-of-bounds access is an error
// naming the uop instead of a corrupted run.
//
// Its buffers are host memory. The device remembers every buffer it allocated (start and size),
// so a kernel's accesses are checked against the memory each buffer argument really has.
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Device> dev, MakeEmulatorDevice("PYTHON", {.emulate = "CUDA"}));
//   dev->renderer().device           // "CUDA": WMMAs use CUDA's lane layouts
#ifndef TINYGRAD_ENGINE_EMULATOR_DEVICE_H_
#define TINYGRAD_ENGINE_EMULATOR_DEVICE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/emulator_device_options.h"

namespace tg {

// InvalidArgument when options.emulate is not a target the emulator knows.
absl::StatusOr<std::unique_ptr<Device>> MakeEmulatorDevice(const std::string& name,
                                                           const EmulatorDeviceOptions& options);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_EMULATOR_DEVICE_H_
