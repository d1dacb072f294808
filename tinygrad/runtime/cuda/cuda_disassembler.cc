// File: tinygrad/runtime/cuda/cuda_disassembler.cc
#include "tinygrad/runtime/cuda/cuda_disassembler.h"

#include <algorithm>
#include <filesystem>

#include "tinygrad/runtime/disassembler.h"

namespace tg {
namespace {

bool IsElf(std::string_view b) { return b.size() >= 4 && b.substr(0, 4) == std::string_view("\x7f" "ELF", 4); }

// What the CUDA PTX renderer and NVRTC's PTX output start with: comments and directives.
bool LooksLikePtx(std::string_view b) {
  return b.find(".version") != std::string_view::npos && b.find('\0') == std::string_view::npos;
}

}  // namespace

std::vector<std::string> CudaToolDirs(const CudaLibraryOptions& libs, std::string_view nvrtc_file) {
  std::vector<std::string> out;
  // whether `dir` exists (and was added, unless it was already)
  auto add = [&out](const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return false;
    std::string s = dir.lexically_normal().string();
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
    return true;
  };
  if (!nvrtc_file.empty()) {
    std::filesystem::path dir = std::filesystem::path(nvrtc_file).parent_path();
    for (int up = 0; up < 3 && dir.has_relative_path(); ++up) {
      dir = dir.parent_path();
      if (add(dir / "bin")) break;
    }
  }
  for (const std::string& dir : libs.cuda_dirs) add(std::filesystem::path(dir) / "bin");
  return out;
}

absl::StatusOr<std::string> DisassembleCuda(std::string_view binary, const std::vector<std::string>& tool_dirs) {
  if (IsElf(binary))
    return RunDisassembler("CUBIN", binary,
                           ToolsOnPathThenIn({{"nvdisasm", {}}, {"cuobjdump", {"-sass"}}}, tool_dirs));
  if (LooksLikePtx(binary)) return std::string(binary);
  return absl::InvalidArgumentError("not a CUDA binary: neither a CUBIN (ELF) nor PTX text");
}

}  // namespace tg
