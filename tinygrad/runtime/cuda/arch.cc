// File: tinygrad/runtime/cuda/arch.cc
#include "tinygrad/runtime/cuda/arch.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace tg {

CudaArch CompileArch(const CudaArch& gpu) {
  if (gpu.major == 9 && gpu.minor == 0 && gpu.variant == 0) return {9, 0, 'a'};
  return gpu;
}

std::string CudaArch::name() const {
  std::string s = absl::StrCat("sm_", sm());
  if (variant != 0) s.push_back(variant);
  return s;
}

absl::StatusOr<CudaArch> ParseCudaArch(std::string_view name) {
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("bad CUDA arch \"", std::string(name),
                     "\": expected sm_<compute capability>, e.g. sm_80, sm_90a"));
  };
  if (name.substr(0, 3) != "sm_") return bad();
  std::string_view rest = name.substr(3);
  char variant = 0;
  if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) {
    variant = rest.back();
    rest.remove_suffix(1);
  }
  if (rest.size() < 2 || rest.size() > 3) return bad();
  int sm = 0;
  for (char c : rest) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return bad();
    sm = sm * 10 + (c - '0');
  }
  if (rest.front() == '0') return bad();
  return CudaArch{sm / 10, sm % 10, variant};
}

std::string PtxIsaVersion(const CudaArch& arch) {
  const int sm = arch.sm();
  // The reference (compiler_cuda.py PTXCompiler), as ISA version * 10.
  int version = sm >= 120 ? 87 : sm >= 89 ? 78 : 75;
  // The first ISA that accepts the target, where it is newer.
  int first = 0;
  if (arch.variant == 'f')
    first = 88;
  else if (sm == 90 && arch.variant == 'a')
    first = 80;
  else if (sm == 100 || sm == 101)
    first = 86;
  else if (sm == 103 || sm == 121)
    first = 88;
  else if (sm >= 110 && sm < 120)
    first = 90;
  version = std::max(version, first);
  return absl::StrCat(version / 10, ".", version % 10);
}

}  // namespace tg
