// File: tinygrad/runtime/hip/comgr_api.h
// Our declarations of the comgr (AMD's code object manager, libamd_comgr) entry points that
// tinygrad-cc uses, bound at run time: amd_comgr.h's C ABI as the reference's
// runtime/autogen/comgr.py and comgr_3.py declare it for ctypes. No ROCm header or library is
// needed to build this.
//
// The enum values changed between comgr 2 (ROCm 5: Debian 12's libamd-comgr2 is 2.4) and
// comgr 3 (ROCm 6: AMD_COMGR_LANGUAGE_HC was removed, and actions were renumbered). Load reads
// amd_comgr_get_version and picks the matching table (ComgrEnums); other majors are refused.
//
// The members carry the C functions' own names, so code that calls them reads like comgr code:
//   api->amd_comgr_do_action(api->enums.action_compile_source_to_bc, info, in, out)
#ifndef TINYGRAD_RUNTIME_HIP_COMGR_API_H_
#define TINYGRAD_RUNTIME_HIP_COMGR_API_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/dynamic_library.h"
#include "tinygrad/runtime/hip/toolchain_search.h"

namespace tg {

// The C ABI's types, spelled as amd_comgr.h spells them. Handles are one-word structs passed
// by value.
namespace comgr_abi {
using amd_comgr_status_t = int;  // an enum: 0 is AMD_COMGR_STATUS_SUCCESS
using amd_comgr_language_t = int;
using amd_comgr_data_kind_t = int;
using amd_comgr_action_kind_t = int;
struct amd_comgr_data_t {
  uint64_t handle;
};
struct amd_comgr_data_set_t {
  uint64_t handle;
};
struct amd_comgr_action_info_t {
  uint64_t handle;
};
inline constexpr amd_comgr_status_t AMD_COMGR_STATUS_SUCCESS = 0;
}  // namespace comgr_abi

// The enum values of one comgr major version (those tinygrad-cc uses).
struct ComgrEnums {
  comgr_abi::amd_comgr_language_t language_hip;
  comgr_abi::amd_comgr_data_kind_t data_kind_source;
  comgr_abi::amd_comgr_data_kind_t data_kind_log;
  comgr_abi::amd_comgr_data_kind_t data_kind_bc;
  comgr_abi::amd_comgr_data_kind_t data_kind_relocatable;
  comgr_abi::amd_comgr_data_kind_t data_kind_executable;
  comgr_abi::amd_comgr_action_kind_t action_compile_source_to_bc;
  comgr_abi::amd_comgr_action_kind_t action_codegen_bc_to_relocatable;
  comgr_abi::amd_comgr_action_kind_t action_link_relocatable_to_executable;

  // The table for comgr `major` (2 or 3); Unimplemented for others.
  static absl::StatusOr<ComgrEnums> ForMajorVersion(size_t major);
};

struct ComgrApi {
  using amd_comgr_status_t = comgr_abi::amd_comgr_status_t;
  using amd_comgr_data_t = comgr_abi::amd_comgr_data_t;
  using amd_comgr_data_set_t = comgr_abi::amd_comgr_data_set_t;
  using amd_comgr_action_info_t = comgr_abi::amd_comgr_action_info_t;

  // Opens libamd_comgr (toolchain_search.h), binds every entry point below, reads the version
  // and the ISAs comgr knows. NotFound naming the library (with each file tried) or the
  // missing symbol; Unimplemented for a comgr major version we have no enum table for.
  static absl::StatusOr<std::shared_ptr<const ComgrApi>> Load(const HipToolchainOptions& options);

  // "ERROR_INVALID_ARGUMENT" for 2 (comgr's own words), or the number.
  std::string StatusName(amd_comgr_status_t s) const;
  // Whether comgr lists `isa_name` ("amdgcn-amd-amdhsa--gfx90a"; target-ID features are not
  // part of its list, so "gfx90a:xnack-" is looked up as "gfx90a").
  bool KnowsProcessor(std::string_view processor) const;
  // "comgr 2.4"
  std::string VersionString() const;

  DynamicLibrary library;
  size_t version_major = 0;  // amd_comgr_get_version
  size_t version_minor = 0;
  ComgrEnums enums{};
  std::vector<std::string> isa_names;  // amd_comgr_get_isa_name, in comgr's order

  void (*amd_comgr_get_version)(size_t* major, size_t* minor) = nullptr;
  amd_comgr_status_t (*amd_comgr_status_string)(amd_comgr_status_t status,
                                                const char** status_string) = nullptr;
  amd_comgr_status_t (*amd_comgr_get_isa_count)(size_t* count) = nullptr;
  amd_comgr_status_t (*amd_comgr_get_isa_name)(size_t index, const char** isa_name) = nullptr;
  amd_comgr_status_t (*amd_comgr_create_data)(int kind, amd_comgr_data_t* data) = nullptr;
  amd_comgr_status_t (*amd_comgr_release_data)(amd_comgr_data_t data) = nullptr;
  amd_comgr_status_t (*amd_comgr_set_data)(amd_comgr_data_t data, size_t size,
                                           const char* bytes) = nullptr;
  amd_comgr_status_t (*amd_comgr_set_data_name)(amd_comgr_data_t data, const char* name) = nullptr;
  amd_comgr_status_t (*amd_comgr_get_data)(amd_comgr_data_t data, size_t* size,
                                           char* bytes) = nullptr;
  amd_comgr_status_t (*amd_comgr_create_data_set)(amd_comgr_data_set_t* set) = nullptr;
  amd_comgr_status_t (*amd_comgr_destroy_data_set)(amd_comgr_data_set_t set) = nullptr;
  amd_comgr_status_t (*amd_comgr_data_set_add)(amd_comgr_data_set_t set,
                                               amd_comgr_data_t data) = nullptr;
  amd_comgr_status_t (*amd_comgr_action_data_count)(amd_comgr_data_set_t set, int kind,
                                                    size_t* count) = nullptr;
  amd_comgr_status_t (*amd_comgr_action_data_get_data)(amd_comgr_data_set_t set, int kind,
                                                       size_t index,
                                                       amd_comgr_data_t* data) = nullptr;
  amd_comgr_status_t (*amd_comgr_create_action_info)(amd_comgr_action_info_t* info) = nullptr;
  amd_comgr_status_t (*amd_comgr_destroy_action_info)(amd_comgr_action_info_t info) = nullptr;
  amd_comgr_status_t (*amd_comgr_action_info_set_isa_name)(amd_comgr_action_info_t info,
                                                           const char* isa_name) = nullptr;
  amd_comgr_status_t (*amd_comgr_action_info_set_language)(amd_comgr_action_info_t info,
                                                           int language) = nullptr;
  amd_comgr_status_t (*amd_comgr_action_info_set_option_list)(amd_comgr_action_info_t info,
                                                              const char* options[],
                                                              size_t count) = nullptr;
  amd_comgr_status_t (*amd_comgr_action_info_set_logging)(amd_comgr_action_info_t info,
                                                          bool logging) = nullptr;
  amd_comgr_status_t (*amd_comgr_do_action)(int kind, amd_comgr_action_info_t info,
                                            amd_comgr_data_set_t input,
                                            amd_comgr_data_set_t result) = nullptr;

 private:
  explicit ComgrApi(DynamicLibrary lib) : library(std::move(lib)) {}
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_COMGR_API_H_
