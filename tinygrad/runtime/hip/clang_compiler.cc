// File: tinygrad/runtime/hip/clang_compiler.cc
// Port of tinygrad/runtime/support/compiler_amd.py: HIPCCCompiler (clang in place of hipcc).
#include "tinygrad/runtime/hip/clang_compiler.h"

#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/hip/hip_flags.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

absl::Status WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return absl::InternalError(absl::StrCat("cannot read ", path));
  std::ostringstream out;
  out << f.rdbuf();
  return out.str();
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Runs one clang step. Its diagnostics are the error: InvalidArgument when clang rejected the
// input (exit 1), Internal when it crashed.
absl::Status RunStep(const std::vector<std::string>& argv, const char* step,
                     const AmdGpuTarget& target) {
  ASSIGN_OR_RETURN(ProcessResult r, RunProcess(argv));
  if (r.exit_code == 0) return absl::OkStatus();
  std::string message = absl::StrCat("clang ", step, " for ", target.name(), " failed (exit ",
                                     r.exit_code, ")\n", Trimmed(r.output));
  return r.exit_code == 1 ? absl::InvalidArgumentError(message) : absl::InternalError(message);
}

}  // namespace

std::string ClangVersionFromText(std::string_view text) {
  constexpr std::string_view kMarker = "clang version ";
  size_t at = text.find(kMarker);
  if (at == std::string_view::npos) return "";
  std::string_view rest = text.substr(at + kMarker.size());
  size_t end = rest.find_first_not_of("0123456789.");
  return std::string(rest.substr(0, end));
}

absl::StatusOr<std::unique_ptr<HipCompiler>> ClangHipCompiler::Create(
    const std::string& clang, const AmdGpuTarget& target, const std::string& device_lib_dir,
    const HipCompilerOptions& options) {
  absl::StatusOr<ProcessResult> v = RunProcess({clang, "--version"});
  if (!v.ok() || v->exit_code != 0)
    return absl::NotFoundError(absl::StrCat(
        "cannot run ", clang, ": ", v.ok() ? Trimmed(v->output) : v.status().ToString()));
  const std::string version = ClangVersionFromText(v->output);
  if (version.empty())
    return absl::NotFoundError(absl::StrCat(clang, " --version names no clang version: ", Trimmed(v->output)));
  // Whether this clang has the processor: it says "unknown target CPU" otherwise.
  ASSIGN_OR_RETURN(ProcessResult probe,
                   RunProcess({clang, "--target=amdgcn-amd-amdhsa", absl::StrCat("-mcpu=", target.name()),
                               "-nogpulib", "-fsyntax-only", "-x", "c", "/dev/null"}));
  if (probe.exit_code != 0)
    return absl::InvalidArgumentError(absl::StrCat("clang ", version, " (", clang, ") cannot compile for ",
                                                   target.name(), ": ", Trimmed(probe.output)));
  ASSIGN_OR_RETURN(std::vector<std::string> libs, DeviceLibFiles(device_lib_dir, target));
  // -nogpulib: clang must not look for device libraries itself (it wants an ISA-version library
  // that ROCm 5.2 lacks for gfx11); ours are linked by HipFrontendFlags.
  std::vector<std::string> flags = {"-x", "hip", "--cuda-device-only", "-nogpulib",
                                    absl::StrCat("--offload-arch=", target.name()), "-O3"};
  std::vector<std::string> frontend = HipFrontendFlags(target, libs);
  flags.insert(flags.end(), frontend.begin(), frontend.end());
  flags.insert(flags.end(), {"-Xclang", "-disable-llvm-passes"});
  flags.insert(flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  const std::vector<std::string> portable = PortableFlags(flags);
  std::string id = absl::StrCat("clang ", version, " ", target.name(), " ",
                                absl::StrJoin(portable, " "), " | ",
                                absl::StrJoin(HipCodegenFlags(), " "));
  return std::unique_ptr<HipCompiler>(new ClangHipCompiler(
      clang, target, std::move(flags), std::move(id), absl::StrCat(clang, "\n", device_lib_dir), options));
}

ClangHipCompiler::ClangHipCompiler(std::string clang, const AmdGpuTarget& target,
                                   std::vector<std::string> frontend_flags, std::string compiler_id,
                                   std::string machine_key, const HipCompilerOptions& options)
    : HipCompiler(HipCompilerBackend::kClang, target, std::move(compiler_id),
                  std::move(machine_key), options),
      clang_(std::move(clang)),
      frontend_flags_(std::move(frontend_flags)) {}

absl::StatusOr<std::string> ClangHipCompiler::CompileUncached(std::string_view src) const {
  ASSIGN_OR_RETURN(TempDir dir, TempDir::Create("tg-hip-"));
  const std::string source = dir.path() + "/kernel.hip";
  const std::string bitcode = dir.path() + "/kernel.bc";
  const std::string code_object = dir.path() + "/kernel.hsaco";
  RETURN_IF_ERROR(WriteFile(source, src));

  std::vector<std::string> compile = {clang_};
  compile.insert(compile.end(), frontend_flags_.begin(), frontend_flags_.end());
  compile.insert(compile.end(), {"-c", "-emit-llvm", "-o", bitcode, source});
  RETURN_IF_ERROR(RunStep(compile, "compile", target()));

  std::vector<std::string> codegen = {clang_, "--target=amdgcn-amd-amdhsa",
                                      absl::StrCat("-mcpu=", target().name()), "-nogpulib"};
  for (const std::string& f : HipCodegenFlags()) codegen.push_back(f);
  codegen.insert(codegen.end(), {"-o", code_object, bitcode});
  RETURN_IF_ERROR(RunStep(codegen, "codegen and link", target()));

  ASSIGN_OR_RETURN(std::string out, ReadFile(code_object));
  if (out.empty()) return absl::InternalError("clang produced an empty code object");
  return out;
}

}  // namespace tg
