// File: tinygrad/engine/cpu_device.h
// The CPU backend: C rendered by ClangRenderer, compiled by clang, run in this process; with
// CpuDeviceOptions::llvm (CPU_LLVM=1), LLVM IR rendered by LLVMRenderer, compiled by libLLVM and
// loaded by ORC in-process.
//
// Example:
//   std::unique_ptr<Device> dev = MakeCpuDevice("CPU", {.llvm = true});
//   ASSIGN_OR_RETURN(std::string lib, dev->Compile(spec));   // spec rendered by dev->renderer()
#ifndef TINYGRAD_ENGINE_CPU_DEVICE_H_
#define TINYGRAD_ENGINE_CPU_DEVICE_H_

#include <memory>
#include <string>

#include "tinygrad/engine/cpu_device_options.h"
#include "tinygrad/engine/device.h"

namespace tg {

// A CPU device that renders and compiles as `options` say, for its whole life.
std::unique_ptr<Device> MakeCpuDevice(const std::string& name, const CpuDeviceOptions& options);

// Whether such a device compiles inside this process (clang's C++ API or libLLVM) rather than
// by starting a compiler process (CPU_CC naming another compiler, or a build without the
// in-process compilers): a sandboxed process may start none (workers/sandbox.h).
bool CpuCompilesInProcess(const CpuDeviceOptions& options);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_CPU_DEVICE_H_
