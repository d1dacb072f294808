// File: tools/cli/compile_target.cc
#include "tools/cli/compile_target.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/renderer/hip/hip.h"
#include "tinygrad/renderer/ptx/ptx.h"
#include "tinygrad/runtime/cuda/arch.h"
#include "tinygrad/runtime/cuda/cuda_disassembler.h"
#include "tinygrad/runtime/cuda/nvjitlink_api.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/ptx_compiler.h"
#include "tinygrad/runtime/hip/hip_disassembler.h"

namespace tg {
namespace {

class NvrtcCubinCompiler final : public TargetCompiler {
 public:
  NvrtcCubinCompiler(std::unique_ptr<NvrtcCompiler> nvrtc, std::vector<std::string> tool_dirs)
      : nvrtc_(std::move(nvrtc)), tool_dirs_(std::move(tool_dirs)) {}
  absl::StatusOr<std::string> Compile(std::string_view src) override {
    return nvrtc_->CompileUncached(src);
  }
  const std::string& id() const override { return nvrtc_->compiler_id(); }
  absl::Status PrepareThreads(int threads, const std::string& temp_dir) override {
    return threads > 1 ? nvrtc_->ReserveInstances(threads, temp_dir) : absl::OkStatus();
  }
  std::string_view binary_kind() const override { return "cubin"; }
  absl::StatusOr<std::string> Disassemble(std::string_view binary) const override {
    return DisassembleCuda(binary, tool_dirs_);
  }

 private:
  std::unique_ptr<NvrtcCompiler> nvrtc_;
  const std::vector<std::string> tool_dirs_;  // where nvdisasm is looked for after PATH
};

// CUDA C++ -> CUBIN through NVRTC (opened at run time).
absl::StatusOr<std::unique_ptr<TargetCompiler>> MakeNvrtcCubinCompiler(const CudaLibraryOptions& libs,
                                                                       const CudaArch& arch) {
  ASSIGN_OR_RETURN(std::shared_ptr<const NvrtcApi> api, NvrtcApi::Load(libs));
  ASSIGN_OR_RETURN(std::unique_ptr<NvrtcCompiler> nvrtc,
                   NvrtcCompiler::Create(api, {.arch = CompileArch(arch).name(),
                                               .output = CudaBinaryKind::kCubin,
                                               .include_dirs = CudaIncludeDirs(libs),
                                               .cachelevel = 0}));
  // Whether NVRTC knows the arch shows only when it compiles: ask now with an empty kernel, so
  // a target this NVRTC lacks fails before any scheduling.
  if (absl::StatusOr<std::string> probe =
          nvrtc->CompileUncached("extern \"C\" __global__ void tg_probe() {}\n");
      !probe.ok())
    return probe.status();
  return std::unique_ptr<TargetCompiler>(
      new NvrtcCubinCompiler(std::move(nvrtc), CudaToolDirs(libs, api->library.file())));
}

class PtxCubinCompiler final : public TargetCompiler {
 public:
  PtxCubinCompiler(std::unique_ptr<PtxCompiler> ptx, std::vector<std::string> tool_dirs)
      : ptx_(std::move(ptx)), tool_dirs_(std::move(tool_dirs)) {}
  absl::StatusOr<std::string> Compile(std::string_view src) override { return ptx_->CompileUncached(src); }
  const std::string& id() const override { return ptx_->compiler_id(); }
  std::string_view binary_kind() const override { return "cubin"; }
  // nvJitLink's CUBIN as SASS (the PTX is what --source prints)
  absl::StatusOr<std::string> Disassemble(std::string_view binary) const override {
    return DisassembleCuda(binary, tool_dirs_);
  }

