// File: tinygrad/engine/cpu_device.h
// The CPU backend: C rendered by ClangRenderer, compiled by clang, run in this process; with
// CPU_LLVM=1, LLVM IR rendered by LLVMRenderer, compiled by libLLVM and loaded by ORC in-process.
#ifndef TINYGRAD_ENGINE_CPU_DEVICE_H_
#define TINYGRAD_ENGINE_CPU_DEVICE_H_

#include <memory>
#include <string>

#include "tinygrad/engine/device.h"

namespace tg {

std::unique_ptr<Device> MakeCpuDevice(const std::string& name);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_CPU_DEVICE_H_
