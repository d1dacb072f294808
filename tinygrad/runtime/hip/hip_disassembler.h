// File: tinygrad/runtime/hip/hip_disassembler.h
// DEBUG=7 for AMD code objects: the GCN/RDNA assembly, as the reference's amdgpu_disassemble
// prints it (runtime/support/compiler_amd.py): `llvm-objdump -d`, the ROCm LLVM's first
// (<rocm>/llvm/bin for each ROCm dir), then llvm-objdump-20 ... -15 and llvm-objdump on PATH.
// An llvm-objdump older than the target (LLVM 14 knows no gfx11) rejects the object:
// InvalidArgument with its message. None installed: NotFound.
#ifndef TINYGRAD_RUNTIME_HIP_HIP_DISASSEMBLER_H_
#define TINYGRAD_RUNTIME_HIP_HIP_DISASSEMBLER_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/hip/toolchain_search.h"

namespace tg {

absl::StatusOr<std::string> DisassembleAmdCodeObject(std::string_view code_object, const HipToolchainOptions& tools);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_HIP_DISASSEMBLER_H_
