// File: tinygrad/engine/buffer.h
// Port of tinygrad/device.py Buffer and the `buffers` table of tensor-graph BUFFER UOps.
//
// A Buffer is device memory with a dtype and an element count; it is allocated on first use
// (a scheduled intermediate costs nothing until its kernel runs) and may be a view into
// another buffer. Its contents may be given before that, as host bytes it copies in when it is
// allocated (a tensor loaded from a file mapping is read from the file only when used). The BufferTable maps BUFFER UOps to their Buffers. tinygrad keys this table
// weakly; here the table holds the UOp, and Sweep() drops entries nobody else references, so
// memory is returned when the last tensor (or schedule) using a buffer goes away.
#ifndef TINYGRAD_ENGINE_BUFFER_H_
#define TINYGRAD_ENGINE_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/uop/uop.h"

namespace tg {

class Buffer {
 public:
  Buffer(std::string device, int64_t size, DType dtype)
      : device_(std::move(device)), size_(size), dtype_(dtype) {}
  // A view of `size` elements at byte `offset` of `base` (which must outlive nothing: it is
  // shared).
  Buffer(std::shared_ptr<Buffer> base, int64_t size, DType dtype, int64_t offset);

  const std::string& device() const { return device_; }
  int64_t size() const { return size_; }
  DType dtype() const { return dtype_; }
  size_t nbytes() const { return static_cast<size_t>(size_) * dtype_.itemsize(); }
  int64_t offset() const { return offset_; }
  const std::shared_ptr<Buffer>& base() const { return base_; }
  bool is_allocated() const;
  // Allocated, or given host contents it copies in when allocated: either way it holds data
  // that must not be overwritten (the memory planner reuses only buffers without).
  bool has_contents() const;
  // Whether it (or a view's base) still waits for its host contents to be copied in.
  bool has_pending_contents() const;

  // Gives an unallocated plain buffer its contents: `bytes` (exactly nbytes()), which stay
  // valid and unchanged while `owner` lives (a file mapping). The buffer holds `owner` until
  // EnsureAllocated has copied them in; CopyOut before that reads `bytes` directly.
  // InvalidArgument for a view, an allocated buffer or a size mismatch.
  absl::Status SetPendingContents(std::span<const std::byte> bytes,
                                  std::shared_ptr<const void> owner);

  // Allocates on the device named device() as `options` make it (any options give the same
  // memory: only how a device compiles differs between them), and copies pending contents in.
  absl::Status EnsureAllocated(const DeviceOptions& options);
  // The address kernels take (base address + offset for a view). CHECKs allocation.
  void* data();
  // Host bytes in (allocating first, as EnsureAllocated) and out; device errors pass through.
  absl::Status CopyIn(std::span<const std::byte> src, const DeviceOptions& options);
  absl::Status CopyOut(std::span<std::byte> dst);
  // All of `src` (as many bytes as this buffer) into this buffer without the host, where their
  // devices can (RawBuffer::CopyFromDevice: CUDA to CUDA); Unimplemented where not. Allocates
  // this buffer first; `src` must have been written (FailedPrecondition).
  absl::Status CopyFromDevice(Buffer& src, const DeviceOptions& options);

 private:
  std::string device_;
  int64_t size_;
  DType dtype_;
  std::shared_ptr<Buffer> base_;
  int64_t offset_ = 0;
  std::shared_ptr<RawBuffer> raw_;
  // Host contents not yet copied in (SetPendingContents), and what keeps them valid.
  std::span<const std::byte> pending_;
  std::shared_ptr<const void> pending_owner_;
};

class BufferTable {
 public:
  static BufferTable& Get();  // the process's table (tinygrad's module-level `buffers`)

  // The Buffer behind a BUFFER UOp on one device, or behind MSELECT(BUFFER, i) (device i's part
  // of a multi-device BUFFER), created (unallocated) on first request.
  std::shared_ptr<Buffer> GetOrCreate(const UOp& buffer_uop);
  // The Buffers behind a BUFFER UOp, one per device of a multi-device one (tinygrad's
  // MultiBuffer.bufs), created (unallocated) on first request.
  std::vector<std::shared_ptr<Buffer>> GetOrCreateShards(const UOp& buffer_uop);
  std::shared_ptr<Buffer> Find(const UOp& buffer_uop);  // a BUFFER on one device
  // The Buffers of a BUFFER, one per device of a multi-device one (tinygrad's
  // MultiBuffer.bufs); empty when it has none yet.
  std::vector<std::shared_ptr<Buffer>> FindShards(const UOp& buffer_uop);
  // Makes `buffer_uop` name `buffer` (a view set up by a BUFFER_VIEW item).
  void Set(const UOp& buffer_uop, std::shared_ptr<Buffer> buffer);
  // Drops entries whose UOp is referenced only by this table. Returns how many.
  size_t Sweep();
  // The Buffers that BUFFER UOps name, and their bases: after a Sweep, those that something
  // other than this table holds (tensors, graphs; tinygrad's uop_refcount > 0).
  absl::flat_hash_set<const Buffer*> Named();
  size_t size();

 private:
  std::mutex mu_;
  // BUFFER -> its Buffer, or one per device of a multi-device BUFFER
  absl::flat_hash_map<UOp, std::vector<std::shared_ptr<Buffer>>> table_;
  std::vector<std::shared_ptr<Buffer>>& ShardsLocked(const UOp& buffer);
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_BUFFER_H_
