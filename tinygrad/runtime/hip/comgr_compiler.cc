// File: tinygrad/runtime/hip/comgr_compiler.cc
// Port of tinygrad/runtime/support/compiler_amd.py: compile_hip.
#include "tinygrad/runtime/hip/comgr_compiler.h"

#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/hip/hip_flags.h"

namespace tg {
namespace {

using comgr_abi::amd_comgr_action_info_t;
using comgr_abi::amd_comgr_data_set_t;
using comgr_abi::amd_comgr_data_t;
using comgr_abi::amd_comgr_status_t;
using comgr_abi::AMD_COMGR_STATUS_SUCCESS;

// comgr runs clang and lld in-process, and "-mllvm" options set LLVM's process-wide option
// registry: one action at a time in the process.
std::mutex& ComgrMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}

// Owners of comgr handles: each is released on every path out of CompileUncached.
class DataSet {
 public:
  explicit DataSet(const ComgrApi& api) : api_(api) {
    ok_ = api_.amd_comgr_create_data_set(&set_) == AMD_COMGR_STATUS_SUCCESS;
  }
  DataSet(const DataSet&) = delete;
  DataSet& operator=(const DataSet&) = delete;
  ~DataSet() {
    if (ok_) api_.amd_comgr_destroy_data_set(set_);
  }
  bool ok() const { return ok_; }
  amd_comgr_data_set_t get() const { return set_; }

 private:
  const ComgrApi& api_;
  amd_comgr_data_set_t set_{0};
  bool ok_ = false;
};

class ActionInfo {
 public:
  explicit ActionInfo(const ComgrApi& api) : api_(api) {
    ok_ = api_.amd_comgr_create_action_info(&info_) == AMD_COMGR_STATUS_SUCCESS;
  }
  ActionInfo(const ActionInfo&) = delete;
  ActionInfo& operator=(const ActionInfo&) = delete;
  ~ActionInfo() {
    if (ok_) api_.amd_comgr_destroy_action_info(info_);
  }
  bool ok() const { return ok_; }
  amd_comgr_action_info_t get() const { return info_; }

 private:
  const ComgrApi& api_;
  amd_comgr_action_info_t info_{0};
  bool ok_ = false;
};

absl::Status Check(const ComgrApi& api, amd_comgr_status_t s, const char* what) {
  if (s == AMD_COMGR_STATUS_SUCCESS) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, " failed: ", api.StatusName(s)));
}

// The bytes of the first data object of `kind` in `set`; "" when there is none.
absl::StatusOr<std::string> FirstData(const ComgrApi& api, amd_comgr_data_set_t set, int kind) {
  size_t count = 0;
  RETURN_IF_ERROR(Check(api, api.amd_comgr_action_data_count(set, kind, &count),
                        "amd_comgr_action_data_count"));
  if (count == 0) return std::string();
  amd_comgr_data_t data{0};
  RETURN_IF_ERROR(Check(api, api.amd_comgr_action_data_get_data(set, kind, 0, &data),
                        "amd_comgr_action_data_get_data"));
  size_t size = 0;
  amd_comgr_status_t s = api.amd_comgr_get_data(data, &size, nullptr);
  std::string out;
  if (s == AMD_COMGR_STATUS_SUCCESS) {
    out.resize(size);
    s = api.amd_comgr_get_data(data, &size, out.data());
    out.resize(size);
  }
  api.amd_comgr_release_data(data);
  RETURN_IF_ERROR(Check(api, s, "amd_comgr_get_data"));
  return out;
}

absl::Status SetOptions(const ComgrApi& api, amd_comgr_action_info_t info,
                        const std::vector<std::string>& options) {
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  return Check(api, api.amd_comgr_action_info_set_option_list(info, argv.data(), argv.size()),
               "amd_comgr_action_info_set_option_list");
}

// One action; on failure its log (the compiler's diagnostics) is in the error. A rejected
// input (AMD_COMGR_STATUS_ERROR: the compile or link failed) is InvalidArgument.
absl::Status DoAction(const ComgrApi& api, int kind, const char* step,
                      amd_comgr_action_info_t info, const DataSet& in, const DataSet& out,
                      const AmdGpuTarget& target) {
  amd_comgr_status_t s = api.amd_comgr_do_action(kind, info, in.get(), out.get());
  if (s == AMD_COMGR_STATUS_SUCCESS) return absl::OkStatus();
  absl::StatusOr<std::string> log = FirstData(api, out.get(), api.enums.data_kind_log);
  std::string text = log.ok() ? *log : absl::StrCat("(no log: ", log.status().ToString(), ")");
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  std::string message = absl::StrCat("comgr ", step, " for ", target.name(), " failed (",
                                     api.StatusName(s), ")\n", text);
  constexpr amd_comgr_status_t kError = 1;  // AMD_COMGR_STATUS_ERROR in every version
  return s == kError ? absl::InvalidArgumentError(message) : absl::InternalError(message);
}

