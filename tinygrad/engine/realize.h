// File: tinygrad/engine/realize.h
// Port of tinygrad/engine/realize.py and the realize half of tinygrad/tensor.py: turn
// tensor-graph UOps into computed buffers.
//
// Example:
//   UOp a = BufferFromHost("CPU", dtypes::float32, bytes_of(host)).value();   // shape (n,)
//   UOp out = (a + a).contiguous...;                                          // any tensor graph
//   auto becomes = Realize({&out, 1});      // schedule, compile (cached), run
//   UOp buf = becomes->at(out).base();      // the BUFFER now holding the result
//   CopyOut(buf, host_span);
//
// Realize() is what Tensor::realize() calls; the Tensor layer applies the returned map to its
// live tensors. DEBUG (Config) prints as tinygrad does: 1 kernel count and total time, 2 a line
// per kernel, 3 the AST and opts, 4 the source.
#ifndef TINYGRAD_ENGINE_REALIZE_H_
#define TINYGRAD_ENGINE_REALIZE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/engine/engine_stats.h"  // IWYU pragma: export
#include "tinygrad/uop/uop.h"

namespace tg {

// Compiled kernels held by the method cache.
size_t MethodCacheSize();

// Schedules and runs everything `roots` need. Returns, for every node that was realized, the
// node that replaces it (a BUFFER, or movement ops over one).
absl::StatusOr<absl::flat_hash_map<UOp, UOp>> Realize(std::span<const UOp> roots);

// A new BUFFER UOp on `device` holding a copy of `data` (data.size() must be a multiple of
// dtype's itemsize); shape (data.size() / itemsize,).
absl::StatusOr<UOp> BufferFromHost(const std::string& device, DType dtype,
                                   std::span<const std::byte> data);

// A new BUFFER UOp on `device` whose contents are `data`, copied onto the device only when the
// buffer is first used there (a kernel reads it, a copy to another device, EnsureOnDevice);
// reading it back before that reads `data` itself. `data` must stay valid and unchanged while
// `owner` lives; the buffer holds `owner` until it has copied. Shape (data.size() / itemsize,).
absl::StatusOr<UOp> BufferOverHost(const std::string& device, DType dtype,
                                   std::span<const std::byte> data,
                                   std::shared_ptr<const void> owner);

// Copies a BufferOverHost buffer's pending contents onto its device now (a realize of a tensor
// that is that buffer; each of an MSTACK's); nothing for other buffers.
absl::Status EnsureOnDevice(const UOp& buffer);

// Copies a realized BUFFER UOp's contents to `out` (out.size() == the buffer's bytes).
absl::Status CopyOut(const UOp& buffer, std::span<std::byte> out);
// Copies `data` into a BUFFER UOp's buffer (data.size() == the buffer's bytes), allocating it
// first: host data a captured kernel reads, refreshed before a replay (TinyJit's random
// counters).
absl::Status CopyIn(const UOp& buffer, std::span<const std::byte> data);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_REALIZE_H_
