// File: tinygrad/engine/cpu_device_options.h
// How the CPU device renders and compiles: tinygrad's CPU_LLVM / CPU_CC choice of compiler pair,
// the renderer's thread limits and the compilers' caches, as one value the device takes when it
// is created. Nothing in the device reads the process settings; the edge fills this from them
// (CpuDeviceOptions::FromConfig, through DeviceOptions::FromConfig in device.h).
//
// Example:
//   CpuDeviceOptions o = CpuDeviceOptions::FromConfig(GetConfig());   // at the edge
//   o.llvm = true;                                                    // or set by hand
//   std::unique_ptr<Device> dev = MakeCpuDevice("CPU", o);            // cpu_device.h
#ifndef TINYGRAD_ENGINE_CPU_DEVICE_OPTIONS_H_
#define TINYGRAD_ENGINE_CPU_DEVICE_OPTIONS_H_

#include <string>

#include "tinygrad/base/config.h"
#include "tinygrad/renderer/c/cpu_renderer_options.h"

namespace tg {

struct CpuDeviceOptions {
  CpuRendererOptions renderer;  // THREADS, CPU_COUNT
  // CPU_LLVM: kernels rendered as LLVM IR and compiled by libLLVM in this process; else C.
  bool llvm = false;
  // CPU_CC: the C compiler. "" or "clang": clang in this process (an object loaded by ORC);
  // another name: that compiler run as a process (a shared object, dlopen'ed).
  std::string cc;
  bool llvm_optimize = true;  // LLVMOPT: default<O2> + vectorization, else default<O0>
  int cachelevel = 2;         // CACHELEVEL: 0 keeps the compile caches in memory only
  std::string cache_dir;      // the on-disk compile caches live under it; "": none
  // The ISA kernels are compiled for (runtime/cpu/cpu_target.h): "" the host's (-march=native),
  // or an x86-64 level ("x86-64-v3": AVX2) to tune for a smaller machine on a bigger one.
  // CPU_TARGET sets it (FromConfig), `tg tune --cpu-target` and `tg worker --cpu-target` override
  // it; GetDevice rejects one that is unknown or that this CPU lacks.
  std::string cpu_target;

  static CpuDeviceOptions FromConfig(const Config& c) {
    return {.renderer = CpuRendererOptions::FromConfig(c),
            .llvm = c.cpu_llvm != 0,
            .cc = c.cc,
            .llvm_optimize = c.llvmopt != 0,
            .cachelevel = c.cachelevel,
            .cache_dir = c.cache_dir,
            .cpu_target = c.cpu_target};
  }

  friend bool operator==(const CpuDeviceOptions&, const CpuDeviceOptions&) = default;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_CPU_DEVICE_OPTIONS_H_
