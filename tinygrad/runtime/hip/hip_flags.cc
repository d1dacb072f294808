// File: tinygrad/runtime/hip/hip_flags.cc
#include "tinygrad/runtime/hip/hip_flags.h"

#include <sys/stat.h>

#include <string_view>

#include "absl/strings/str_cat.h"

namespace tg {
namespace {

bool IsFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

absl::StatusOr<std::vector<std::string>> DeviceLibFiles(const std::string& dir,
                                                        const AmdGpuTarget& target) {
  std::vector<std::string> out;
  for (const char* required : {"ocml", "ockl"}) {
    std::string path = absl::StrCat(dir, "/", required, ".bc");
    if (!IsFile(path))
      return absl::NotFoundError(absl::StrCat("AMD device library ", path, " is missing"));
    out.push_back(std::move(path));
  }
  const std::string controls[] = {
      "oclc_daz_opt_off",
      "oclc_finite_only_off",
      "oclc_unsafe_math_off",
      "oclc_correctly_rounded_sqrt_on",
      target.wave64() ? "oclc_wavefrontsize64_on" : "oclc_wavefrontsize64_off",
      absl::StrCat("oclc_abi_version_", kCodeObjectVersion, "00"),
      absl::StrCat("oclc_isa_version_", target.id()),
  };
  for (const std::string& name : controls) {
    std::string path = absl::StrCat(dir, "/", name, ".bc");
    if (IsFile(path)) out.push_back(std::move(path));
  }
  return out;
}

std::vector<std::string> HipFrontendFlags(const AmdGpuTarget& target,
                                          const std::vector<std::string>& device_libs) {
  std::vector<std::string> flags = {
      "-std=c++14",
      "-nogpuinc",  // no HIP headers: the rendered source is self-contained
      "-Wno-gnu-line-marker",
      "-Wno-missing-prototypes",
      absl::StrCat("-mcode-object-version=", kCodeObjectVersion),
  };
  // Compute-unit mode (the reference's -mcumode) exists on RDNA only; gfx9 warns about it.
  if (!target.wave64()) flags.push_back("-mcumode");
  for (const std::string& lib : device_libs) {
    flags.insert(flags.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang", lib});
  }
  return flags;
}

std::vector<std::string> PortableFlags(const std::vector<std::string>& flags) {
  std::vector<std::string> portable;
  for (const std::string& f : flags) {
    std::string_view v = f;
    if (size_t slash = v.rfind('/'); slash != std::string_view::npos && v.ends_with(".bc"))
      v.remove_prefix(slash + 1);
    portable.emplace_back(v);
  }
  return portable;
}

std::vector<std::string> HipCodegenFlags() {
  return {"-O3", "-mllvm", "-amdgpu-internalize-symbols",
          absl::StrCat("-mcode-object-version=", kCodeObjectVersion)};
}

}  // namespace tg
