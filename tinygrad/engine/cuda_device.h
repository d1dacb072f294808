// File: tinygrad/engine/cuda_device.h
// The CUDA backend: an NVIDIA GPU through the driver API (runtime/cuda), kernels rendered by
// CudaRenderer for the GPU's compute capability and compiled by NVRTC to a CUBIN for exactly
// that arch. Port of tinygrad/runtime/ops_cuda.py's CUDADevice and its compiler pairs: with
// CudaDeviceOptions::ptx (CUDA_PTX=1) kernels are rendered by PtxRenderer and the PTX goes to
// the driver's JIT at load (the reference's PTXRenderer + PTXCompiler), which needs no NVRTC.
//
// "CUDA" is GPU 0, "CUDA:1" GPU 1. Nothing of CUDA is needed to build or run tinygrad-cc: the
// driver and NVRTC are opened when the device is made, and a machine without them has no CUDA
// device (GetDevice says which library is missing). Without NVRTC the device still allocates
// and copies; compiling says NVRTC is missing.
//
// Behaviour a caller sees:
// - Buffers are device memory; RawBuffer::data() is the device address (never host memory).
// - Program::Run launches with global_size as the grid (blocks) and local_size as the block,
//   as the reference's CUDAProgram does. A NOLOCALS kernel (indexed by global thread) gets its
//   block from OptimizeLocalSize (launch.h) in the engine and the measurer; launched without
//   one (a grid that depends on variables) it gets the largest power-of-two block dividing the
//   grid (PickLocalSize). Runs cannot be stopped
//   (can_stop_runs() is false); with `wait` the time is measured with events on the GPU.
// - A kernel fault (illegal address, trap, ...) poisons the context: the call that reports it
//   and every later call on the device fail with DeviceLostError (device.h).
// - InvalidateCaches writes a buffer twice the size of the L2, which evicts a kernel's data.
// - Memory a buffer frees is kept for the next allocation of its size (LRU=1, the default, as
//   the reference's LRUAllocator: lru_allocator.h): cuMemFree would wait for the whole GPU.
//
// Example:
//   ASSIGN_OR_RETURN(std::unique_ptr<Device> gpu, MakeCudaDevice("CUDA", CudaDeviceOptions{}));
//   gpu->gpu()->arch    // "sm_90"
#ifndef TINYGRAD_ENGINE_CUDA_DEVICE_H_
#define TINYGRAD_ENGINE_CUDA_DEVICE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/engine/cuda_device_options.h"
#include "tinygrad/engine/device.h"

namespace tg {

// GPU `name` ("CUDA", "CUDA:1") made as `options` say. Unavailable when there is no CUDA
// driver (the message names libcuda and every file tried), no GPU of that ordinal, or a GPU
// this build cannot target.
absl::StatusOr<std::unique_ptr<Device>> MakeCudaDevice(const std::string& name,
                                                       const CudaDeviceOptions& options);

// The block a kernel without a local size is launched with: per dimension the largest power of
// two up to 1024 that divides the global size, within the GPU's block limits and its threads
// per block. Exposed for tests.
std::array<int64_t, 3> PickLocalSize(const std::array<int64_t, 3>& global,
                                     const std::array<int, 3>& max_block, int max_threads);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_CUDA_DEVICE_H_
