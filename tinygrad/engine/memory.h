// File: tinygrad/engine/memory.h
// Port of tinygrad/engine/memory.py: memory planning for a schedule.
//
// Intermediate buffers that hold nothing yet (not allocated, no pending host contents), and
// that no caller keeps, get memory
// shared with earlier intermediates whose last use has passed: a buffer freed after item i
// is reused by a buffer first needed at item j > i with the same (device, dtype, bytes).
// tinygrad's devices with sub-allocation carve these from one arena with a TLSF allocator;
// this is its fallback path (whole-buffer reuse), which keeps every kernel's arguments
// distinct and aligned. NO_MEMORY_PLANNER=1 (Config::no_memory_planner) turns it off.
#ifndef TINYGRAD_ENGINE_MEMORY_H_
#define TINYGRAD_ENGINE_MEMORY_H_

#include <memory>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "tinygrad/engine/buffer.h"

namespace tg {

using BufferList = std::vector<std::shared_ptr<Buffer>>;

// `items[i]` are the buffers schedule item i uses. Buffers in `keep` (outputs the caller
// holds, inputs of copies) are never replaced. Returns replaced -> replacement. (NO_MEMORY_PLANNER
// is the caller's: it does not call this.)
absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> PlanMemory(
    std::span<const BufferList> items, const absl::flat_hash_set<const Buffer*>& keep);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_MEMORY_H_
