// File: tinygrad/runtime/cuda/cuda_disassembler.h
// DEBUG=7 for CUDA: what a CUDA compiler made, for people. Port of the reference's
// cuda_disassemble (runtime/support/compiler_cuda.py), which runs nvdisasm over the binary.
//   - A CUBIN (an ELF: NVRTC's output, or PTX that nvJitLink assembled) is shown as SASS by
//     `nvdisasm`, else `cuobjdump -sass`. Neither needs a GPU.
//   - PTX text (the CUDA_PTX=1 device's binary, which the driver JIT-compiles at load) is its
//     own disassembly: it is answered as it is. (The reference runs ptxas first; the driver's
//     JIT need not make what ptxas makes.)
// The tools are not part of the CUDA libraries tinygrad-cc loads: they are looked for on PATH,
// then in the toolkit NVRTC was loaded from, then in the CUDA install dirs. A missing tool is
// NotFound (callers print one line).
//
// Example:
//   std::vector<std::string> dirs = CudaToolDirs(libs, nvrtc->library.file());
//   ASSIGN_OR_RETURN(std::string sass, DisassembleCuda(cubin, dirs));
#ifndef TINYGRAD_RUNTIME_CUDA_CUDA_DISASSEMBLER_H_
#define TINYGRAD_RUNTIME_CUDA_CUDA_DISASSEMBLER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/library_search.h"

namespace tg {

// The dirs nvdisasm and cuobjdump are looked for in after PATH, each once: the first <dir>/bin
// that exists of the three dirs above the library file `nvrtc_file` ("" when none is loaded), so
// that .../lib64/libnvrtc.so.13 and .../targets/x86_64-linux/lib/libnvrtc.so.13 both find the
// toolkit's bin/; then <dir>/bin of each CUDA install dir in `libs` that exists.
std::vector<std::string> CudaToolDirs(const CudaLibraryOptions& libs, std::string_view nvrtc_file);

// SASS for a CUBIN, the text itself for PTX (see the file comment). NotFound when a CUBIN
// finds no disassembler; InvalidArgument when the tool rejects it (a CUBIN for an arch the
// tool is too old for) or the bytes are neither; Unavailable when no temp file could be
// written.
absl::StatusOr<std::string> DisassembleCuda(std::string_view binary, const std::vector<std::string>& tool_dirs);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_CUDA_DISASSEMBLER_H_