std::string KnownProcessors(const ComgrApi& api) {
  std::vector<std::string> names;
  for (const std::string& isa : api.isa_names) {
    std::string_view n = isa;
    if (size_t at = n.rfind("--"); at != std::string_view::npos) n.remove_prefix(at + 2);
    names.emplace_back(n);
  }
  return absl::StrJoin(names, " ");
}

}  // namespace

absl::StatusOr<std::unique_ptr<HipCompiler>> ComgrHipCompiler::Create(
    std::shared_ptr<const ComgrApi> api, const AmdGpuTarget& target,
    const std::string& device_lib_dir, const HipCompilerOptions& options) {
  if (api == nullptr) return absl::InvalidArgumentError("ComgrHipCompiler needs a loaded comgr");
  if (!api->KnowsProcessor(target.processor))
    return absl::InvalidArgumentError(
        absl::StrCat(api->VersionString(), " (", api->library.loaded_from(), ") does not know ",
                     target.processor, "; it knows: ", KnownProcessors(*api)));
  ASSIGN_OR_RETURN(std::vector<std::string> libs, DeviceLibFiles(device_lib_dir, target));
  // -disable-llvm-passes: optimize once, in the codegen step, with the libraries linked in (the
  // reference's split).
  std::vector<std::string> flags = {"-O3"};
  std::vector<std::string> frontend = HipFrontendFlags(target, libs);
  flags.insert(flags.end(), frontend.begin(), frontend.end());
  flags.insert(flags.end(), {"-Xclang", "-disable-llvm-passes"});
  flags.insert(flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  const std::vector<std::string> portable = PortableFlags(flags);
  std::string id = absl::StrCat(api->VersionString(), " ", target.name(), " ",
                                absl::StrJoin(portable, " "), " | ",
                                absl::StrJoin(HipCodegenFlags(), " "));
  return std::unique_ptr<HipCompiler>(new ComgrHipCompiler(
      std::move(api), target, std::move(flags), std::move(id), device_lib_dir, options));
}

ComgrHipCompiler::ComgrHipCompiler(std::shared_ptr<const ComgrApi> api, const AmdGpuTarget& target,
                                   std::vector<std::string> frontend_flags, std::string compiler_id,
                                   std::string machine_key, const HipCompilerOptions& options)
    : HipCompiler(HipCompilerBackend::kComgr, target, std::move(compiler_id),
                  std::move(machine_key), options),
      api_(std::move(api)),
      frontend_flags_(std::move(frontend_flags)) {}

absl::StatusOr<std::string> ComgrHipCompiler::CompileUncached(std::string_view src) const {
  const ComgrApi& api = *api_;
  const ComgrEnums& e = api.enums;
  std::lock_guard<std::mutex> lock(ComgrMutex());
  ActionInfo info(api);
  DataSet source(api), bitcode(api), relocatable(api), executable(api);
  if (!info.ok() || !source.ok() || !bitcode.ok() || !relocatable.ok() || !executable.ok())
    return absl::InternalError("comgr could not create its action info or data sets");
  RETURN_IF_ERROR(Check(api, api.amd_comgr_action_info_set_language(info.get(), e.language_hip),
                        "amd_comgr_action_info_set_language"));
  RETURN_IF_ERROR(Check(api, api.amd_comgr_action_info_set_isa_name(info.get(), target().IsaName().c_str()),
                        "amd_comgr_action_info_set_isa_name"));
  RETURN_IF_ERROR(Check(api, api.amd_comgr_action_info_set_logging(info.get(), true),
                        "amd_comgr_action_info_set_logging"));

  amd_comgr_data_t data{0};
  RETURN_IF_ERROR(Check(api, api.amd_comgr_create_data(e.data_kind_source, &data), "amd_comgr_create_data"));
  // The set holds its own reference: ours is released right after adding it.
  amd_comgr_status_t s = api.amd_comgr_set_data(data, src.size(), src.data());
  if (s == AMD_COMGR_STATUS_SUCCESS) s = api.amd_comgr_set_data_name(data, "<null>");
  if (s == AMD_COMGR_STATUS_SUCCESS) s = api.amd_comgr_data_set_add(source.get(), data);
  api.amd_comgr_release_data(data);
  RETURN_IF_ERROR(Check(api, s, "setting the source data"));

  RETURN_IF_ERROR(SetOptions(api, info.get(), frontend_flags_));
  RETURN_IF_ERROR(DoAction(api, e.action_compile_source_to_bc, "compile", info.get(), source,
                           bitcode, target()));
  RETURN_IF_ERROR(SetOptions(api, info.get(), HipCodegenFlags()));
  RETURN_IF_ERROR(DoAction(api, e.action_codegen_bc_to_relocatable, "codegen", info.get(), bitcode,
                           relocatable, target()));
  RETURN_IF_ERROR(SetOptions(api, info.get(), {}));
  RETURN_IF_ERROR(DoAction(api, e.action_link_relocatable_to_executable, "link", info.get(),
                           relocatable, executable, target()));
  ASSIGN_OR_RETURN(std::string out, FirstData(api, executable.get(), e.data_kind_executable));
  if (out.empty()) return absl::InternalError("comgr produced no code object");
  return out;
}

}  // namespace tg
