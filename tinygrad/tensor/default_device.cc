// File: tinygrad/tensor/default_device.cc
// tinygrad's Device.DEFAULT (device.py): the device the environment names (DEV=, DEVICE=,
// <KIND>=1: base/device_name.h), else the first of its devices that opens. Ours are, in
// tinygrad's ALL_DEVICES order, CUDA then CPU (which always opens); the UOp emulator (PYTHON)
// only when named. So a machine with an NVIDIA GPU and its driver computes there by default,
// as tinygrad does, and any other on the CPU.
//
// The Tensor API is the edge that reads this (once, on first use). Opening CUDA is asked of
// the CUDA runtime directly, not of the engine's device table, so graph construction builds
// without the engine; the engine then opens the same GPU.
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/driver_api.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

std::mutex default_device_mu;
std::optional<std::string>& DefaultDeviceSlot() {
  static auto* const slot = new std::optional<std::string>();
  return *slot;
}

// Whether GPU 0 opens: the driver loads, cuInit finds a GPU, its primary context is retained
// (what the reference's CUDADevice does when opened). The context stays retained for the
// process, as the reference's opened device does, so the engine's device opens on it.
absl::Status OpenCuda() {
  ASSIGN_OR_RETURN(std::shared_ptr<const CudaDriverApi> api,
                   CudaDriverApi::Load(CudaLibraryOptions::FromEnvironment()));
  ASSIGN_OR_RETURN(std::shared_ptr<CudaContext> ctx, CudaContext::Open(api, 0));
  static auto* const kept = new std::shared_ptr<CudaContext>();
  *kept = std::move(ctx);
  return absl::OkStatus();
}

std::string FirstDeviceThatOpens() {
  if (OpenCuda().ok()) return "CUDA";
  return "CPU";
}

}  // namespace

std::string DefaultDevice() {
  std::lock_guard<std::mutex> lock(default_device_mu);
  std::optional<std::string>& slot = DefaultDeviceSlot();
  if (!slot.has_value()) {
    absl::StatusOr<std::optional<std::string>> named = DeviceFromEnvironment();
    if (!named.ok()) {
      std::fprintf(stderr, "tinygrad-cc: %s; using CPU\n", std::string(named.status().message()).c_str());
      slot = "CPU";
    } else {
      slot = named->has_value() ? **named : FirstDeviceThatOpens();
    }
  }
  return *slot;
}

void SetDefaultDevice(const std::string& device) {
  std::lock_guard<std::mutex> lock(default_device_mu);
  DefaultDeviceSlot() = CanonicalDeviceName(device);
}

}  // namespace tg
