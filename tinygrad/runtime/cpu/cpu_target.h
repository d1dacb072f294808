// File: tinygrad/runtime/cpu/cpu_target.h
// Which instruction set CPU kernels are compiled for: the host's (`-march=native`, the
// reference's only choice) or a named x86-64 microarchitecture level, so that kernels for a
// smaller ISA can be compiled, timed and tuned on a machine with a larger one (AVX2 code on an
// AVX-512 machine: a level's code runs on every CPU that has the level).
//
// Levels (the x86-64 psABI's, which clang's -march and LLVM's CPU names know):
//   x86-64-v2  SSE4.2, POPCNT (128-bit vectors, 16 xmm registers)
//   x86-64-v3  AVX2, FMA, BMI2, F16C (256-bit vectors, 16 ymm registers)
//   x86-64-v4  AVX-512 F/BW/CD/DQ/VL (512-bit vectors, 32 zmm registers)
// "" or "native" is the host's ISA, as before.
//
// Example:
//   RETURN_IF_ERROR(CheckCpuTarget("x86-64-v3"));   // known, and this CPU can run it
//   CpuArchFlags("x86-64-v3")                       // {"-march=x86-64-v3"}
//   CpuTargetIsaFlags("x86-64-v3")                  // {"abm", "avx", "avx2", ...}: cpuinfo names
#ifndef TINYGRAD_RUNTIME_CPU_CPU_TARGET_H_
#define TINYGRAD_RUNTIME_CPU_CPU_TARGET_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace tg {

// The named targets, smallest first (without "native").
std::vector<std::string> KnownCpuTargets();

// Whether `target` is "", "native" (the host's) or a known level.
bool IsKnownCpuTarget(std::string_view target);

// Whether `target` is the host's ISA ("" or "native").
bool IsNativeCpuTarget(std::string_view target);

// OK when kernels compiled for `target` can run here. InvalidArgument for an unknown name (the
// message lists the known ones), for a level on a machine of another architecture, or for a
// level this CPU lacks (its code would die of an illegal instruction; the message names every
// missing feature).
absl::Status CheckCpuTarget(std::string_view target);
// CheckCpuTarget for a machine of architecture `machine` (uname's: "x86_64", "aarch64") whose
// CPU has the cpuinfo flags for which `has` is true.
absl::Status CheckCpuTargetOn(std::string_view target, std::string_view machine,
                              const std::function<bool(std::string_view)>& has);

// The C compiler's architecture flags for `target` on this machine: for the host, tinygrad's
// (-march=native on x86, -mcpu=native on arm, -march=rv64g on riscv); for a level,
// -march=<level>, and for x86-64-v4 also -mprefer-vector-width=512 (clang's x86-64-v4 keeps
// a Skylake-X tuning that splits 512-bit vectors in two, which -march=native on an AVX-512
// machine does not). An unknown name is passed on as -march=<name> (the compiler reports it):
// callers check with CheckCpuTarget first.
std::vector<std::string> CpuArchFlags(std::string_view target);

// LLVM's CPU name and features string for a level (the in-process LLVM compiler): the level's
// own name, and for x86-64-v4 "-prefer-256-bit" (as -mprefer-vector-width=512 above).
std::string CpuTargetLlvmFeatures(std::string_view target);

// The ISA flags (Linux /proc/cpuinfo names) that code compiled for a level may use; nullopt for
// the host's ISA (every flag the CPU has) and for an unknown name.
std::optional<std::vector<std::string>> CpuTargetIsaFlags(std::string_view target);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_CPU_TARGET_H_
