// File: tinygrad/codegen/gpudims.h
// Port of tinygrad/codegen/gpudims.py: GLOBAL/THREAD/LOCAL ranges become SPECIAL launch
// indices (gidx/lidx/idx), grouped or split to fit the renderer's launch limits.
//
// Example:
//   GetGroupedDims("gidx", {C(4096), C(4096)}, LaunchDims{65535, 65535, 65535}, true)
//   // two SPECIALs gidx1 (size 4096) and gidx0 (size 4096), listed in dims order
//   sink = GraphRewrite(sink, PmAddGpudims(), {.name = "add gpudims", .ctx = RewriteCtx::Of(ren)});
#ifndef TINYGRAD_CODEGEN_GPUDIMS_H_
#define TINYGRAD_CODEGEN_GPUDIMS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"

#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/pattern_matcher.h"

namespace tg {

// Index expressions (over SPECIALs named prefix0, prefix1, ...) for launch dims `dims`
// (index-dtype UOps, constants or symbolic), merging adjacent dims or splitting a large one to
// fit `max_sizes` (nullopt: no limit). `reverse` maps the last dim to prefix0.
// TG_CHECK-fails ("cannot limit dim") when the dims cannot be made to fit: ask CheckLaunchDims.
std::vector<UOp> GetGroupedDims(const std::string& prefix, const std::vector<UOp>& dims,
                                const std::optional<LaunchDims>& max_sizes, bool reverse = false);

// Why PmAddGpudims cannot map `sink`'s GLOBAL/THREAD and LOCAL ranges onto `ren`'s launch
// limits (a dim too large and prime, more dims than the launch has: tinygrad raises "cannot
// limit dim"), or OK. FullRewriteToSink asks before add gpudims, so such a kernel (a valid one:
// a 65537-wide axis on CUDA) is an InvalidArgument, not an abort.
absl::Status CheckLaunchDims(const UOp& sink, const Renderer& ren);

// ctx: const Renderer. At the SINK (once, when it has a KernelInfo and no SPECIAL yet),
// substitutes GLOBAL/THREAD/WARP/LOCAL/GROUP_REDUCE ranges by launch indices and gates global
// stores that miss a local range to the local index 0.
const PatternMatcher& PmAddGpudims();

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_GPUDIMS_H_