 private:
  std::unique_ptr<PtxCompiler> ptx_;
  const std::vector<std::string> tool_dirs_;
};

// PTX (the PTX renderer's, CUDA_PTX=1) -> CUBIN through nvJitLink (opened at run time).
absl::StatusOr<std::unique_ptr<TargetCompiler>> MakePtxCubinCompiler(const CudaLibraryOptions& libs,
                                                                     const CudaArch& arch) {
  ASSIGN_OR_RETURN(std::shared_ptr<const NvJitLinkApi> api, NvJitLinkApi::Load(libs));
  ASSIGN_OR_RETURN(std::unique_ptr<PtxCompiler> ptx,
                   PtxCompiler::Create(api, {.arch = arch.name(), .assemble = true, .cachelevel = 0}));
  return std::unique_ptr<TargetCompiler>(
      new PtxCubinCompiler(std::move(ptx), CudaToolDirs(libs, api->library.file())));
}

// PTX (the PTX renderer's) with its placeholders filled, for the driver's JIT: what a
// CUDA_PTX=1 device loads (ptx_for_driver_jit).
class PtxTextCompiler final : public TargetCompiler {
 public:
  explicit PtxTextCompiler(std::unique_ptr<PtxCompiler> ptx) : ptx_(std::move(ptx)) {}
  absl::StatusOr<std::string> Compile(std::string_view src) override { return ptx_->CompileUncached(src); }
  const std::string& id() const override { return ptx_->compiler_id(); }
  std::string_view binary_kind() const override { return "ptx"; }
  // the binary is text already
  absl::StatusOr<std::string> Disassemble(std::string_view binary) const override { return std::string(binary); }

 private:
  std::unique_ptr<PtxCompiler> ptx_;
};

class HipTargetCompiler final : public TargetCompiler {
 public:
  HipTargetCompiler(std::unique_ptr<HipCompiler> hip, HipToolchainOptions tools)
      : hip_(std::move(hip)), tools_(std::move(tools)) {}
  absl::StatusOr<std::string> Compile(std::string_view src) override {
    return hip_->CompileUncached(src);
  }
  const std::string& id() const override { return hip_->compiler_id(); }
  std::string_view binary_kind() const override { return "code object"; }
  absl::StatusOr<std::string> Disassemble(std::string_view binary) const override {
    return DisassembleAmdCodeObject(binary, tools_);
  }

 private:
  std::unique_ptr<HipCompiler> hip_;
  const HipToolchainOptions tools_;  // where llvm-objdump is looked for
};

}  // namespace

absl::StatusOr<std::unique_ptr<CompileTarget>> CompileTarget::Create(const CompileTargetOptions& options) {
  std::string device = absl::AsciiStrToUpper(options.device);
  if (device == "AMD") device = "HIP";
  if (device == "CUDA") {
    ASSIGN_OR_RETURN(CudaArch arch, ParseCudaArch(options.arch));
    if (options.cuda_ptx && options.ptx_for_driver_jit) {
      ASSIGN_OR_RETURN(std::unique_ptr<PtxCompiler> ptx,
                       PtxCompiler::Create(nullptr, {.arch = arch.name(), .assemble = false, .cachelevel = 0}));
      return std::unique_ptr<CompileTarget>(new CompileTarget(device, options.arch, std::make_unique<PtxRenderer>(arch),
                                                              std::make_unique<PtxTextCompiler>(std::move(ptx))));
    }
    if (options.cuda_ptx) {
      ASSIGN_OR_RETURN(std::unique_ptr<TargetCompiler> compiler, MakePtxCubinCompiler(options.cuda, arch));
      return std::unique_ptr<CompileTarget>(new CompileTarget(
          device, options.arch, std::make_unique<PtxRenderer>(arch), std::move(compiler)));
    }
    ASSIGN_OR_RETURN(std::unique_ptr<TargetCompiler> compiler, MakeNvrtcCubinCompiler(options.cuda, arch));
    return std::unique_ptr<CompileTarget>(new CompileTarget(
        device, options.arch, std::make_unique<CudaRenderer>(arch), std::move(compiler)));
  }
  if (device == "HIP") {
    ASSIGN_OR_RETURN(AmdArch arch, AmdArch::Parse(options.arch));
    ASSIGN_OR_RETURN(std::unique_ptr<HipCompiler> hip,
                     HipCompiler::Create(options.hip, {.arch = options.arch,
                                                       .backend = options.hip_compiler,
                                                       .cachelevel = 0}));
    return std::unique_ptr<CompileTarget>(new CompileTarget(
        device, options.arch, std::make_unique<HipRenderer>(arch),
        std::make_unique<HipTargetCompiler>(std::move(hip), options.hip)));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown device '", options.device, "': tg compile targets CUDA or HIP"));
}

autotune::DeviceClass CompileTarget::device_class() const {
  autotune::DeviceClass dc;
  dc.device = device_;
  dc.gpu_arch = arch_;
  dc.compiler_id = compiler_->id();
  dc.renderer = autotune::RendererName(*renderer_);
  return dc;
}

}  // namespace tg
