// File: tinygrad/runtime/cuda/nvjitlink_api.cc
#include "tinygrad/runtime/cuda/nvjitlink_api.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

absl::StatusOr<std::shared_ptr<const NvJitLinkApi>> NvJitLinkApi::Load(
    const CudaLibraryOptions& options) {
  ASSIGN_OR_RETURN(
      DynamicLibrary lib,
      DynamicLibrary::Open("nvJitLink (libnvJitLink)",
                           ToolkitLibraryCandidates(
                               options, options.nvjitlink_path,
                               {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"})));
  std::shared_ptr<NvJitLinkApi> api(new NvJitLinkApi(std::move(lib)));
  const DynamicLibrary& l = api->library;
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkVersion, {"nvJitLinkVersion"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkCreate, {"nvJitLinkCreate"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkDestroy, {"nvJitLinkDestroy"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkAddData, {"nvJitLinkAddData"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkComplete, {"nvJitLinkComplete"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkGetLinkedCubinSize, {"nvJitLinkGetLinkedCubinSize"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkGetLinkedCubin, {"nvJitLinkGetLinkedCubin"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkGetErrorLogSize, {"nvJitLinkGetErrorLogSize"}));
  RETURN_IF_ERROR(l.Bind(api->nvJitLinkGetErrorLog, {"nvJitLinkGetErrorLog"}));
  if (nvJitLinkResult r = api->nvJitLinkVersion(&api->version_major, &api->version_minor);
      r != cuda_abi::NVJITLINK_SUCCESS)
    return absl::UnavailableError(absl::StrCat("nvJitLinkVersion failed: ", ErrorName(r)));
  return std::shared_ptr<const NvJitLinkApi>(std::move(api));
}

std::string NvJitLinkApi::ErrorName(nvJitLinkResult r) {
  // nvJitLink.h's nvJitLinkResult, in order from 0.
  static constexpr std::array<const char*, 19> kNames = {
      "NVJITLINK_SUCCESS",
      "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
      "NVJITLINK_ERROR_MISSING_ARCH",
      "NVJITLINK_ERROR_INVALID_INPUT",
      "NVJITLINK_ERROR_PTX_COMPILE",
      "NVJITLINK_ERROR_NVVM_COMPILE",
      "NVJITLINK_ERROR_INTERNAL",
      "NVJITLINK_ERROR_THREADPOOL",
      "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
      "NVJITLINK_ERROR_FINALIZE",
      "NVJITLINK_ERROR_NULL_INPUT",
      "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
      "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
      "NVJITLINK_ERROR_ARCH_MISMATCH",
      "NVJITLINK_ERROR_OUTDATED_LIBRARY",
      "NVJITLINK_ERROR_MISSING_FATBIN",
      "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
      "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
      "NVJITLINK_ERROR_LTO_NOT_ENABLED",
  };
  if (r >= 0 && static_cast<size_t>(r) < kNames.size()) return kNames[r];
  return absl::StrCat("nvJitLink error ", r);
}

}  // namespace tg
