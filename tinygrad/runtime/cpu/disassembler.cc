// File: tinygrad/runtime/cpu/disassembler.cc
#include "tinygrad/runtime/cpu/disassembler.h"

#include "tinygrad/runtime/disassembler.h"

namespace tg {

absl::StatusOr<std::string> DisassembleCpuObject(std::string_view lib) {
  return RunDisassembler("CPU object", lib, {{"objdump", {"-d"}}, {"llvm-objdump", {"-d"}}});
}

}  // namespace tg
