// File: tinygrad/runtime/cuda/buffer.h
// Port of tinygrad/runtime/ops_cuda.py: CUDAAllocator. Plain device memory (cuMemAlloc), freed
// when the buffer dies; copies in and out through the driver, and between GPUs (CopyFrom).
//
// Copies to and from the host are synchronous (cuMemcpyHtoD/DtoH from pageable host memory): a
// copy-out waits for the kernels queued before it on the context's default stream, which is
// where CudaProgram launches. A copy-in through a PinnedUploader (pinned_uploader.h) does not
// wait: that is the engine's, as the reference stages copy-ins through pinned memory.
//
// Example:
//   ASSIGN_OR_RETURN(CudaBuffer buf, CudaBuffer::Allocate(gpu, 16 * sizeof(float)));
//   RETURN_IF_ERROR(buf.CopyIn(std::as_bytes(std::span(host))));
#ifndef TINYGRAD_RUNTIME_CUDA_BUFFER_H_
#define TINYGRAD_RUNTIME_CUDA_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/pinned_uploader.h"

namespace tg {

class CudaBuffer {
 public:
  using CUdeviceptr = cuda_abi::CUdeviceptr;

  // `nbytes` of device memory on `ctx` (contents undefined, as cuMemAlloc leaves them). A
  // zero-byte buffer still gets an address (one byte): the driver refuses empty allocations
  // and an empty tensor is legal. ResourceExhausted when the GPU is out of memory.
  static absl::StatusOr<CudaBuffer> Allocate(std::shared_ptr<CudaContext> ctx, size_t nbytes);

  CudaBuffer(CudaBuffer&& o) noexcept;
  CudaBuffer& operator=(CudaBuffer&& o) noexcept;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer();

  // The device address a kernel takes as a buffer argument.
  CUdeviceptr address() const { return ptr_; }
  size_t size() const { return size_; }

  // Copies host memory into [offset, offset + src.size()) / out of [offset, offset +
  // dst.size()). InvalidArgument when the range is outside the buffer; a driver error
  // otherwise (Internal once a kernel fault has poisoned the context).
  absl::Status CopyIn(std::span<const std::byte> src, size_t offset = 0);
  // The same copy-in queued through `uploader` (of this buffer's context), without waiting for
  // the GPU: it lands before whatever is queued after it.
  absl::Status CopyIn(std::span<const std::byte> src, size_t offset, PinnedUploader& uploader);
  absl::Status CopyOut(std::span<std::byte> dst, size_t offset = 0) const;
  // Copies `n` bytes of `src` at `src_offset` (a buffer of this GPU or another) into [offset,
  // offset + n) from GPU memory to GPU memory (cuMemcpyPeer, the reference's _transfer), not
  // through the host. Ordered after the work queued on both contexts, and before what is queued
  // after it. InvalidArgument for a range outside either buffer; the driver's error otherwise
  // (e.g. CUDA_ERROR_PEER_ACCESS_UNSUPPORTED where one GPU cannot reach the other: the caller
  // can copy through the host instead).
  absl::Status CopyFrom(const CudaBuffer& src, size_t src_offset, size_t offset, size_t n);
  // Sets every byte to `value` on the device (cuMemsetD8): queued on the default stream like a
  // kernel, so it is ordered before the launches that follow. What clears a GPU's L2 cache
  // between timed runs: writing a buffer larger than the cache evicts what a kernel left there.
  absl::Status Fill(uint8_t value);

 private:
  CudaBuffer(std::shared_ptr<CudaContext> ctx, CUdeviceptr ptr, size_t size)
      : ctx_(std::move(ctx)), ptr_(ptr), size_(size) {}
  absl::Status CheckRange(size_t offset, size_t n) const;
  void Free();

  std::shared_ptr<CudaContext> ctx_;  // null once moved from
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_BUFFER_H_
