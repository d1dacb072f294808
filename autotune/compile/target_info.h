// File: autotune/compile/target_info.h
// What a compile server prepares for and what a GPU machine needs prepared
// (codec::CompileTargetInfo), and how two of them differ, in words.
//
// Example:
//   codec::CompileTargetInfo mine = TargetInfoOf("CUDA", "sm_90", DeviceCompiler(*gpu));
//   if (std::string why = TargetMismatch(server, mine); !why.empty()) ...
//     // "arch: server sm_80, client sm_90"
#ifndef AUTOTUNE_COMPILE_TARGET_INFO_H_
#define AUTOTUNE_COMPILE_TARGET_INFO_H_

#include <string>

#include "autotune/codec/compile_messages.h"
#include "autotune/measure/prepare_batch.h"

namespace tg::autotune {

// The target of `compiler` (its renderer with that renderer's limits, its compiler id) for
// the device kind `device` ("CUDA") and `arch` ("sm_90").
codec::CompileTargetInfo TargetInfoOf(std::string device, std::string arch, const CandidateCompiler& compiler);

// "" when equal; else each differing field as "field: server A, client B", joined by "; ".
std::string TargetMismatch(const codec::CompileTargetInfo& server, const codec::CompileTargetInfo& client);

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_TARGET_INFO_H_
