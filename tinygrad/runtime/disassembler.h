// File: tinygrad/runtime/disassembler.h
// Runs an external disassembler (objdump, nvdisasm, ...) over a compiled binary: what the
// device runtimes' Disassemble (DEBUG=7) is made of. Port of the reference's cpu_objdump and
// cuda_disassemble (helpers.py, runtime/support/compiler_cuda.py): the binary is written to a
// file and the tool's output is the disassembly.
//
// No disassembler is needed to build or test tinygrad-cc: one that is missing is NotFound,
// which callers show as one line (the run goes on).
//
// Example:
//   ASSIGN_OR_RETURN(std::string text,
//                    RunDisassembler("CPU object", lib, {{"objdump", {"-d"}}, {"llvm-objdump", {"-d"}}}));
#ifndef TINYGRAD_RUNTIME_DISASSEMBLER_H_
#define TINYGRAD_RUNTIME_DISASSEMBLER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

// One way to disassemble: `program` (a name looked up in PATH, or a path) run as
// `program args... <file>`.
struct DisassemblerTool {
  std::string program;
  std::vector<std::string> args;
};

// `names` (each with `args`) on PATH, then in each of `dirs`, in that order: the candidates a
// runtime hands RunDisassembler when a tool may live outside PATH (a CUDA toolkit's bin/).
std::vector<DisassemblerTool> ToolsOnPathThenIn(const std::vector<DisassemblerTool>& tools,
                                                const std::vector<std::string>& dirs);

// The output of the first of `tools` that exists, run on `binary`. Errors: NotFound when none
// exists (the message says what `what` is and names every candidate), InvalidArgument when
// the tool rejects the binary or crashes (its exit status and the first line of its output:
// one line, which callers print in place of the disassembly), Unavailable when no temp file.
absl::StatusOr<std::string> RunDisassembler(std::string_view what, std::string_view binary,
                                            const std::vector<DisassemblerTool>& tools);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_DISASSEMBLER_H_
