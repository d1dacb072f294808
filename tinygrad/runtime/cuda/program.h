// File: tinygrad/runtime/cuda/program.h
// Port of tinygrad/runtime/ops_cuda.py: CUDAProgram and cu_time_execution. A kernel loaded from
// a PTX or CUBIN image (the driver tells them apart and JIT-assembles PTX for its GPU), launched
// with buffer addresses and int variables, timed with events.
//
// Arguments go in as the driver's kernelParams array (a pointer to each argument's value; the
// driver knows each parameter's size from the image) rather than the reference's packed struct
// through CU_LAUNCH_PARAM_BUFFER_POINTER: the same ABI, with no struct layout of our own.
//
// Example:
//   ASSIGN_OR_RETURN(CudaProgram prg, CudaProgram::Load(gpu, "E_16", ptx));
//   ASSIGN_OR_RETURN(double s, prg.Launch({out.address(), in.address()}, {n},
//                                         {.grid = {4, 1, 1}, .block = {32, 1, 1}}, true));
#ifndef TINYGRAD_RUNTIME_CUDA_PROGRAM_H_
#define TINYGRAD_RUNTIME_CUDA_PROGRAM_H_

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/context.h"

namespace tg {

struct CudaLaunchDims {
  std::array<uint32_t, 3> grid = {1, 1, 1};   // blocks (tinygrad's global_size on CUDA)
  std::array<uint32_t, 3> block = {1, 1, 1};  // threads per block (tinygrad's local_size)
  // Dynamic shared memory per block (kernels with `extern __shared__` storage); past the 48 KiB
  // every function may use, the launch first raises the function's limit to it.
  uint32_t shared_bytes = 0;
};

class CudaProgram {
 public:
  using CUdeviceptr = cuda_abi::CUdeviceptr;

  // Loads `image` (PTX text or a CUBIN) as a module on `ctx` and finds `function_name` in it.
  // InvalidArgument with the driver JIT's error log when the image does not load (bad PTX, a
  // CUBIN for another arch, a PTX ISA newer than the driver); NotFound without such a kernel.
  static absl::StatusOr<CudaProgram> Load(std::shared_ptr<CudaContext> ctx,
                                          std::string_view function_name, const std::string& image);

  CudaProgram(CudaProgram&& o) noexcept;
  CudaProgram& operator=(CudaProgram&& o) noexcept;
  CudaProgram(const CudaProgram&) = delete;
  CudaProgram& operator=(const CudaProgram&) = delete;
  ~CudaProgram();  // unloads the module

  // Launches once on the default stream: `bufs`, `vals`, then `tensor_maps` (by value:
  // tensor_map.h), in the kernel's parameter order (the CUDA renderer's: buffers, then its int
  // variables). With `wait`, blocks until the
  // kernel is done and returns its GPU time in seconds, measured by events around the launch;
  // without, returns 0 once queued, and a fault of the kernel shows at the next synchronizing
  // call. InvalidArgument for a zero dimension or a launch the driver refuses (too many
  // threads, too much shared memory); Internal when the kernel faults (the context is then
  // unusable).
  absl::StatusOr<double> Launch(std::span<const CUdeviceptr> bufs, std::span<const int32_t> vals,
                                const CudaLaunchDims& dims, bool wait,
                                std::span<const cuda_abi::CUtensorMap> tensor_maps = {}) const;

  const std::string& function_name() const { return name_; }
  const CudaDriverApi& api() const { return ctx_->api(); }  // not on a moved-from program

 private:
  CudaProgram(std::shared_ptr<CudaContext> ctx, cuda_abi::CUmodule module,
              cuda_abi::CUfunction function, std::string name)
      : ctx_(std::move(ctx)), module_(module), function_(function), name_(std::move(name)) {}
  absl::Status Enqueue(std::span<const CUdeviceptr> bufs, std::span<const int32_t> vals,
                       std::span<const cuda_abi::CUtensorMap> tensor_maps,
                       const CudaLaunchDims& dims) const;
  void Unload();

  std::shared_ptr<CudaContext> ctx_;  // null once moved from
  cuda_abi::CUmodule module_ = nullptr;
  cuda_abi::CUfunction function_ = nullptr;
  std::string name_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_PROGRAM_H_
