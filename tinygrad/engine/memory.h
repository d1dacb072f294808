// File: tinygrad/engine/memory.h
// Port of tinygrad/engine/memory.py: memory planning for a schedule.
//
// Intermediate buffers that hold nothing yet (not allocated, no pending host contents), and
// that no caller keeps, get memory
// shared with earlier intermediates whose last use has passed: a buffer freed after item i
// is reused by a buffer first needed at item j > i with the same (device, dtype, bytes).
// tinygrad's devices with sub-allocation carve these from one arena with a TLSF allocator;
// Realize uses its fallback path (whole-buffer reuse), which keeps every kernel's arguments
// distinct buffers; TinyJit's re-planning sub-allocates (MemoryPlanOptions). NO_MEMORY_PLANNER=1 (Config::no_memory_planner) turns it off.
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

struct MemoryPlanOptions {
  // tinygrad's path for devices that sub-allocate (its TLSF arena): every planned buffer becomes
  // a view at an offset (kSubAllocationBlock-aligned) of one arena per device, so buffers of any
  // size share memory once their lifetimes are over, not only equal ones. Buffers used by the
  // same item never overlap. Off: whole-buffer reuse between equal (device, dtype, bytes).
  // (No real allocator: first fit over the timeline stands in for tinygrad's TLSF.)
  bool sub_allocate = false;
};
// tinygrad rounds to 0x1000; 256 bytes keeps every vector load (64 bytes at most) and CUDA's
// 256-byte alignment, and wastes less on the many small buffers a training step has.
inline constexpr size_t kSubAllocationBlock = 256;

// `items[i]` are the buffers schedule item i uses. Buffers in `keep` (outputs the caller
// holds, inputs of copies) are never replaced. Returns replaced -> replacement. (NO_MEMORY_PLANNER
// is the caller's: it does not call this.)
absl::flat_hash_map<const Buffer*, std::shared_ptr<Buffer>> PlanMemory(
    std::span<const BufferList> items, const absl::flat_hash_set<const Buffer*>& keep,
    const MemoryPlanOptions& options = {});

}  // namespace tg

#endif  // TINYGRAD_ENGINE_MEMORY_H_
