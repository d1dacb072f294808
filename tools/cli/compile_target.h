// File: tools/cli/compile_target.h
// A GPU target `tg compile` renders and compiles for, without the GPU: the device kind and
// arch, their renderer (CudaRenderer for sm_*, or PtxRenderer with cuda_ptx; HipRenderer for
// gfx*) and compiler (NVRTC to CUBIN, or nvJitLink from PTX; comgr or clang to an AMD code
// object), and the device class tuned opts are looked up under.
//
// The device class of a compile-only target names what decides the generated code and nothing
// of a machine: the device kind, the arch, the renderer and the compiler's id; the CPU and GPU
// name/driver fields stay empty. So opts tuned for such a class are found by any machine that
// compiles for the same arch with the same compiler; a GPU worker's class (which names its GPU
// and driver) is a different class, whose records `tg compile` finds by the arch instead
// (compile_workload.h, TuningDb::LookupBestForArch).
//
// Example:
//   ASSIGN_OR_RETURN(auto target, CompileTarget::Create({.device = "CUDA", .arch = "sm_90"}));
//   ASSIGN_OR_RETURN(ProgramSpec p, GetProgram(ast, target->renderer(), codegen));
//   ASSIGN_OR_RETURN(std::string cubin, target->Compile(p.src));
#ifndef TOOLS_CLI_COMPILE_TARGET_H_
#define TOOLS_CLI_COMPILE_TARGET_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "autotune/key/device_class.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/hip/hip_compiler.h"
#include "tinygrad/runtime/hip/toolchain_search.h"
#include "tools/cli/target_compiler.h"

namespace tg {

struct CompileTargetOptions {
  std::string device;  // "CUDA" or "HIP" (any case; "AMD" is HIP)
  std::string arch;    // "sm_90"; "gfx1100", "gfx90a:xnack-"
  CudaLibraryOptions cuda;  // where NVRTC and the CUDA headers are
  HipToolchainOptions hip;  // where comgr, clang and the device libraries are
  HipCompilerBackend hip_compiler = HipCompilerBackend::kAuto;
  // CUDA_PTX=1 / --ptx: render PTX with the PTX renderer and assemble it to a CUBIN with
  // nvJitLink (runtime/cuda/ptx_compiler.h) instead of CUDA C++ through NVRTC.
  bool cuda_ptx = false;
  // With cuda_ptx: the binary is the PTX text itself, which the driver's JIT assembles at load,
  // as a CUDA_PTX=1 device's own compiler does (a compile server for such devices); no toolkit
  // library is needed.
  bool ptx_for_driver_jit = false;
};

class CompileTarget {
 public:
  // InvalidArgument for an unknown device or a malformed arch or one the compiler does not know;
  // NotFound when the compiler library or tool is missing (the message names what was looked
  // for and where).
  static absl::StatusOr<std::unique_ptr<CompileTarget>> Create(const CompileTargetOptions& options);

  const std::string& device() const { return device_; }  // "CUDA", "HIP"
  const std::string& arch() const { return arch_; }
  const Renderer& renderer() const { return *renderer_; }
  TargetCompiler& compiler() { return *compiler_; }
  autotune::DeviceClass device_class() const;

 private:
  CompileTarget(std::string device, std::string arch, std::unique_ptr<Renderer> renderer,
                std::unique_ptr<TargetCompiler> compiler)
      : device_(std::move(device)),
        arch_(std::move(arch)),
        renderer_(std::move(renderer)),
        compiler_(std::move(compiler)) {}

  std::string device_;
  std::string arch_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<TargetCompiler> compiler_;
};

}  // namespace tg

#endif  // TOOLS_CLI_COMPILE_TARGET_H_
