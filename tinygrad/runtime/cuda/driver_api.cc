// File: tinygrad/runtime/cuda/driver_api.cc
// Port of the check() of tinygrad/runtime/ops_cuda.py and the entry points of
// runtime/autogen/cuda.py that it uses.
#include "tinygrad/runtime/cuda/driver_api.h"

#include <charconv>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

constexpr char kCudaErrorPayload[] = "tinygrad-cc/cuda-error";

absl::StatusCode CodeFor(cuda_abi::CUresult r) {
  using namespace cuda_abi;  // NOLINT: the error names
  switch (r) {
    case CUDA_ERROR_OUT_OF_MEMORY:
      return absl::StatusCode::kResourceExhausted;
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_STUB_LIBRARY:
    case CUDA_ERROR_INSUFFICIENT_DRIVER:
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_INVALID_DEVICE:
      return absl::StatusCode::kUnavailable;
    case CUDA_ERROR_INVALID_VALUE:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return absl::StatusCode::kInvalidArgument;
    case CUDA_ERROR_NOT_FOUND:
      return absl::StatusCode::kNotFound;
    default:
      // 700..799: faults in a kernel (illegal address, misaligned access, trap, timeout, ...)
      // leave the context unusable.
      if (r >= CUDA_ERROR_ILLEGAL_ADDRESS && r < 800) return absl::StatusCode::kInternal;
      return absl::StatusCode::kUnknown;
  }
}

// The graph entry points, all or none (a driver before CUDA 12 lacks the _v2 kernel nodes: it
// gets no graphs rather than a half-bound set).
void BindGraphs(const DynamicLibrary& l, CudaDriverApi& api) {
  const bool all =
      l.Bind(api.cuGraphCreate, {"cuGraphCreate"}).ok() &&
      l.Bind(api.cuGraphAddKernelNode, {"cuGraphAddKernelNode_v2"}).ok() &&
      l.Bind(api.cuGraphInstantiate, {"cuGraphInstantiateWithFlags"}).ok() &&
      l.Bind(api.cuGraphExecKernelNodeSetParams, {"cuGraphExecKernelNodeSetParams_v2"}).ok() &&
      l.Bind(api.cuGraphNodeSetEnabled, {"cuGraphNodeSetEnabled"}).ok() &&
      l.Bind(api.cuGraphLaunch, {"cuGraphLaunch"}).ok() &&
      l.Bind(api.cuGraphExecDestroy, {"cuGraphExecDestroy"}).ok() &&
      l.Bind(api.cuGraphDestroy, {"cuGraphDestroy"}).ok();
  if (!all) api.cuGraphCreate = nullptr;  // HasGraphs() false
}

}  // namespace

absl::StatusOr<std::shared_ptr<const CudaDriverApi>> CudaDriverApi::Load(
    const CudaLibraryOptions& options) {
  std::vector<std::string> candidates;
  if (!options.driver_path.empty()) candidates.push_back(options.driver_path);
  candidates.insert(candidates.end(), {"libcuda.so.1", "libcuda.so"});
  ASSIGN_OR_RETURN(DynamicLibrary lib,
                   DynamicLibrary::Open("the CUDA driver (libcuda)", candidates));
  std::shared_ptr<CudaDriverApi> api(new CudaDriverApi(std::move(lib)));
  const DynamicLibrary& l = api->library;
  RETURN_IF_ERROR(l.Bind(api->cuInit, {"cuInit"}));
  RETURN_IF_ERROR(l.Bind(api->cuDriverGetVersion, {"cuDriverGetVersion"}));
  RETURN_IF_ERROR(l.Bind(api->cuGetErrorName, {"cuGetErrorName"}));
  RETURN_IF_ERROR(l.Bind(api->cuGetErrorString, {"cuGetErrorString"}));
  RETURN_IF_ERROR(l.Bind(api->cuDeviceGetCount, {"cuDeviceGetCount"}));
  RETURN_IF_ERROR(l.Bind(api->cuDeviceGet, {"cuDeviceGet"}));
  RETURN_IF_ERROR(l.Bind(api->cuDeviceGetName, {"cuDeviceGetName"}));
  RETURN_IF_ERROR(l.Bind(api->cuDeviceGetAttribute, {"cuDeviceGetAttribute"}));
  RETURN_IF_ERROR(l.Bind(api->cuDeviceTotalMem, {"cuDeviceTotalMem_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}));
  RETURN_IF_ERROR(l.Bind(api->cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuCtxSetCurrent, {"cuCtxSetCurrent"}));
  RETURN_IF_ERROR(l.Bind(api->cuCtxSynchronize, {"cuCtxSynchronize"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemAlloc, {"cuMemAlloc_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemFree, {"cuMemFree_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemsetD8, {"cuMemsetD8_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemcpyPeer, {"cuMemcpyPeer"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemHostAlloc, {"cuMemHostAlloc"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemFreeHost, {"cuMemFreeHost"}));
  RETURN_IF_ERROR(l.Bind(api->cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"}));
  RETURN_IF_ERROR(l.Bind(api->cuModuleLoadDataEx, {"cuModuleLoadDataEx"}));
  RETURN_IF_ERROR(l.Bind(api->cuModuleUnload, {"cuModuleUnload"}));
  RETURN_IF_ERROR(l.Bind(api->cuModuleGetFunction, {"cuModuleGetFunction"}));
  RETURN_IF_ERROR(l.Bind(api->cuFuncSetAttribute, {"cuFuncSetAttribute"}));
  RETURN_IF_ERROR(l.Bind(api->cuLaunchKernel, {"cuLaunchKernel"}));
  RETURN_IF_ERROR(l.Bind(api->cuEventCreate, {"cuEventCreate"}));
  RETURN_IF_ERROR(l.Bind(api->cuEventRecord, {"cuEventRecord"}));
  RETURN_IF_ERROR(l.Bind(api->cuEventSynchronize, {"cuEventSynchronize"}));
  // CUDA 12.8 added _v2 (cuda.h 13 maps the plain name to it); older drivers have only v1.
  RETURN_IF_ERROR(l.Bind(api->cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}));
  RETURN_IF_ERROR(l.Bind(api->cuEventDestroy, {"cuEventDestroy_v2"}));
  (void)l.Bind(api->cuTensorMapEncodeTiled, {"cuTensorMapEncodeTiled"});  // optional: stays null
  BindGraphs(l, *api);
  RETURN_IF_ERROR(api->Check(api->cuInit(0), "cuInit"));
  return std::shared_ptr<const CudaDriverApi>(std::move(api));
}

absl::Status CudaDriverApi::Check(CUresult r, std::string_view call) const {
  if (r == cuda_abi::CUDA_SUCCESS) return absl::OkStatus();
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(r, &name) != cuda_abi::CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString == nullptr || cuGetErrorString(r, &text) != cuda_abi::CUDA_SUCCESS)
    text = nullptr;
  absl::Status status(CodeFor(r), absl::StrCat(std::string(call), ": ", name ? name : "CUDA error",
                                               " (", r, ")", text ? absl::StrCat(": ", text) : ""));
  status.SetPayload(kCudaErrorPayload, absl::Cord(absl::StrCat(r)));
  return status;
}

std::optional<int> CudaErrorCode(const absl::Status& status) {
  auto payload = status.GetPayload(kCudaErrorPayload);  // absl::optional in this Abseil
  if (!payload) return std::nullopt;
  const std::string text(*payload);
  int code = 0;
  auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), code);
  if (err != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return code;
}

}  // namespace tg
