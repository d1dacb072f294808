// File: tools/cli/compile_command.cc
#include "tools/cli/compile_command.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/db/tuning_db.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/terminal.h"
#include "tools/cli/command_line.h"
#include "tools/cli/compile_target.h"
#include "tools/cli/compile_workload.h"
#include "tools/cli/workload_flags.h"

namespace tg {
namespace {

constexpr char kDescription[] =
    "Renders and compiles every kernel of a built-in workload for a GPU this machine need not\n"
    "have: CUDA (NVRTC to CUBIN, e.g. --arch sm_90; or PTX through nvJitLink: --ptx) or HIP (an AMD code object through comgr or\n"
    "clang, e.g. --arch gfx1100). Kernels are optimized by the hand-coded heuristic, or with the\n"
    "tuned opts of --db where it holds them for this target: under its own device class (device,\n"
    "arch, renderer, compiler), else the fastest record any GPU of the arch stored with the same\n"
    "renderer (each tuned kernel says which). Prints one line per kernel, or the sources with\n"
    "--source.\n"
    "DEBUG=3 prints each kernel's AST, DEBUG=4 its source, DEBUG=7 (or --disassemble) its\n"
    "disassembly (SASS through nvdisasm, AMD assembly through llvm-objdump, where installed);\n"
    "NOOPT, TC, ... from the environment\n"
    "apply. NVRTC is looked for as tg run does (NVRTC_PATH, CUDA_PATH); the AMD toolchain in\n"
    "COMGR_PATH, HIP_CLANG_PATH, HIP_DEVICE_LIB_PATH, ROCM_PATH, then the system's.";

int Fail(const std::string& what) {
  std::fprintf(stderr, "tg compile: %s\n", what.c_str());
  return kExitFailed;
}

}  // namespace

int CompileWorkloadCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg compile");
  SetUpCommandApp(app);
  std::string name;
  WorkloadParams params;
  DType dtype = dtypes::float32;
  const Workload* w = AddWorkloadFlags(app, args, name, params, &dtype);
  CompileTargetOptions target_options;
  std::string db_path, hip_compiler = "auto";
  bool show_source = false, disassemble = false;
  Config config = GetConfig();
  app.add_option("--device", target_options.device, "CUDA or HIP")
      ->required()
      ->check(CLI::IsMember({"CUDA", "HIP", "AMD"}, CLI::ignore_case));
  app.add_option("--arch", target_options.arch, "the target: sm_75 ... sm_90a (CUDA), gfx90a, gfx1100, ... (HIP)")
      ->required();
  app.add_flag("--source", show_source, "print each kernel's source instead of a summary line");
  app.add_flag("--disassemble", disassemble, "print each kernel's disassembly too (as DEBUG=7): SASS for\n"
                                             "CUDA (nvdisasm or cuobjdump), llvm-objdump's for HIP");
  app.add_option("--db", db_path, "take tuned opts from this tuning database (a SQLite file or\n"
                                  "postgresql://...) where it has them for the target")
      ->type_name("PATH");
  app.add_option("--hip-compiler", hip_compiler, "HIP only: comgr, clang, or auto (comgr where it knows\n"
                                                 "the target)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "comgr", "clang"}));
  app.add_flag("--noopt", config.noopt, "no opts (as NOOPT=1)");
  app.add_flag("--ptx", target_options.cuda_ptx, "CUDA only (as CUDA_PTX=1): render PTX with the PTX renderer and\n"
                                                 "assemble it with nvJitLink, instead of CUDA C++ through NVRTC");
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  TG_CHECK(w != nullptr && w->name == name) << "WORKLOAD was checked";
  disassemble = disassemble || config.debug >= 7;

  if (const char* ptx = std::getenv("CUDA_PTX"); ptx != nullptr && std::string_view(ptx) != "" &&
                                                  std::string_view(ptx) != "0")
    target_options.cuda_ptx = true;  // the reference's CUDA_PTX=1, read here at the edge
  target_options.cuda = CudaLibraryOptions::FromEnvironment();
  target_options.hip = HipToolchainOptions::FromEnvironment();
  target_options.hip_compiler = hip_compiler == "comgr"   ? HipCompilerBackend::kComgr
                                : hip_compiler == "clang" ? HipCompilerBackend::kClang
                                                          : HipCompilerBackend::kAuto;
  absl::StatusOr<std::unique_ptr<CompileTarget>> target = CompileTarget::Create(target_options);
  if (!target.ok()) {
    // A device or arch nobody can compile for is the command line's fault; a missing compiler
    // is the machine's.
    if (target.status().code() == absl::StatusCode::kInvalidArgument)
      return UsageError(app, std::string(target.status().message()));
    return Fail(std::string(target.status().message()));
  }
  CompileTarget& t = **target;

  std::unique_ptr<autotune::TuningDb> db;
  if (!db_path.empty()) {
    absl::StatusOr<std::unique_ptr<autotune::TuningDb>> opened = autotune::OpenTuningDb(db_path, autotune::DbCreate::kNothing);
    if (!opened.ok()) return Fail(absl::StrCat("opening ", db_path, ": ", opened.status().message()));
    db = *std::move(opened);
  }

  CompileWorkloadOptions options{.workload = w,
                                 .params = params,
                                 .dtype = dtype,
                                 .codegen = CodegenOptions::FromConfig(config),
                                 .db = db.get()};
  std::string shown;
  for (const auto& [k, v] : params) absl::StrAppend(&shown, " ", k, "=", v);
  std::printf("%s:%s dtype=%s -> %s %s (%s), opts from %s\n", name.c_str(), shown.c_str(),
              dtype.repr().c_str(), t.device().c_str(), t.arch().c_str(), t.compiler().id().c_str(),
              db != nullptr ? db->location().c_str() : "the heuristic");
  std::fflush(stdout);

  int index = 0, failed = 0;
  size_t src_bytes = 0, bin_bytes = 0;
  double compile_s = 0;
  const std::string kind(t.compiler().binary_kind());
  auto print = [&](const CompiledKernel& k) {
    ++index;
    if (config.debug >= 3) std::printf("%s\n", ForStream(k.ast, stdout).c_str());
    if (!k.status.ok()) {
      ++failed;
      std::printf("kernel %d %s FAILED\n", index, k.name.empty() ? "(not rendered)" : k.name.c_str());
      std::fprintf(stderr, "tg compile: kernel %d: %s\n", index, std::string(k.status.message()).c_str());
      if (!k.src.empty() && (show_source || config.debug >= 4)) std::printf("%s\n", k.src.c_str());
      std::fflush(stdout);
      return;
    }
    src_bytes += k.src.size();
    bin_bytes += k.binary_bytes;
    compile_s += k.compile_s;
    std::string opts = absl::StrCat(ShortOptsText(k.opts), k.tuned ? " (tuned)" : "");
    if (show_source) {
      std::printf("// kernel %d %s: %s\n%s\n", index, k.name.c_str(), opts.c_str(), k.src.c_str());
    } else {
      if (config.debug >= 4) std::printf("%s\n", k.src.c_str());
      std::printf("kernel %d %-32s %-40s src %7zu B  %s %7zu B  %8.1f ms\n", index, k.name.c_str(),
                  opts.c_str(), k.src.size(), kind.c_str(), k.binary_bytes, k.compile_s * 1e3);
    }
    if (k.tuned) std::printf("  opts tuned on %s\n", k.tuned_on.c_str());
    if (!k.untuned_why.empty())
      std::printf("  the opts tuned on %s do not work here (%s): the heuristic's instead; `tg db drop %s` drops the record\n",
                  k.tuned_on.c_str(), k.untuned_why.c_str(), k.key.Digest().substr(0, 16).c_str());
    if (disassemble) {
      // a disassembler that is not installed is a line, not a failed kernel
      absl::StatusOr<std::string> text = t.compiler().Disassemble(k.binary);
      if (text.ok()) {
        std::printf("%s\n", text->c_str());
      } else {
        std::printf("kernel %d: no disassembly: %s\n", index, std::string(text.status().message()).c_str());
      }
    }
    std::fflush(stdout);
  };
  absl::StatusOr<std::vector<CompiledKernel>> kernels = CompileWorkload(t, options, print);
  if (!kernels.ok()) return Fail(std::string(kernels.status().message()));
  std::printf("%d kernels, %d failed: %zu B of source, %zu B of %s, %.1f ms compiling\n", index,
              failed, src_bytes, bin_bytes, kind.c_str(), compile_s * 1e3);
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace tg
