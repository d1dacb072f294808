// File: tinygrad/engine/cpu_inprocess_absent.cc
// A build without the in-process compilers (--define tg_inprocess_compilers=off): every call
// says so, and the CPU device compiles C with a clang process instead (cpu_device.cc).
#include "tinygrad/engine/cpu_inprocess.h"

namespace tg {
namespace {

constexpr char kAbsent[] =
    "this build has no in-process compilers (built with --define tg_inprocess_compilers=off); "
    "set CPU_CC to a C compiler on this machine";

}  // namespace

struct CpuInProcessCompilers::Impl {};

CpuInProcessCompilers::CpuInProcessCompilers(const CpuDeviceOptions&) {}
CpuInProcessCompilers::~CpuInProcessCompilers() = default;

bool CpuInProcessCompilers::available() { return false; }
std::string CpuInProcessCompilers::ClangId() const { return "clang (in-process: not in this build)"; }
absl::StatusOr<std::string> CpuInProcessCompilers::CompileC(std::string_view) const {
  return absl::UnimplementedError(kAbsent);
}
std::string CpuInProcessCompilers::LlvmId() const { return "llvm (in-process: not in this build)"; }
absl::StatusOr<std::string> CpuInProcessCompilers::CompileLlvmIr(std::string_view, std::string_view) const {
  return absl::UnimplementedError(kAbsent);
}
absl::StatusOr<CpuProgram> CpuInProcessCompilers::LoadObject(std::string_view, std::string_view) {
  return absl::UnimplementedError(kAbsent);
}

}  // namespace tg
