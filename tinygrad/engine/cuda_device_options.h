// File: tinygrad/engine/cuda_device_options.h
// How a CUDA device finds the CUDA libraries, renders and compiles: one value the device takes
// when it is made (as CpuDeviceOptions for the CPU). The edge fills it
// (CudaDeviceOptions::FromConfig, through DeviceOptions::FromConfig in device.h).
//
// Example:
//   CudaDeviceOptions o = CudaDeviceOptions::FromConfig(GetConfig());   // at the edge
//   o.libs.driver_path = "/opt/driver/libcuda.so.1";                    // or set by hand
//   ASSIGN_OR_RETURN(std::unique_ptr<Device> gpu, MakeCudaDevice("CUDA:1", o));
#ifndef TINYGRAD_ENGINE_CUDA_DEVICE_OPTIONS_H_
#define TINYGRAD_ENGINE_CUDA_DEVICE_OPTIONS_H_

#include <string>

#include "tinygrad/base/config.h"
#include "tinygrad/runtime/cuda/library_search.h"

namespace tg {

struct CudaDeviceOptions {
  // Where libcuda and NVRTC are looked for (NVRTC_PATH, CUDA_DRIVER_PATH, CUDA_PATH, ...).
  CudaLibraryOptions libs;
  // CUDA_PTX: kernels rendered straight to PTX (the reference's PTXRenderer) and JIT-compiled
  // by the driver at load, instead of CUDA C++ through NVRTC.
  bool ptx = false;
  int cachelevel = 2;     // CACHELEVEL: 0 keeps NVRTC's compile cache in memory only
  std::string cache_dir;  // the on-disk compile cache lives under it; "": none
  // Where NVRTC's private copies are made for compile threads (Device::PrepareCompileThreads;
  // each copy is deleted once loaded); "": none are made, threads share one NVRTC.
  std::string temp_dir;
  // LRU (tinygrad's, default 1): memory a buffer frees is kept for the next allocation of its
  // size (lru_allocator.h) instead of going back to the driver; 0 frees it at once.
  bool lru = true;

  // The cache settings from `c`; the library search, CUDA_PTX, LRU and the temp dir (TMPDIR,
  // else /tmp) from the environment (read here, at the edge: they are the CUDA runtime's settings,
  // which Config does not carry).
  static CudaDeviceOptions FromConfig(const Config& c);

  friend bool operator==(const CudaDeviceOptions&, const CudaDeviceOptions&) = default;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_CUDA_DEVICE_OPTIONS_H_
