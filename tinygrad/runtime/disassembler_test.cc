// The disassembler runner with stand-in tools (shell scripts written by the test): the first
// tool that exists wins, its output is the answer, a failing tool and no tool are errors.
#include "tinygrad/runtime/disassembler.h"

#include <sys/stat.h>

#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

// An executable shell script `dir`/`name` with `body`.
void WriteTool(const std::string& dir, const std::string& name, const std::string& body) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
}

TEST(DisassemblerTest, NoToolIsNotFoundNamingEveryCandidate) {
  absl::StatusOr<std::string> r = RunDisassembler(
      "test binary", "bytes", ToolsOnPathThenIn({{"tg-no-such-disasm", {}}}, {"/tg-no-such-dir"}));
  ASSERT_EQ(r.status().code(), absl::StatusCode::kNotFound) << r.status();
  EXPECT_NE(r.status().message().find("test binary"), std::string::npos) << r.status();
  EXPECT_NE(r.status().message().find("tg-no-such-disasm, /tg-no-such-dir/tg-no-such-disasm"),
            std::string::npos)
      << r.status();
}

TEST(DisassemblerTest, TheFirstToolThatExistsGetsTheBinaryAfterItsArguments) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_disasm_test_");
  ASSERT_TRUE(dir.ok()) << dir.status();
  // prints its arguments but the file, then the file's contents
  WriteTool(dir->path(), "fake-disasm", R"(while [ $# -gt 1 ]; do printf '%s ' "$1"; shift; done; cat "$1")");
  WriteTool(dir->path(), "second-disasm", "echo second");
  absl::StatusOr<std::string> r = RunDisassembler(
      "test binary", std::string("\x7f" "ELF\0code", 8),
      ToolsOnPathThenIn({{"fake-disasm", {"-d", "--x"}}, {"second-disasm", {}}}, {dir->path()}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, std::string("-d --x \x7f" "ELF\0code", 15)) << "found in the dir after PATH, binary bytes intact";
}

TEST(DisassemblerTest, AToolThatFailsIsAnErrorWithItsOutput) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_disasm_test_");
  ASSERT_TRUE(dir.ok()) << dir.status();
  WriteTool(dir->path(), "picky-disasm", "echo 'not an object file'; echo 'more detail'; exit 2");
  absl::StatusOr<std::string> r =
      RunDisassembler("test binary", "junk", {{dir->path() + "/picky-disasm", {}}});
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("not an object file"), std::string::npos) << r.status();
  EXPECT_NE(r.status().message().find("exit 2"), std::string::npos) << r.status();
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << "one line: " << r.status();
}

}  // namespace
}  // namespace tg
