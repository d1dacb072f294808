// File: tinygrad/runtime/disassembler.cc
#include "tinygrad/runtime/disassembler.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {

std::vector<DisassemblerTool> ToolsOnPathThenIn(const std::vector<DisassemblerTool>& tools,
                                                const std::vector<std::string>& dirs) {
  std::vector<DisassemblerTool> out = tools;
  for (const std::string& dir : dirs)
    for (const DisassemblerTool& t : tools) out.push_back({absl::StrCat(dir, "/", t.program), t.args});
  return out;
}

absl::StatusOr<std::string> RunDisassembler(std::string_view what, std::string_view binary,
                                            const std::vector<DisassemblerTool>& tools) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_disasm_");
  if (!dir.ok()) return dir.status();
  const std::string file = dir->path() + "/binary";
  {
    std::ofstream out(file, std::ios::binary);
    out.write(binary.data(), static_cast<std::streamsize>(binary.size()));
    if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", file));
  }
  std::vector<std::string> tried;
  for (const DisassemblerTool& tool : tools) {
    std::vector<std::string> argv = {tool.program};
    argv.insert(argv.end(), tool.args.begin(), tool.args.end());
    argv.push_back(file);
    absl::StatusOr<ProcessResult> r = RunProcess(argv);
    if (!r.ok() && r.status().code() == absl::StatusCode::kNotFound) {
      tried.push_back(tool.program);
      continue;
    }
    if (!r.ok()) return r.status();
    if (r->exit_code != 0) {
      // one line: the caller prints it in place of the disassembly (a crash dumps a stack)
      const std::string first_line = r->output.substr(0, r->output.find('\n'));
      return absl::InvalidArgumentError(absl::StrCat(tool.program, " could not disassemble the ", std::string(what),
                                                     r->exit_code < 0 ? " (it crashed)" : absl::StrCat(" (exit ", r->exit_code, ")"),
                                                     ": ", first_line));
    }
    return r->output;
  }
  return absl::NotFoundError(absl::StrCat("no disassembler for a ", std::string(what), ": none of ",
                                          absl::StrJoin(tried, ", "), " is installed"));
}

}  // namespace tg
