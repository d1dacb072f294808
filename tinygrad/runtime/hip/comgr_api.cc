// File: tinygrad/runtime/hip/comgr_api.cc
#include "tinygrad/runtime/hip/comgr_api.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

absl::StatusOr<ComgrEnums> ComgrEnums::ForMajorVersion(size_t major) {
  // Data kinds kept their values; languages and actions did not (amd_comgr.h of ROCm 5.2 and
  // of ROCm 6, as the reference's autogen/comgr.py and comgr_3.py record them).
  if (major == 2)
    return ComgrEnums{.language_hip = 4,
                      .data_kind_source = 1,
                      .data_kind_log = 5,
                      .data_kind_bc = 6,
                      .data_kind_relocatable = 7,
                      .data_kind_executable = 8,
                      .action_compile_source_to_bc = 2,
                      .action_codegen_bc_to_relocatable = 6,
                      .action_link_relocatable_to_executable = 9};
  if (major == 3)
    return ComgrEnums{.language_hip = 3,
                      .data_kind_source = 1,
                      .data_kind_log = 5,
                      .data_kind_bc = 6,
                      .data_kind_relocatable = 7,
                      .data_kind_executable = 8,
                      .action_compile_source_to_bc = 2,
                      .action_codegen_bc_to_relocatable = 4,
                      .action_link_relocatable_to_executable = 7};
  return absl::UnimplementedError(absl::StrCat(
      "comgr ", major, ".x has an ABI tinygrad-cc does not know (comgr 2 and 3 are supported)"));
}

absl::StatusOr<std::shared_ptr<const ComgrApi>> ComgrApi::Load(const HipToolchainOptions& options) {
  ASSIGN_OR_RETURN(DynamicLibrary lib, DynamicLibrary::Open("comgr (libamd_comgr: Debian's "
                                                            "libamd-comgr2, see tools/bootstrap)",
                                                            ComgrLibraryCandidates(options),
                                                            // comgr runs its own LLVM in-process:
                                                            // never ours (tg links LLVM 14).
                                                            DynamicLibrary::Binding::kOwnSymbolsFirst));
  std::shared_ptr<ComgrApi> api(new ComgrApi(std::move(lib)));
  const DynamicLibrary& l = api->library;
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_get_version, {"amd_comgr_get_version"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_status_string, {"amd_comgr_status_string"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_get_isa_count, {"amd_comgr_get_isa_count"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_get_isa_name, {"amd_comgr_get_isa_name"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_create_data, {"amd_comgr_create_data"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_release_data, {"amd_comgr_release_data"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_set_data, {"amd_comgr_set_data"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_set_data_name, {"amd_comgr_set_data_name"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_get_data, {"amd_comgr_get_data"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_create_data_set, {"amd_comgr_create_data_set"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_destroy_data_set, {"amd_comgr_destroy_data_set"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_data_set_add, {"amd_comgr_data_set_add"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_action_data_count, {"amd_comgr_action_data_count"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_action_data_get_data, {"amd_comgr_action_data_get_data"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_create_action_info, {"amd_comgr_create_action_info"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_destroy_action_info, {"amd_comgr_destroy_action_info"}));
  RETURN_IF_ERROR(
      l.Bind(api->amd_comgr_action_info_set_isa_name, {"amd_comgr_action_info_set_isa_name"}));
  RETURN_IF_ERROR(
      l.Bind(api->amd_comgr_action_info_set_language, {"amd_comgr_action_info_set_language"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_action_info_set_option_list,
                         {"amd_comgr_action_info_set_option_list"}));
  RETURN_IF_ERROR(
      l.Bind(api->amd_comgr_action_info_set_logging, {"amd_comgr_action_info_set_logging"}));
  RETURN_IF_ERROR(l.Bind(api->amd_comgr_do_action, {"amd_comgr_do_action"}));

  api->amd_comgr_get_version(&api->version_major, &api->version_minor);
  ASSIGN_OR_RETURN(api->enums, ComgrEnums::ForMajorVersion(api->version_major));
  size_t n = 0;
  if (api->amd_comgr_get_isa_count(&n) == comgr_abi::AMD_COMGR_STATUS_SUCCESS && n < 4096) {
    for (size_t i = 0; i < n; ++i) {
      const char* name = nullptr;
      if (api->amd_comgr_get_isa_name(i, &name) == comgr_abi::AMD_COMGR_STATUS_SUCCESS && name)
        api->isa_names.emplace_back(name);
    }
  }
  return std::shared_ptr<const ComgrApi>(std::move(api));
}

std::string ComgrApi::StatusName(amd_comgr_status_t s) const {
  const char* text = nullptr;
  if (amd_comgr_status_string != nullptr &&
      amd_comgr_status_string(s, &text) == comgr_abi::AMD_COMGR_STATUS_SUCCESS && text != nullptr)
    return text;
  return absl::StrCat("comgr status ", s);
}

bool ComgrApi::KnowsProcessor(std::string_view processor) const {
  const std::string want = "amdgcn-amd-amdhsa--" + std::string(processor);
  return std::find(isa_names.begin(), isa_names.end(), want) != isa_names.end();
}

std::string ComgrApi::VersionString() const {
  return absl::StrCat("comgr ", version_major, ".", version_minor);
}

}  // namespace tg
