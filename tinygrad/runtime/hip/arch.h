// File: tinygrad/runtime/hip/arch.h
// An AMD GPU compile target as ROCm names it: a processor ("gfx90a", "gfx1100") with optional
// target-ID features ("gfx90a:sramecc+:xnack-"). The runtime's own parse (it knows no
// renderer): the HIP renderer's AmdArch picks tensor-core tables, this one picks compiler
// flags and device libraries.
//
// Example:
//   ASSIGN_OR_RETURN(AmdGpuTarget t, ParseAmdGpuTarget("gfx90a:xnack-"));
//   t.processor          // "gfx90a"
//   t.major()            // 9: GCN/CDNA waves are 64 wide, RDNA (10 and up) 32
//   t.IsaName()          // "amdgcn-amd-amdhsa--gfx90a:xnack-" (comgr's and the loader's name)
#ifndef TINYGRAD_RUNTIME_HIP_ARCH_H_
#define TINYGRAD_RUNTIME_HIP_ARCH_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

struct AmdGpuTarget {
  std::string processor;              // "gfx90a"
  std::vector<std::string> features;  // {"sramecc+", "xnack-"}, as given

  // The processor with its features: "gfx90a:sramecc+:xnack-".
  std::string name() const;
  // The ISA name comgr and the code object loader use: "amdgcn-amd-amdhsa--<name>".
  std::string IsaName() const;
  // The processor's id without "gfx": "90a", "1100" (device libraries are named by it:
  // oclc_isa_version_90a.bc).
  std::string id() const { return processor.substr(3); }
  // The generation: the id less its last two characters (gfx90a 9, gfx942 9, gfx1100 11).
  int major() const;
  // Waves are 64 lanes wide on gfx9 and older (GCN, CDNA), 32 on RDNA (gfx10 and newer).
  bool wave64() const { return major() <= 9; }

  friend bool operator==(const AmdGpuTarget&, const AmdGpuTarget&) = default;
};

// "gfx" + 3 or 4 hex digits (the first a decimal digit), then any ":<feature><+|->" parts with
// lower-case alphanumeric feature names; anything else is InvalidArgument naming it. Whether a
// compiler knows the processor is the compiler's to say.
absl::StatusOr<AmdGpuTarget> ParseAmdGpuTarget(std::string_view name);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_HIP_ARCH_H_
