// File: tinygrad/engine/launch.h
// Where a kernel's threads go: the grid and block of one launch, from a ProgramSpec's symbolic
// sizes and the variables' values; and tinygrad's optimize_local_size (engine/realize.py) for
// kernels that leave the block to the runtime.
//
// A kernel lowered with NOLOCALS on a GPU renderer indexes by global thread only (gpudims'
// "idx" specials), so its ProgramSpec has no local size: the reference then times every block
// that tiles the grid, twice each, and keeps the fastest for that runner. The engine's
// RunKernel and the autotuner's measurer both do that through OptimizeLocalSize, so a NOLOCALS
// candidate is measured with the block it will run with.
//
// Example:
//   ASSIGN_OR_RETURN(LaunchShape shape, LaunchShapeOf(spec, vars));
//   if (NeedsLocalSize(renderer, spec)) {
//     ASSIGN_OR_RETURN(shape, OptimizeLocalSize(*prog, args, vals, shape.global, Program::kNoStop));
//   }
//   prog->Run(args, vals, shape.global, shape.local, /*wait=*/true, Program::kNoStop);
#ifndef TINYGRAD_ENGINE_LAUNCH_H_
#define TINYGRAD_ENGINE_LAUNCH_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/engine/device.h"

namespace tg {

struct LaunchShape {
  LaunchDims global{1, 1, 1};        // in blocks where `local` is set, else in threads
  std::optional<LaunchDims> local;   // the block; none: the kernel indexes by global thread
};

// The spec's global and local sizes with `vars` substituted. InvalidArgument when a size
// needs a variable that has no value.
absl::StatusOr<LaunchShape> LaunchShapeOf(const ProgramSpec& spec,
                                          const absl::flat_hash_map<std::string, ConstValue>& vars);

// Whether the block is left to OptimizeLocalSize: a GPU renderer (has_local), a kernel without a
// local size, and a grid of numbers (the reference's all_int: a grid that depends on variables
// is launched as it is). CPU renderers never need one.
bool NeedsLocalSize(const Renderer& renderer, const ProgramSpec& spec);

// The reference's MAX_WORKGROUP.
inline constexpr int64_t kMaxWorkgroup = 1024;

// The blocks optimize_local_size tries for a grid of `global` threads, in a fixed order: per
// axis 1, 2, 4, ..., 256, max_workgroup and the axis's own size, those no larger than the axis
// and dividing it (the reference also lists the others, but their launch fails), combined into
// blocks of at most max_workgroup threads.
std::vector<LaunchDims> LocalSizeCandidates(const LaunchDims& global, int64_t max_workgroup = kMaxWorkgroup);

// Runs `prog` with every candidate block twice (each run limited to stop_after_s) and returns
// the fastest block with the grid in blocks; ties go to the first candidate. The runs write the
// kernel's outputs: where an output is also an input, pass a scratch buffer in its place
// (the reference does the same). A run that loses the device ends the search with that error;
// other failures only rule their block out. Errors: no candidate (an empty grid), or every
// candidate failed (with the last failure).
absl::StatusOr<LaunchShape> OptimizeLocalSize(Program& prog, std::span<void* const> args,
                                              std::span<const int64_t> vals, const LaunchDims& global,
                                              double stop_after_s);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_LAUNCH_H_
