// File: tinygrad/runtime/cuda/ptx_compiler.cc
// Port of tinygrad/runtime/support/compiler_cuda.py: PTXCompiler, NVPTXCompiler.
#include "tinygrad/runtime/cuda/ptx_compiler.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/cuda/toolkit_handle.h"

namespace tg {
namespace {

using cuda_abi::nvJitLinkHandle;
using cuda_abi::nvJitLinkResult;

using LinkHolder = ToolkitHandle<nvJitLinkHandle, nvJitLinkResult>;

std::string ErrorLog(const NvJitLinkApi& api, nvJitLinkHandle handle) {
  if (handle == nullptr) return "";
  return ReadToolkitText(
      [&](size_t* size) { return api.nvJitLinkGetErrorLogSize(handle, size) == cuda_abi::NVJITLINK_SUCCESS; },
      [&](char* log) { return api.nvJitLinkGetErrorLog(handle, log) == cuda_abi::NVJITLINK_SUCCESS; });
}

}  // namespace

std::string FillPtxPlaceholders(std::string_view ptx, const CudaArch& arch) {
  return absl::StrReplaceAll(std::string(ptx),
                             {{"TARGET", arch.name()}, {"VERSION", PtxIsaVersion(arch)}});
}

absl::StatusOr<std::unique_ptr<PtxCompiler>> PtxCompiler::Create(
    std::shared_ptr<const NvJitLinkApi> jitlink, PtxCompilerOptions options) {
  ASSIGN_OR_RETURN(CudaArch arch, ParseCudaArch(options.arch));
  if (options.assemble && jitlink == nullptr)
    return absl::InvalidArgumentError("assembling PTX needs a loaded nvJitLink");
  return std::unique_ptr<PtxCompiler>(
      new PtxCompiler(std::move(jitlink), std::move(options), arch));
}

PtxCompiler::PtxCompiler(std::shared_ptr<const NvJitLinkApi> jitlink, PtxCompilerOptions options,
                         CudaArch arch)
    : jitlink_(std::move(jitlink)),
      options_(std::move(options)),
      arch_(arch),
      // the reference's cache tables: compile_ptx_<arch>, compile_nv_ptx_<arch>
      cache_(CompileCacheDir(options_.cachelevel, options_.cache_dir,
                             absl::StrCat(options_.assemble ? "nv_ptx_" : "ptx_", arch_.name()))) {
  compiler_id_ = options_.assemble ? absl::StrCat("nvjitlink ", jitlink_->version_major, ".",
                                                  jitlink_->version_minor, " cubin ", arch_.name(),
                                                  " ", PtxIsaVersion(arch_))
                                   : absl::StrCat("ptx ", arch_.name(), " ", PtxIsaVersion(arch_));
}

uint64_t PtxCompiler::CacheKey(std::string_view src) const {
  StableHasher h;
  h.AddBytes("compile_ptx").AddBytes(compiler_id_).AddBytes(src);
  return h.Finish();
}

absl::StatusOr<std::string> PtxCompiler::Assemble(const std::string& ptx) const {
  const NvJitLinkApi& api = *jitlink_;
  const std::string arch_flag = "-arch=" + arch_.name();
  const char* argv[] = {arch_flag.c_str()};
  LinkHolder link(api.nvJitLinkDestroy);
  if (nvJitLinkResult r = api.nvJitLinkCreate(link.out(), 1, argv);
      r != cuda_abi::NVJITLINK_SUCCESS)
    return absl::InvalidArgumentError(absl::StrCat("nvJitLinkCreate for ", arch_.name(),
                                                   " failed: ", NvJitLinkApi::ErrorName(r), "\n",
                                                   ErrorLog(api, link.get())));
  // The size counts the terminating NUL: ptxas reads the text as a C string.
  if (nvJitLinkResult r = api.nvJitLinkAddData(link.get(), cuda_abi::NVJITLINK_INPUT_PTX,
                                               ptx.c_str(), ptx.size() + 1, "<null>");
      r != cuda_abi::NVJITLINK_SUCCESS)
    return absl::InvalidArgumentError(absl::StrCat("PTX assembly for ", arch_.name(),
                                                   " failed: ", NvJitLinkApi::ErrorName(r), "\n",
                                                   ErrorLog(api, link.get())));
  if (nvJitLinkResult r = api.nvJitLinkComplete(link.get()); r != cuda_abi::NVJITLINK_SUCCESS)
    return absl::InvalidArgumentError(absl::StrCat("PTX link for ", arch_.name(),
                                                   " failed: ", NvJitLinkApi::ErrorName(r), "\n",
                                                   ErrorLog(api, link.get())));
  size_t size = 0;
  if (nvJitLinkResult r = api.nvJitLinkGetLinkedCubinSize(link.get(), &size);
      r != cuda_abi::NVJITLINK_SUCCESS || size == 0)
    return absl::InternalError(
        absl::StrCat("nvJitLinkGetLinkedCubinSize failed: ", NvJitLinkApi::ErrorName(r)));
  std::string cubin(size, '\0');
  if (nvJitLinkResult r = api.nvJitLinkGetLinkedCubin(link.get(), cubin.data());
      r != cuda_abi::NVJITLINK_SUCCESS)
    return absl::InternalError(
        absl::StrCat("nvJitLinkGetLinkedCubin failed: ", NvJitLinkApi::ErrorName(r)));
  return cubin;
}

absl::StatusOr<std::string> PtxCompiler::CompileUncached(std::string_view src) const {
  if (src.find('\0') != std::string_view::npos)
    return absl::InvalidArgumentError("PTX source contains a NUL byte");
  std::string ptx = FillPtxPlaceholders(src, arch_);
  if (!options_.assemble) return ptx;
  return Assemble(ptx);
}

absl::StatusOr<std::string> PtxCompiler::Compile(std::string_view src) {
  return cache_.GetOrCompile(CacheKey(src), [&] { return CompileUncached(src); });
}

}  // namespace tg
