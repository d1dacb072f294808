// File: tinygrad/runtime/cpu/cpu_target.cc
// The CPU targets: x86-64 levels, their compiler flag, their ISA flags, whether this CPU runs them.
#include "tinygrad/runtime/cpu/cpu_target.h"

#include <sys/utsname.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tg {
namespace {

struct Level {
  std::string_view name;
  // cpuinfo flags the level adds to the one before it
  std::vector<std::string_view> adds;
  // of those, the ones a CPU is checked for before running the level's code (the ones whose
  // absence is plausible on a CPU of an earlier generation)
  std::vector<std::string_view> checked;
};

// The psABI levels, each including the ones before it (v1, the x86-64 baseline, is listed so
// that every level's flag list is complete).
const std::vector<Level>& Levels() {
  // clang-format off
  static const auto* kLevels = new std::vector<Level>{
      {"x86-64", {"cmov", "cx8", "fpu", "fxsr", "mmx", "sse", "sse2"}, {}},
      {"x86-64-v2", {"cx16", "lahf_lm", "pni", "popcnt", "sse4_1", "sse4_2", "ssse3"},
       {"popcnt", "sse4_2", "ssse3"}},
      {"x86-64-v3", {"abm", "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave"},
       {"avx2", "bmi2", "fma"}},
      {"x86-64-v4", {"avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"},
       {"avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"}},
  };
  // clang-format on
  return *kLevels;
}

// Index of `target` in Levels(), or -1. The baseline (index 0) is not offered as a target.
int LevelIndex(std::string_view target) {
  const std::vector<Level>& levels = Levels();
  for (size_t i = 1; i < levels.size(); ++i)
    if (levels[i].name == target) return static_cast<int>(i);
  return -1;
}

std::string HostMachine() {
  struct utsname u;
  return ::uname(&u) == 0 ? u.machine : "x86_64";
}

// Whether this CPU has the cpuinfo flag `flag` (only the flags Levels() checks are known).
bool HostHas(std::string_view flag) {
#if defined(__x86_64__)
  // __builtin_cpu_supports takes string literals (GCC's and clang's names)
  if (flag == "popcnt") return __builtin_cpu_supports("popcnt");
  if (flag == "sse4_2") return __builtin_cpu_supports("sse4.2");
  if (flag == "ssse3") return __builtin_cpu_supports("ssse3");
  if (flag == "avx2") return __builtin_cpu_supports("avx2");
  if (flag == "bmi2") return __builtin_cpu_supports("bmi2");
  if (flag == "fma") return __builtin_cpu_supports("fma");
  if (flag == "avx512f") return __builtin_cpu_supports("avx512f");
  if (flag == "avx512bw") return __builtin_cpu_supports("avx512bw");
  if (flag == "avx512cd") return __builtin_cpu_supports("avx512cd");
  if (flag == "avx512dq") return __builtin_cpu_supports("avx512dq");
  if (flag == "avx512vl") return __builtin_cpu_supports("avx512vl");
#endif
  (void)flag;
  return false;
}

}  // namespace

std::vector<std::string> KnownCpuTargets() {
  std::vector<std::string> out;
  for (size_t i = 1; i < Levels().size(); ++i) out.emplace_back(Levels()[i].name);
  return out;
}

bool IsNativeCpuTarget(std::string_view target) { return target.empty() || target == "native"; }

bool IsKnownCpuTarget(std::string_view target) {
  return IsNativeCpuTarget(target) || LevelIndex(target) >= 0;
}

absl::Status CheckCpuTargetOn(std::string_view target, std::string_view machine,
                              const std::function<bool(std::string_view)>& has) {
  if (IsNativeCpuTarget(target)) return absl::OkStatus();
  const int level = LevelIndex(target);
  if (level < 0)
    return absl::InvalidArgumentError(absl::StrCat("unknown CPU target '", std::string(target),
                                                   "': known targets are native, ",
                                                   absl::StrJoin(KnownCpuTargets(), ", ")));
  if (machine != "x86_64")
    return absl::InvalidArgumentError(absl::StrCat("CPU target ", std::string(target),
                                                   " is an x86-64 level; this machine is ",
                                                   std::string(machine)));
  // every missing feature, so that one message says what the CPU would need
  std::vector<std::string> missing;
  for (int i = 1; i <= level; ++i)
    for (std::string_view f : Levels()[i].checked)
      if (!has(f)) missing.emplace_back(f);
  if (!missing.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("CPU target ", std::string(target), " needs ", absl::StrJoin(missing, ", "),
                     ", which this CPU lacks (its kernels would not run here)"));
  return absl::OkStatus();
}

absl::Status CheckCpuTarget(std::string_view target) {
  return CheckCpuTargetOn(target, HostMachine(), HostHas);
}

std::vector<std::string> CpuArchFlags(std::string_view target) {
  if (target == "x86-64-v4") return {"-march=x86-64-v4", "-mprefer-vector-width=512"};
  if (!IsNativeCpuTarget(target)) return {absl::StrCat("-march=", std::string(target))};
  // on arm, -march means "runs on this arch and its supersets"; x86's -march is arm's -mcpu
  const std::string machine = HostMachine();
  return {machine == "x86_64"    ? "-march=native"
          : machine == "riscv64" ? "-march=rv64g"
                                 : "-mcpu=native"};
}

std::string CpuTargetLlvmFeatures(std::string_view target) {
  return target == "x86-64-v4" ? "-prefer-256-bit" : "";
}

std::optional<std::vector<std::string>> CpuTargetIsaFlags(std::string_view target) {
  const int level = LevelIndex(target);
  if (level < 0) return std::nullopt;
  std::vector<std::string> out;
  for (int i = 0; i <= level; ++i)
    for (std::string_view f : Levels()[i].adds) out.emplace_back(f);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tg
