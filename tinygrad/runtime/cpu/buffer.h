// File: tinygrad/runtime/cpu/buffer.h
// Port of tinygrad/runtime/ops_cpu.py: CPUAllocator, host buffers for CPU kernels.
//
// 64-byte aligned (a cache line, and enough for any vector load the renderer emits), zero
// filled, owned (freed when the buffer dies), movable, not copyable.
//
// Example:
//   ASSIGN_OR_RETURN(CpuBuffer buf, CpuBuffer::Allocate(16 * sizeof(float)));
//   buf.CopyIn(std::as_bytes(std::span(host)));
#ifndef TINYGRAD_RUNTIME_CPU_BUFFER_H_
#define TINYGRAD_RUNTIME_CPU_BUFFER_H_

#include <cstddef>
#include <span>

#include "absl/status/statusor.h"

namespace tg {

class CpuBuffer {
 public:
  static constexpr size_t kAlignment = 64;

  // ResourceExhausted when the memory can't be had.
  static absl::StatusOr<CpuBuffer> Allocate(size_t nbytes);

  CpuBuffer(CpuBuffer&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  CpuBuffer& operator=(CpuBuffer&& o) noexcept;
  CpuBuffer(const CpuBuffer&) = delete;
  CpuBuffer& operator=(const CpuBuffer&) = delete;
  ~CpuBuffer();

  void* data() { return data_; }
  const void* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<std::byte> bytes() { return {static_cast<std::byte*>(data_), size_}; }
  std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(data_), size_}; }

  // Copies host memory of exactly size() bytes in / out (CHECKed: a size mismatch is a bug).
  void CopyIn(std::span<const std::byte> src);
  void CopyOut(std::span<std::byte> dst) const;

 private:
  CpuBuffer(void* data, size_t size) : data_(data), size_(size) {}
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CPU_BUFFER_H_
