// File: tinygrad/runtime/hip/hip_disassembler.cc
#include "tinygrad/runtime/hip/hip_disassembler.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/runtime/disassembler.h"

namespace tg {

absl::StatusOr<std::string> DisassembleAmdCodeObject(std::string_view code_object, const HipToolchainOptions& tools) {
  std::vector<DisassemblerTool> candidates;
  for (const std::string& rocm : tools.rocm_dirs) candidates.push_back({rocm + "/llvm/bin/llvm-objdump", {"-d"}});
  for (int v = 20; v >= 15; --v) candidates.push_back({absl::StrCat("llvm-objdump-", v), {"-d"}});
  candidates.push_back({"llvm-objdump", {"-d"}});
  return RunDisassembler("AMD code object", code_object, candidates);
}

}  // namespace tg
