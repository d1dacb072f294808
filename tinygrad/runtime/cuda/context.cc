// File: tinygrad/runtime/cuda/context.cc
// Port of tinygrad/runtime/ops_cuda.py: CUDADevice.__init__ and synchronize.
#include "tinygrad/runtime/cuda/context.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

// The kernel driver's release from its /proc file ("NVRM version: NVIDIA UNIX x86_64 Kernel
// Module  580.65.06  Sun Jul 27 ..."): the word after "Kernel Module". "" where there is none
// (another OS, a container without /proc/driver).
std::string KernelDriverRelease() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  std::istringstream words(line);
  std::string word, previous;
  while (words >> word) {
    if (previous == "Module") return word;
    previous = word;
  }
  return "";
}

}  // namespace

std::string CudaDeviceInfo::arch() const { return absl::StrCat("sm_", cc_major, cc_minor); }

std::string CudaDeviceInfo::Describe() const {
  return absl::StrCat("CUDA:", ordinal, " ", name, ", ", arch(), ", ", sm_count, " SMs, ",
                      total_memory >> 20, " MiB, driver CUDA ", driver_version / 1000, ".",
                      (driver_version % 1000) / 10,
                      driver_release.empty() ? "" : absl::StrCat(" (", driver_release, ")"));
}

absl::StatusOr<int> CudaContext::DeviceCount(const CudaDriverApi& api) {
  int count = 0;
  RETURN_IF_ERROR(api.Check(api.cuDeviceGetCount(&count), "cuDeviceGetCount"));
  return count;
}

absl::StatusOr<std::shared_ptr<CudaContext>> CudaContext::Open(
    std::shared_ptr<const CudaDriverApi> api, int ordinal) {
  const CudaDriverApi& cu = *api;
  ASSIGN_OR_RETURN(int count, DeviceCount(cu));
  if (ordinal < 0 || ordinal >= count)
    return absl::UnavailableError(
        absl::StrCat("no CUDA device ", ordinal, ": the driver sees ", count));
  cuda_abi::CUdevice device = 0;
  RETURN_IF_ERROR(cu.Check(cu.cuDeviceGet(&device, ordinal), "cuDeviceGet"));
  CUcontext ctx = nullptr;
  RETURN_IF_ERROR(cu.Check(cu.cuDevicePrimaryCtxRetain(&ctx, device), "cuDevicePrimaryCtxRetain"));
  // From here the destructor releases the context on every path.
  std::shared_ptr<CudaContext> context(new CudaContext(std::move(api), device, ctx));
  RETURN_IF_ERROR(context->MakeCurrent());

  CudaDeviceInfo& info = context->info_;
  info.ordinal = ordinal;
  char name[256] = {};
  RETURN_IF_ERROR(cu.Check(cu.cuDeviceGetName(name, sizeof(name) - 1, device), "cuDeviceGetName"));
  info.name = name;
  RETURN_IF_ERROR(cu.Check(cu.cuDeviceTotalMem(&info.total_memory, device), "cuDeviceTotalMem"));
  RETURN_IF_ERROR(cu.Check(cu.cuDriverGetVersion(&info.driver_version), "cuDriverGetVersion"));
  info.driver_release = KernelDriverRelease();
  auto attribute = [&](cuda_abi::CUdevice_attribute a, int* out) {
    return cu.Check(cu.cuDeviceGetAttribute(out, a, device),
                    absl::StrCat("cuDeviceGetAttribute(", a, ")"));
  };
  using namespace cuda_abi;  // NOLINT: the attribute names
  RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.cc_major));
  RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.cc_minor));
  RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.sm_count));
  RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE, &info.warp_size));
  RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &info.max_threads_per_block));
  for (int i = 0; i < 3; ++i) {
    RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i, &info.max_block_dims[i]));
    RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i, &info.max_grid_dims[i]));
  }
  RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &info.max_shared_per_block));
  RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                            &info.max_shared_per_block_optin));
  RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.l2_cache_bytes));
  return context;
}

CudaContext::~CudaContext() {
  // An error here (a context a kernel fault poisoned) changes nothing: the retain is gone.
  (void)api_->cuDevicePrimaryCtxRelease(device_);
}

absl::Status CudaContext::MakeCurrent() const {
  return api_->Check(api_->cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
}

absl::Status CudaContext::Synchronize() const {
  RETURN_IF_ERROR(MakeCurrent());
  return api_->Check(api_->cuCtxSynchronize(), "cuCtxSynchronize");
}

}  // namespace tg
