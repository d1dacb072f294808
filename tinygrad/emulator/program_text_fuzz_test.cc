// File: tinygrad/emulator/program_text_fuzz_test.cc
// The emulator's compiled form is text a cache or a file can hand back damaged: mutated
// programs (the reference's linear programs of testdata/, each line's op, dtype, sources or arg
// changed, lines dropped, duplicated or swapped) must be read, loaded and run to an error or a
// result, never to an abort, a hang or a write outside their buffers (run under
// --config=asan too). Deterministic: the same seed gives the same programs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/emulator/uop_interpreter.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

std::vector<std::vector<std::string>> SeedPrograms() {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator("tinygrad/emulator/testdata"))
    if (e.path().extension() == ".uops") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<std::vector<std::string>> out;
  for (const std::string& p : paths) {
    std::ifstream in(p);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') lines.push_back(line);
    out.push_back(std::move(lines));
  }
  return out;
}

// One random change to one line (or to the list of lines).
void Mutate(std::vector<std::string>& lines, std::mt19937_64& rng) {
  if (lines.empty()) return;
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  size_t i = pick(lines.size());
  std::vector<std::string> f = absl::StrSplit(lines[i], " | ");
  static const std::vector<std::string> kOps = {"ADD", "MUL", "IDIV", "MOD", "LOAD", "STORE", "INDEX", "RANGE", "END",
                                                "IF", "ENDIF", "WMMA", "GEP", "VECTORIZE", "CAST", "BITCAST", "SPECIAL",
                                                "DEFINE_LOCAL", "DEFINE_REG", "WHERE", "SHL", "CONST", "SINK", "BARRIER"};
  static const std::vector<std::string> kDtypes = {"float", "int", "bool", "half", "bfloat16", "long", "uchar",
                                                   "float vec:4", "int ptr:4:GLOBAL", "float ptr:1000000000:LOCAL",
                                                   "float ptr:16:REG", "half vec:8", "void", "fp8e4m3", "index"};
  static const std::vector<std::string> kArgs = {"None", "0", "-1", "1", "2147483648", "99999999999999999999", "1e308",
                                                 "nan", "'gidx0'", "'lidx2'", "'x'", "(0, AxisType.LOOP)", "(-5,)", "()",
                                                 "(1, 2, 3)", "True", "Ops.ADD", "'WMMA_8_16_16_half_float'"};
  switch (pick(7)) {
    case 0: if (f.size() == 5) f[1] = kOps[pick(kOps.size())]; break;
    case 1: if (f.size() == 5) f[2] = kDtypes[pick(kDtypes.size())]; break;
    case 2: if (f.size() == 5) f[3] = i == 0 ? "-" : absl::StrCat(pick(i)) + (pick(2) ? "," + absl::StrCat(pick(i)) : ""); break;
    case 3: if (f.size() == 5) f[4] = kArgs[pick(kArgs.size())]; break;
    case 4: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i)); return;
    case 5: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]); return;
    default: std::swap(lines[i], lines[pick(lines.size())]); return;
  }
  lines[i] = absl::StrJoin(f, " | ");
}

TEST(ProgramTextFuzzTest, DamagedProgramsAreErrorsOrResultsNeverAborts) {
  const std::vector<std::vector<std::string>> seeds = SeedPrograms();
  ASSERT_GT(seeds.size(), 50u);
  std::mt19937_64 rng(20261128);
  int parse_errors = 0, load_errors = 0, run_errors = 0, ran = 0;
  constexpr int kCases = 3000;
  for (int c = 0; c < kCases; ++c) {
    std::vector<std::string> lines = seeds[rng() % seeds.size()];
    for (int m = 1 + static_cast<int>(rng() % 3); m > 0; --m) Mutate(lines, rng);
    absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(absl::StrJoin(lines, "\n"));
    if (!uops.ok()) {
      ++parse_errors;
      continue;
    }
    absl::StatusOr<UopInterpreter> prog = UopInterpreter::Load(*uops);
    if (!prog.ok()) {
      ++load_errors;
      continue;
    }
    // small buffers (whatever the program thinks they hold: the bounds checks are the point)
    std::vector<std::vector<std::byte>> memory(prog->num_buffers(), std::vector<std::byte>(256));
    std::vector<std::span<std::byte>> bufs(memory.begin(), memory.end());
    std::vector<int64_t> vals(prog->num_vars(), 3);
    absl::Status s = prog->Run(bufs, vals, {2, 1, 1}, {2, 1, 1},
                               std::chrono::steady_clock::now() + std::chrono::milliseconds(200));
    ++(s.ok() ? ran : run_errors);
  }
  std::printf("%d damaged programs: %d parse errors, %d load errors, %d run errors, %d ran\n", kCases, parse_errors,
              load_errors, run_errors, ran);
  EXPECT_EQ(parse_errors + load_errors + run_errors + ran, kCases);
}

}  // namespace
}  // namespace tg
