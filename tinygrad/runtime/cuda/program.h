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
#include <vector>

#include "absl/functional/function_ref.h"
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

// One launch's arguments as the driver takes them: a copy of each value (buffer addresses, int
// variables, tensor maps by value, in the kernel's parameter order) and kernelParams, a pointer to
// each copy. Not copyable: the pointers point into it.
class CudaKernelArgs {
 public:
  CudaKernelArgs(std::span<const cuda_abi::CUdeviceptr> bufs, std::span<const int32_t> vals,
                 std::span<const cuda_abi::CUtensorMap> tensor_maps = {});
  CudaKernelArgs(const CudaKernelArgs&) = delete;
  CudaKernelArgs& operator=(const CudaKernelArgs&) = delete;
  // cuLaunchKernel's kernelParams; null for a kernel without parameters.
  void** params() const { return params_.empty() ? nullptr : params_.data(); }

 private:
  std::vector<cuda_abi::CUdeviceptr> bufs_;
  std::vector<int32_t> vals_;
  std::vector<cuda_abi::CUtensorMap> maps_;
  mutable std::vector<void*> params_;
};

// Runs `enqueue` (work queued on the default stream) and, with `wait`, blocks until it is done
// and returns its GPU time in seconds, measured by events around it (the reference's
// cu_time_execution); without, returns 0 once queued. `what` names the work in errors.
absl::StatusOr<double> TimeExecution(const CudaDriverApi& cu, std::string_view what, bool wait,
                                     absl::FunctionRef<absl::Status()> enqueue);

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

  // What a launch with `dims` needs before it is queued or recorded in a graph (graph.h): a
  // dimension that is not zero (InvalidArgument), the context current, and the function's
  // dynamic shared memory limit raised to dims.shared_bytes where that is past the default.
  absl::Status PrepareLaunch(const CudaLaunchDims& dims) const;
  // A graph's kernel node for a launch of this program (graph.h).
  cuda_abi::CUDA_KERNEL_NODE_PARAMS_v2 NodeParams(const CudaKernelArgs& args,
                                                  const CudaLaunchDims& dims) const;

  const std::string& function_name() const { return name_; }
  const CudaDriverApi& api() const { return ctx_->api(); }  // not on a moved-from program

 private:
  CudaProgram(std::shared_ptr<CudaContext> ctx, cuda_abi::CUmodule module,
              cuda_abi::CUfunction function, std::string name)
      : ctx_(std::move(ctx)), module_(module), function_(function), name_(std::move(name)) {}
  void Unload();

  std::shared_ptr<CudaContext> ctx_;  // null once moved from
  cuda_abi::CUmodule module_ = nullptr;
  cuda_abi::CUfunction function_ = nullptr;
  std::string name_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_PROGRAM_H_
