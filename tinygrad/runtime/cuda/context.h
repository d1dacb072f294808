// File: tinygrad/runtime/cuda/context.h
// Port of tinygrad/runtime/ops_cuda.py: CUDADevice's driver side. One GPU (by ordinal, "CUDA:1"
// is ordinal 1), its context, and its description.
//
// We retain the GPU's primary context (the one the CUDA runtime and PyTorch share) where the
// reference creates its own (cuCtxCreate_v2): the same behaviour for one process, and one
// context per GPU and process whoever else uses it. Buffers and programs keep their context
// alive (they hold the shared_ptr), so it is released after the last of them.
//
// A context is used from any thread: every call makes it current on the calling thread first,
// as the reference does.
//
// Example:
//   ASSIGN_OR_RETURN(auto driver, CudaDriverApi::Load(libs));
//   ASSIGN_OR_RETURN(std::shared_ptr<CudaContext> gpu, CudaContext::Open(driver, 0));
//   gpu->info().arch();   // "sm_90"
#ifndef TINYGRAD_RUNTIME_CUDA_CONTEXT_H_
#define TINYGRAD_RUNTIME_CUDA_CONTEXT_H_

#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/driver_api.h"

namespace tg {

// What a GPU is, for the device class (the tuning key) and the optimizer's limits. The
// "runtime version" of the reference's description is the compiler's here (NvrtcApi's
// version): tinygrad-cc uses no CUDA runtime library.
struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  int cc_major = 0;  // compute capability: 9.0 on Hopper
  int cc_minor = 0;
  int sm_count = 0;            // streaming multiprocessors
  size_t total_memory = 0;     // bytes
  int driver_version = 0;      // cuDriverGetVersion: the CUDA version the driver runs, 13000 = 13.0
  std::string driver_release;  // the kernel driver's release ("580.65.06"), "" when unknown
  int warp_size = 0;
  int max_threads_per_block = 0;
  std::array<int, 3> max_block_dims{};
  std::array<int, 3> max_grid_dims{};
  int max_shared_per_block = 0;        // bytes, without opting in
  int max_shared_per_block_optin = 0;  // bytes, with cuFuncSetAttribute
  int l2_cache_bytes = 0;

  std::string arch() const;      // "sm_90"
  std::string Describe() const;  // one line for logs and `tg devices`
};

class CudaContext {
 public:
  using CUcontext = cuda_abi::CUcontext;

  // The number of GPUs the driver sees.
  static absl::StatusOr<int> DeviceCount(const CudaDriverApi& api);
  // Retains the primary context of GPU `ordinal` and describes the GPU. Unavailable for an
  // ordinal the driver does not have.
  static absl::StatusOr<std::shared_ptr<CudaContext>> Open(std::shared_ptr<const CudaDriverApi> api,
                                                           int ordinal);
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;
  ~CudaContext();  // releases the primary context

  // Makes the context current on the calling thread (cuCtxSetCurrent).
  absl::Status MakeCurrent() const;
  // Waits for everything queued on the context; a fault of a kernel launched without waiting
  // shows here (Internal, and the context is unusable from then on).
  absl::Status Synchronize() const;

  const CudaDeviceInfo& info() const { return info_; }
  const CudaDriverApi& api() const { return *api_; }
  // The driver's handle, for calls that name two contexts (cuMemcpyPeer).
  CUcontext handle() const { return ctx_; }

 private:
  CudaContext(std::shared_ptr<const CudaDriverApi> api, cuda_abi::CUdevice device, CUcontext ctx)
      : api_(std::move(api)), device_(device), ctx_(ctx) {}

  const std::shared_ptr<const CudaDriverApi> api_;
  const cuda_abi::CUdevice device_;
  const CUcontext ctx_;
  CudaDeviceInfo info_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_CONTEXT_H_
