// File: tinygrad/runtime/cpu/disassembler.h
// The CPU device's DEBUG=7: the machine code of a compiled kernel (the clang process's shared
// object, or the object in-process clang and LLVM make), as the reference's cpu_objdump prints
// it: `objdump -d`, else `llvm-objdump -d`, from PATH.
#ifndef TINYGRAD_RUNTIME_CPU_DISASSEMBLER_H_
#define TINYGRAD_RUNTIME_CPU_DISASSEMBLER_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tg {

// NotFound when neither tool is installed; InvalidArgument when the bytes are no object file.
absl::StatusOr<std::string> DisassembleCpuObject(std::string_view lib);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_DISASSEMBLER_H_
