// File: tinygrad/runtime/cuda/nvrtc_api.cc
#include "tinygrad/runtime/cuda/nvrtc_api.h"

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

absl::StatusOr<std::shared_ptr<const NvrtcApi>> NvrtcApi::Load(const CudaLibraryOptions& options) {
  ASSIGN_OR_RETURN(DynamicLibrary lib,
                   DynamicLibrary::Open("NVRTC (libnvrtc)",
                                        ToolkitLibraryCandidates(
                                            options, options.nvrtc_path,
                                            {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"})));
  return Bind(std::move(lib));
}

absl::StatusOr<std::shared_ptr<const NvrtcApi>> NvrtcApi::LoadFile(const std::string& path) {
  ASSIGN_OR_RETURN(DynamicLibrary lib, DynamicLibrary::Open("NVRTC (libnvrtc)", std::vector<std::string>{path}));
  return Bind(std::move(lib));
}

absl::StatusOr<std::shared_ptr<const NvrtcApi>> NvrtcApi::Bind(DynamicLibrary lib) {
  std::shared_ptr<NvrtcApi> api(new NvrtcApi(std::move(lib)));
  const DynamicLibrary& l = api->library;
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetErrorString, {"nvrtcGetErrorString"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcVersion, {"nvrtcVersion"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetNumSupportedArchs, {"nvrtcGetNumSupportedArchs"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetSupportedArchs, {"nvrtcGetSupportedArchs"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcCreateProgram, {"nvrtcCreateProgram"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcDestroyProgram, {"nvrtcDestroyProgram"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcCompileProgram, {"nvrtcCompileProgram"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetProgramLogSize, {"nvrtcGetProgramLogSize"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetProgramLog, {"nvrtcGetProgramLog"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetPTXSize, {"nvrtcGetPTXSize"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetPTX, {"nvrtcGetPTX"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetCUBINSize, {"nvrtcGetCUBINSize"}));
  RETURN_IF_ERROR(l.Bind(api->nvrtcGetCUBIN, {"nvrtcGetCUBIN"}));

  if (cuda_abi::nvrtcResult r = api->nvrtcVersion(&api->version_major, &api->version_minor);
      r != cuda_abi::NVRTC_SUCCESS)
    return absl::UnavailableError(absl::StrCat("nvrtcVersion failed: ", api->ErrorName(r)));
  int n = 0;
  if (api->nvrtcGetNumSupportedArchs(&n) == cuda_abi::NVRTC_SUCCESS && n > 0 && n < 1024) {
    api->supported_archs.resize(n);
    if (api->nvrtcGetSupportedArchs(api->supported_archs.data()) != cuda_abi::NVRTC_SUCCESS)
      api->supported_archs.clear();
  }
  return std::shared_ptr<const NvrtcApi>(std::move(api));
}

std::string NvrtcApi::ErrorName(nvrtcResult r) const {
  const char* s = nvrtcGetErrorString ? nvrtcGetErrorString(r) : nullptr;
  return s ? std::string(s) : absl::StrCat("NVRTC error ", r);
}

}  // namespace tg
