// File: tinygrad/runtime/cuda/nvrtc_copy.cc
#include "tinygrad/runtime/cuda/nvrtc_copy.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace tg {

absl::StatusOr<std::shared_ptr<const NvrtcApi>> LoadNvrtcCopy(const NvrtcApi& loaded, const std::string& temp_dir) {
  namespace fs = std::filesystem;
  const std::string file = loaded.library.file();
  if (file.empty())
    return absl::FailedPreconditionError(absl::StrCat("cannot copy NVRTC: the dynamic loader does not say which file ",
                                                      loaded.library.loaded_from(), " is"));
  if (temp_dir.empty()) return absl::FailedPreconditionError("cannot copy NVRTC: no directory to copy it into");
  std::string dir = (fs::path(temp_dir) / "tg_nvrtc_XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr)
    return absl::InternalError(absl::StrCat("cannot copy NVRTC: cannot make a directory in ", temp_dir, ": ",
                                            std::strerror(errno)));
  // A path no loaded library has: the loader would hand back the library already loaded from it.
  const std::string copy = (fs::path(dir) / "libnvrtc_copy.so").string();
  std::error_code ec;
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> api =
      fs::copy_file(file, copy, ec) ? NvrtcApi::LoadFile(copy)
                                    : absl::InternalError(absl::StrCat("cannot copy NVRTC (", file, ") into ", dir,
                                                                       ": ", ec.message()));
  fs::remove_all(dir, ec);  // loaded or not, the file goes: a mapping outlives it
  if (!api.ok()) return api.status();
  if ((*api)->version_major != loaded.version_major || (*api)->version_minor != loaded.version_minor)
    return absl::InternalError(absl::StrCat("the copy of NVRTC reports version ", (*api)->version_major, ".",
                                            (*api)->version_minor, ", not ", loaded.version_major, ".",
                                            loaded.version_minor));
  return api;
}

}  // namespace tg
