// File: tinygrad/runtime/hip/hip_compiler.cc
#include "tinygrad/runtime/hip/hip_compiler.h"

#include "absl/strings/str_cat.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/hip/clang_compiler.h"
#include "tinygrad/runtime/hip/comgr_api.h"
#include "tinygrad/runtime/hip/comgr_compiler.h"

namespace tg {

std::string_view HipCompilerBackendName(HipCompilerBackend b) {
  switch (b) {
    case HipCompilerBackend::kAuto:
      return "auto";
    case HipCompilerBackend::kComgr:
      return "comgr";
    case HipCompilerBackend::kClang:
      return "clang";
  }
  return "?";
}

absl::StatusOr<std::unique_ptr<HipCompiler>> HipCompiler::Create(const HipToolchainOptions& tools,
                                                                 HipCompilerOptions options) {
  ASSIGN_OR_RETURN(AmdGpuTarget target, ParseAmdGpuTarget(options.arch));
  ASSIGN_OR_RETURN(std::string libs, FindDeviceLibDir(tools));
  absl::Status comgr_status = absl::OkStatus();
  if (options.backend != HipCompilerBackend::kClang) {
    absl::StatusOr<std::shared_ptr<const ComgrApi>> api = ComgrApi::Load(tools);
    absl::StatusOr<std::unique_ptr<HipCompiler>> c =
        api.ok() ? ComgrHipCompiler::Create(*api, target, libs, options)
                 : absl::StatusOr<std::unique_ptr<HipCompiler>>(api.status());
    if (c.ok() || options.backend == HipCompilerBackend::kComgr) return c;
    comgr_status = c.status();
  }
  absl::StatusOr<std::string> clang = FindClang(tools);
  absl::StatusOr<std::unique_ptr<HipCompiler>> c =
      clang.ok() ? ClangHipCompiler::Create(*clang, target, libs, options)
                 : absl::StatusOr<std::unique_ptr<HipCompiler>>(clang.status());
  if (c.ok() || comgr_status.ok()) return c;
  // Neither: both reasons, and the code of the more telling one (a target nobody knows is the
  // caller's mistake; a missing toolchain is the machine's).
  absl::StatusCode code = comgr_status.code() == absl::StatusCode::kInvalidArgument ||
                                  c.status().code() == absl::StatusCode::kInvalidArgument
                              ? absl::StatusCode::kInvalidArgument
                              : absl::StatusCode::kNotFound;
  return absl::Status(code, absl::StrCat("no HIP compiler for ", target.name(), ":\n  comgr: ",
                                         comgr_status.message(), "\n  clang: ", c.status().message()));
}

HipCompiler::HipCompiler(HipCompilerBackend backend, AmdGpuTarget target, std::string compiler_id,
                         std::string machine_key, const HipCompilerOptions& options)
    : backend_(backend),
      target_(std::move(target)),
      compiler_id_(std::move(compiler_id)),
      machine_key_(std::move(machine_key)),
      cache_(CompileCacheDir(options.cachelevel, options.cache_dir, "hip_" + target_.name())) {}

uint64_t HipCompiler::CacheKey(std::string_view src) const {
  StableHasher h;
  h.AddBytes("compile_hip").AddBytes(compiler_id_).AddBytes(machine_key_).AddBytes(src);
  return h.Finish();
}

absl::StatusOr<std::string> HipCompiler::Compile(std::string_view src) {
  return cache_.GetOrCompile(CacheKey(src), [&] { return CompileUncached(src); });
}

}  // namespace tg
