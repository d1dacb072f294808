// File: tinygrad/engine/host_buffer.h
// A RawBuffer in this process's memory (runtime/cpu's CpuBuffer: 64-byte aligned, zero filled):
// the buffers of the devices whose kernels run on the host, the CPU and the UOp emulator.
#ifndef TINYGRAD_ENGINE_HOST_BUFFER_H_
#define TINYGRAD_ENGINE_HOST_BUFFER_H_

#include <cstddef>
#include <span>

#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cpu/buffer.h"

namespace tg {

class HostRawBuffer : public RawBuffer {
 public:
  explicit HostRawBuffer(CpuBuffer b) : buf_(std::move(b)) {}
  void* data() override { return buf_.data(); }
  size_t nbytes() const override { return buf_.size(); }
  // InvalidArgument for a range outside the buffer.
  absl::Status CopyIn(std::span<const std::byte> src, size_t offset) override;
  absl::Status CopyOut(std::span<std::byte> dst, size_t offset) const override;

 private:
  absl::Status CheckRange(size_t offset, size_t n) const;
  CpuBuffer buf_;
};

}  // namespace tg

#endif  // TINYGRAD_ENGINE_HOST_BUFFER_H_
